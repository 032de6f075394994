"""A game's chance: where it comes from, and that it comes only from the generator ``setup()``
is handed.

A game's chance is the ``random.Random`` its ``setup(players, rng)`` receives (a game that
needs chance later keeps that generator in its state). :class:`CountingRandom` is such a
generator that counts its draws; :func:`measure_chance` deals and plays a few random games
with one to tell chance at the deal from chance during play (:class:`Chance`); and
:func:`foreign_randomness` plays the same games twice, Python's global generator seeded
otherwise each time, to catch a game that draws chance anywhere else (an unseeded
``random.Random()``, ``random.random()``, ``random.shuffle``): such a game cannot be
replayed, its records do not reload, and the lab's luck measurements are wrong.

>>> from kum_widget.core.examples import Bust
>>> chance = measure_chance(Bust(), 2)
>>> chance.at_setup, chance.during_play, chance.draws_in_play, chance.words
(True, False, 0, 'chance at the deal only')
>>> foreign_randomness(Bust(), 2) is None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import GameError, GameFault, InvalidOptionError, cut, shown
from .game import CardGame

__all__ = ["Chance", "CountingRandom", "foreign_randomness", "measure_chance"]

T = TypeVar("T")


class _CountedState(tuple[Any, ...]):
    """What :meth:`CountingRandom.getstate` gives: ``random.Random``'s own state (any
    generator reads it) with the count alongside, as ``.draws``."""

    draws: int


class CountingRandom(random.Random):
    """A ``random.Random`` that counts its draws in :attr:`draws`: the same numbers, seed
    for seed, as ``random.Random``.

    Every public method of ``random.Random`` draws through :meth:`random` or
    :meth:`getrandbits` (the tests try each), so counting those two counts them all; one
    call may take several numbers (``randrange`` retries past its range). Copies
    (``copy.deepcopy``, pickle, ``getstate``/``setstate``) keep the count; seeding is not a
    draw and keeps it too.

    >>> r = CountingRandom(2)
    >>> r.randrange(6) == random.Random(2).randrange(6), r.draws  # 3 bits a try, 6 and 7 tried again
    (True, 5)
    """

    draws: int

    def __init__(self, x: Any = None) -> None:
        self.draws = 0
        super().__init__(x)

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.draws += 1
        return super().getrandbits(k)

    def randbytes(self, n: int) -> bytes:
        # Through getrandbits, as random.py writes it (a C randbytes would count nothing).
        return self.getrandbits(n * 8).to_bytes(n, "little")

    def getstate(self) -> tuple[Any, ...]:
        state = _CountedState(super().getstate())
        state.draws = self.draws
        return state

    def setstate(self, state: tuple[Any, ...]) -> None:
        super().setstate(state)
        # A plain generator's state carries no count: this one keeps its own.
        self.draws = getattr(state, "draws", self.draws)

    def __reduce__(self) -> tuple[Any, ...]:
        # (0,) not (): the copy's seed is thrown away at once, and 0 costs no os.urandom
        return type(self), (0,), self.getstate()


@dataclass(frozen=True, kw_only=True)
class Chance:
    """What :func:`measure_chance` found about a game's chance."""

    at_setup: bool
    """Deals from different seeds differ (``game.same`` says so of some pair)."""
    during_play: bool
    """The generator is drawn from during play, and what it draws changes the game: the
    same actions replayed from the same deal, the generator re-seeded, diverge."""
    draws_at_setup: int
    """Draws from the generator by ``setup()``, over the games measured."""
    draws_in_play: int
    """Draws from the generator after ``setup()``, over the games measured."""
    games: int
    """The games dealt and played."""
    actions: int
    """The actions played, over those games."""

    @property
    def has_chance(self) -> bool:
        return self.at_setup or self.during_play

    @property
    def words(self) -> str:
        """The finding as one plain sentence."""
        idle = self.draws_in_play > 0 and not self.during_play  # drawn, and nothing came of it
        if self.at_setup and self.during_play:
            return "chance at the deal and during play"
        if self.at_setup:
            return "chance at the deal only: what is drawn during play changes nothing" if idle else "chance at the deal only"
        if self.during_play:
            return "chance during play only: every deal is the same"
        if idle:
            return "no chance: every deal is the same, and what is drawn during play changes nothing"
        return "no chance: every deal is the same and nothing is drawn during play"


# -- measuring ------------------------------------------------------------------------------------


def measure_chance(game: CardGame, players: int, *, seed: int = 0, games: int = 8, max_actions: int = 2000) -> Chance:
    """Where ``game``'s chance comes from, for ``players`` seats: ``games`` deals from
    different seeds compared (chance at the deal), and each played to its end (at most
    ``max_actions`` actions) with random legal actions, counting the draws from the
    generator the game was handed; a game that draws during play is replayed from the same
    deal, with the same actions, the generator re-seeded right after ``setup()``, to see
    whether the draws change anything. The same ``seed`` gives the same answer: the actions
    are chosen with a generator of their own, never the game's.

    A crash in the game's code is a :class:`GameFault` naming its method."""
    _check(game, players, seed, games, max_actions, "measure_chance", least=2)
    picker = random.Random(seed)
    deals = []  # (seed, generator, position): every deal first, so they are compared before any is played
    for _ in range(games):
        deal = picker.randrange(2**31)
        rng = CountingRandom(deal)
        deals.append((deal, rng, _call(game, "setup", game.setup, players, rng)))
    draws_at_setup = sum(rng.draws for _, rng, _ in deals)
    first = deals[0][2]
    at_setup = any(not _call(game, "same", game.same, first, state) for _, _, state in deals[1:])
    during_play = False
    draws_in_play = actions = 0
    courses = []
    for deal, rng, state in deals:
        before = rng.draws
        chosen = _play(game, state, picker, max_actions)
        courses.append(chosen)
        drawn = rng.draws - before
        draws_in_play += drawn
        actions += len(chosen)
        if drawn and not during_play:
            during_play = _diverges(game, players, deal, state, chosen)
    if not during_play and draws_at_setup:  # a generator of its own, seeded at the deal, may draw during play
        during_play = any(_apart(game, players, deals[0][0], deal, courses[0]) for deal, _, _ in deals[1:])
    return Chance(at_setup=at_setup, during_play=during_play, draws_at_setup=draws_at_setup, draws_in_play=draws_in_play,
                  games=games, actions=actions)


def _play(game: CardGame, state: Any, picker: random.Random, max_actions: int) -> list[tuple[int, list[int]]]:
    """Play ``state`` on with random legal actions (chosen with ``picker``): each action with
    the legal list it was chosen from."""
    chosen: list[tuple[int, list[int]]] = []
    while len(chosen) < max_actions and not _call(game, "is_over", game.is_over, state):
        legal = list(_call(game, "legal_actions", game.legal_actions, state))
        if not legal:
            break
        action = legal[picker.randrange(len(legal))]
        _call(game, "apply", game.apply, state, action)
        chosen.append((action, legal))
    return chosen


def _diverges(game: CardGame, players: int, deal: int, played: Any, chosen: list[tuple[int, list[int]]]) -> bool:
    """Does replaying ``chosen`` from the deal of ``deal``, the generator re-seeded right
    after ``setup()``, leave the game that was ``played``?"""
    rng = CountingRandom(deal)
    state = _call(game, "setup", game.setup, players, rng)
    rng.seed(f"kum-chance/{deal}/again")  # the game keeps this very object: from here on it draws other numbers
    for action, legal in chosen:
        if list(_call(game, "legal_actions", game.legal_actions, state)) != legal:
            return True  # (an action made illegal shows here too)
        _call(game, "apply", game.apply, state, action)
    return not _call(game, "same", game.same, state, played)


def _apart(game: CardGame, players: int, a: int, b: int, chosen: list[tuple[int, list[int]]]) -> bool:
    """Do the deals of ``a`` and ``b``, alike when dealt, come apart when the same actions
    (``chosen``, from deal ``a``) are played on both? Then the deal hid chance in the
    position (a generator of the game's own, seeded from the one it was handed) that shows
    during play."""
    first = _call(game, "setup", game.setup, players, CountingRandom(a))
    second = _call(game, "setup", game.setup, players, CountingRandom(b))
    if not _call(game, "same", game.same, first, second):
        return False  # they differ when dealt: that is chance at the deal, found already
    for action, legal in chosen:
        if list(_call(game, "legal_actions", game.legal_actions, second)) != legal:
            return True
        _call(game, "apply", game.apply, first, action)
        _call(game, "apply", game.apply, second, action)
        if not _call(game, "same", game.same, first, second):
            return True
    return False


# -- foreign randomness ------------------------------------------------------------------------------


def foreign_randomness(game: CardGame, players: int, *, seed: int = 0, games: int = 4, max_actions: int = 2000) -> str | None:
    """Where ``game`` draws chance from anything but the generator ``setup()`` hands it, in
    words; None when nowhere is found.

    Each of ``games`` seeded deals is played twice side by side with the same random legal
    actions (at most ``max_actions``), Python's global ``random`` module seeded differently
    for each run; the positions (``game.same``) and the legal actions are compared after
    the deal and after every action, and the first difference is named (the game, its
    seed, the action, what differed). A game that makes its own unseeded
    ``random.Random()``, or calls ``random.random()`` or ``random.shuffle``, is caught so.
    The global generator is left as it was (it is shared with the rest of the program: do
    not run this while other threads draw from it).

    A crash in the game's code is a :class:`GameFault` naming its method."""
    _check(game, players, seed, games, max_actions, "foreign_randomness", least=1)
    picker = random.Random(seed)
    saved = random.getstate()
    try:
        for number in range(1, games + 1):
            deal = picker.randrange(2**31)
            found = _twice(game, players, deal, picker, max_actions)
            if found:
                return (f"game {number} of {games} (dealt with seed {deal}), {found} with Python's global random module seeded "
                        f"otherwise: {type(game).__name__} draws chance from somewhere other than the generator setup() hands "
                        "it (an unseeded random.Random(), random.random(), random.shuffle...), so its games cannot be replayed")
        return None
    finally:
        random.setstate(saved)


def _twice(game: CardGame, players: int, deal: int, picker: random.Random, max_actions: int) -> str | None:
    """Play the deal of ``deal`` twice in step, each run with the global generator in its own
    state (swapped in for the run's every call, out for the comparisons); the first
    difference as "<when>: <what>", or None."""
    streams = []
    for salt in (1, 2):
        random.seed(f"kum-chance/{deal}/{salt}")  # text seeds: nothing the game's own seeds could match
        streams.append(random.getstate())

    def run(k: int, method: str, call: Callable[..., T], *args: Any) -> T:
        random.setstate(streams[k])
        try:
            return _call(game, method, call, *args)
        finally:
            streams[k] = random.getstate()

    states = [run(k, "setup", game.setup, players, random.Random(deal)) for k in (0, 1)]
    when, moves = "at the deal", 0
    while True:
        if not _call(game, "same", game.same, states[0], states[1]):
            return f"{when}: the positions differ{_where(game, states)}"
        if moves >= max_actions or run(0, "is_over", game.is_over, states[0]):
            return None
        legal = [list(run(k, "legal_actions", game.legal_actions, states[k])) for k in (0, 1)]
        if legal[0] != legal[1]:
            return f"{when}: the legal actions differ ({shown(legal[0])} and {shown(legal[1])})"
        if not legal[0]:
            return None
        action = legal[0][picker.randrange(len(legal[0]))]
        when = f"after action {moves + 1} ({_action_text(game, states[0], action)})"  # named before it changes the position
        for k in (0, 1):
            run(k, "apply", game.apply, states[k], action)
        moves += 1


def _where(game: CardGame, states: list[Any]) -> str:
    """Where the full views of two positions first differ, in words (" (at stones, ...)"),
    or nothing when the views are equal (the game's own ``same`` saw a difference)."""
    from .checker_faults import first_difference  # only here: a difference is rare

    try:
        found = first_difference(game.view(states[0], None), game.view(states[1], None), "the first run", "the second")
    except Exception:  # the views are for the checker to judge: say less
        return ""
    return f" ({found})" if found else ""


def _action_text(game: CardGame, state: Any, action: int) -> str:
    try:
        return cut(str(game.action_text(state, action)), 60)
    except Exception:  # a game that cannot name its action: its id will do
        return shown(action)


# -- shared -----------------------------------------------------------------------------------------


def _call(game: CardGame, method: str, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)``, a crash in it a GameFault naming the game's ``method``."""
    try:
        return call(*args)
    except Exception as exc:
        raise GameFault(f"{type(game).__name__}.{method}() raised {type(exc).__name__}: {cut(str(exc), 160)}") from exc


def _check(game: Any, players: Any, seed: Any, games: Any, max_actions: Any, where: str, *, least: int) -> None:
    if not isinstance(game, CardGame):
        raise GameError(f"{where} takes a CardGame (the rules), got {type(game).__name__}")
    game.check_players(players)
    if type(seed) is not int:
        raise InvalidOptionError(f"{where}: seed must be a whole number, got {shown(seed)}")
    if type(games) is not int or not least <= games <= 1000:
        why = " (deals are compared in pairs)" if least > 1 else ""
        raise InvalidOptionError(f"{where}: games must be a whole number {least}..1000{why}, got {shown(games)}")
    if type(max_actions) is not int or max_actions < 1:
        raise InvalidOptionError(f"{where}: max_actions must be a whole number >= 1, got {shown(max_actions)}")
