"""One simulated game, start to end, as a row of numbers (standard library only).

This is what a worker process runs: :func:`play_spec` plays one seeded game of a run
between bots (``kum.lab.play_game`` is the same with its arguments checked),
:func:`game_row` turns the finished game into a flat dict, :func:`run_chunk` does both
for a list of game numbers. Seeds are derived, never drawn: game ``i`` of
a run with seed ``s`` always has the seed ``game_seed(s, i)``, and its bots are
seeded with ``bot_seed(game_seed(s, i), seat)``, so any game of any run can be
replayed on its own, in any process.

The lab knows no game: it finds one by name in the registry (``core.registry.default_game()``
when none is given: Kings Under Mountains) and plays it through its hooks: ``with_options``
(rule variants), ``new_session`` (the game's own kind of session), ``summary`` and
``columns`` (the table).

>>> from kum_widget.lab import play_game
>>> game = play_game(0, seed=1, bots=("random", "greedy"))
>>> game.is_over
True
>>> row = game_row(game, 0, ("random", "greedy"))
>>> row["score_0"] == row["developed_0"] - row["undeveloped_0"]
True
>>> list(game_row(play_game(0, bots=("random", "greedy"), rules_of=the_game("bust")), 0, ("random", "greedy")))
['game', 'seed', 'players', 'actions', 'n_winners', 'winners', 'bot_0', 'bot_1', 'score_0', 'score_1', 'win_0', 'win_1']
"""

from __future__ import annotations

import ast
import hashlib
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from ..core.game import CardGame, game_type

if TYPE_CHECKING:  # the bots and the session load on first use
    from ..bots.base import Bot
    from ..core.session import Session

__all__ = ["DEFAULT_MAX_ACTIONS", "FIRST_COLUMN", "LAB_COLUMNS", "LAB_PER_SEAT", "ActionLimitError", "Spec", "Unfinished",
           "bot_label", "bot_of", "bot_seed", "changed_options", "columns", "finished_row", "game_row", "game_seed", "integer",
           "limit_error", "new_session", "play_spec", "run_chunk", "seat_bots", "seating", "stable_number", "table_columns",
           "the_game", "title_of", "with_rules"]

BotSpec = str | Callable[[int], Any]
"""A bot for the lab: a name for ``make_bot`` (``"greedy"``), or a factory
``f(seed) -> bot`` (a bot class such as ``GreedyBot`` is one), so every game gets a
fresh bot seeded from the game."""

LAB_COLUMNS = ("game", "seed", "players", "actions", "n_winners", "winners")
"""The lab's own columns about the whole game (every game has them)."""

LAB_PER_SEAT = ("bot", "score", "win")
"""The lab's own per-seat columns: ``bot_0``, ``score_0``, ``win_0``... (seat number last)."""

FIRST_COLUMN = "first_player"
"""The column a game's ``summary`` may give to say which seat moved first: ``per_seat``'s
``first``, ``compare(seat="first")`` and the analysis helpers read it."""

DEFAULT_MAX_ACTIONS = 10_000
"""The most actions a game of the lab may take (``max_actions``'s default): far more than
a card game needs (random play ends every game that ships with kum_widget within 300), so
a game past it does not end (``core.check_game`` plays its random games to 2000)."""


class ActionLimitError(GameError):
    """A game the lab played did not end within ``max_actions`` actions: a game that never
    ends (a bug in it, or in a bot that keeps it going), or one that needs a higher limit.
    The message names the game and its seed; so do the attributes ``game`` (its registered
    name), ``number`` (in the run), ``seed`` (the game's own: ``new_session(players,
    seed=seed)`` deals it again), ``run_seed`` and ``max_actions``."""

    def __init__(self, message: str, *, game: str | None = None, number: int | None = None, seed: int | None = None,
                 run_seed: int | None = None, max_actions: int | None = None) -> None:
        super().__init__(message)
        self.game, self.number, self.seed, self.run_seed, self.max_actions = game, number, seed, run_seed, max_actions


class Unfinished(dict[str, Any]):
    """In place of a row: a game left out of ``simulate``'s table because it ran past
    ``max_actions`` (with ``unfinished="skip"``): its ``game`` number, ``seed``, ``actions``."""


# -- the game ------------------------------------------------------------------------------


def the_game(game: Any = None, where: str = "simulate") -> CardGame:
    """``game=`` as a :class:`~kum_widget.core.CardGame`: a registered name (``"bust"``),
    a CardGame (its rule options as given) or its class; None: the default game
    (``core.registry.default_game()``, Kings Under Mountains).

    >>> the_game("bust").name, the_game().name
    ('bust', 'kings-under-mountains')
    """
    from ..core.registry import default_game, game_class

    if game is None:
        game = default_game()
    if isinstance(game, str):
        try:
            game = game_class(game)
        except ValueError as exc:
            raise GameError(f"{where}: {exc}") from None
    if isinstance(game, type) and issubclass(game, CardGame):
        game = game()
    if not isinstance(game, CardGame):
        raise GameError(f"{where}: game must be a game's name, a core.CardGame or its class, got {shown(game)}")
    return game


def title_of(game: CardGame) -> str:
    """The name of ``game`` people read (for messages)."""
    return game.title or game.name or type(game).__name__


def with_rules(game: CardGame, rules: Any, where: str = "simulate") -> CardGame:
    """``game`` under ``rules``, through the game's ``with_options``: a dict of its options
    to change, a rules object with an ``options()`` method that gives such a dict (the
    court solitaire's ``kum.CourtRules``), or any object its ``with_options`` takes (Kings
    Under Mountains: a ``kum.Rules``). None: ``game`` as it is. Refused rules raise
    ``ValueError``, in the game's words where it has them.

    >>> class Limit:
    ...     def options(self): return {"limit": 30}
    >>> changed_options(with_rules(the_game("bust"), Limit()))
    {'limit': 30}
    """
    if rules is None:
        return game
    rules = _as_options(rules)
    try:
        return game.with_options(rules)
    except GameError as exc:  # the game's own words: an unknown option, a bad value
        raise GameError(f"{where}: {exc}") from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        if isinstance(rules, Mapping):
            raise GameError(f"{where}: {title_of(game)} refuses rules={shown(rules)} ({exc})") from None
    # Not a dict, and with_options could not read it: a game whose class takes a rules
    # object (KingsUnderMountains(rules)) says why in its own words.
    build: Any = type(game)
    try:
        build(rules)
        reason = None
    except GameError as exc:
        reason = str(exc)
    except Exception:
        reason = None
    if reason:
        raise GameError(f"{where}: {reason} (or a dict of {title_of(game)} options)")
    raise GameError(f"{where}: rules for {title_of(game)} are a dict of its options, got {shown(rules)}")


def _as_options(rules: Any) -> Any:
    """A rules object that gives its options as a dict (``rules.options()``), as that dict;
    anything else (a dict, a game's own rules object) as it is."""
    if isinstance(rules, Mapping) or isinstance(rules, CardGame):
        return rules
    options = getattr(rules, "options", None)
    if not callable(options):
        return rules
    try:
        given = options()
    except TypeError:  # an options that wants arguments: not a rules object's
        return rules
    return dict(given) if isinstance(given, Mapping) else rules


def changed_options(game: CardGame) -> dict[str, Any]:
    """The options of ``game`` that differ from its defaults, as the game names them:
    the keywords of its ``repr`` (``Bust(limit=30)``: ``{"limit": 30}``; Kings Under
    Mountains names a custom deck by its name), else the options whose value differs.

    >>> changed_options(the_game("bust").with_options({"limit": 30}))
    {'limit': 30}
    """
    options = game.options()
    try:
        call = ast.parse(repr(game), mode="eval").body
        if isinstance(call, ast.Call) and not call.args and all(k.arg in options for k in call.keywords):
            return {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        pass
    try:
        defaults = type(game)().options()
    except Exception:  # a game that needs options to exist: every option counts as changed
        defaults = {}
    missing = object()
    return {k: v for k, v in options.items() if defaults.get(k, missing) != v}


def table_columns(game: CardGame, players: int) -> list[str]:
    """The columns a results table of ``game`` starts with: its ``columns`` hook, else
    the lab's own (the game's summary columns follow them as they come)."""
    listed = game.columns(players)
    if listed is not None:
        return [str(c) for c in listed]
    return [*LAB_COLUMNS, *(f"{name}_{seat}" for name in LAB_PER_SEAT for seat in range(players))]


def columns(players: int, game: Any = None) -> list[str]:
    """The columns of a results table for ``players`` seats, in order, for ``game`` (a name,
    a CardGame or its class; default Kings Under Mountains, which lists all of them). A
    game without a ``columns`` hook gives the lab's own; its summary's follow them.

    >>> columns(2, "bust")
    ['game', 'seed', 'players', 'actions', 'n_winners', 'winners', 'bot_0', 'bot_1', 'score_0', 'score_1', 'win_0', 'win_1']
    """
    the = the_game(game, "columns")
    lo, hi = game_type(the).players
    if type(players) is not int or not lo <= players <= hi:
        raise GameError(f"columns: players must be a whole number {lo}..{hi} for "
                        f"{title_of(the)}, got {shown(players)}")
    return table_columns(the, players)


def stable_number(*parts: object) -> int:
    """A 31-bit number from ``parts``, the same in every process, on every machine and
    Python (unlike ``hash()``, salted per process): every seed the lab derives."""
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 33


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` of a run with seed ``seed``.

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    return stable_number("kum-lab/game", integer("seed", seed, "game_seed"), integer("game", game, "game_seed"))


def bot_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game dealt with ``seed_of_game``."""
    return stable_number("kum-lab/bot", integer("seed_of_game", seed_of_game, "bot_seed"), integer("seat", seat, "bot_seed"))


def integer(name: str, value: Any, where: str) -> int:
    """``value`` as an int (a numpy integer from a table is one), or a GameError naming it."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise GameError(f"{where}: {name} must be a whole number, got {shown(value)}")
    return int(value)


def seat_bots(bots: Sequence[BotSpec], game: int, rotate: bool) -> tuple[BotSpec, ...]:
    """Who sits where in game number ``game``: with ``rotate``, the list turns one
    seat per game, so ``bots[0]`` sits at seat ``game % players``.

    >>> seat_bots(("a", "b", "c"), 1, rotate=True)
    ('c', 'a', 'b')
    """
    if isinstance(bots, (str, Mapping)) or not isinstance(bots, Sequence) or not bots:
        raise GameError(f"seat_bots: bots must list one bot per seat, got {shown(bots)}")
    game = integer("game", game, "seat_bots")
    if not isinstance(rotate, bool):
        raise GameError(f"seat_bots: rotate must be True or False, got {shown(rotate)}")
    return seating(bots, game, rotate)


def seating(bots: Sequence[BotSpec], game: int, rotate: bool) -> tuple[BotSpec, ...]:
    """:func:`seat_bots` of checked arguments (a run's: every game goes through here)."""
    n = len(bots)
    if not rotate:
        return tuple(bots)
    shift = game % n
    return tuple(bots[(seat - shift) % n] for seat in range(n))


def bot_label(spec: BotSpec) -> str:
    """The name a bot spec shows in results: the bot name, or the factory's name."""
    if isinstance(spec, str):
        return spec.strip().lower()
    name = getattr(spec, "label", None) or getattr(spec, "__name__", None) or type(spec).__name__
    return str(name)


def bot_of(spec: BotSpec, seed: int) -> Bot:
    """A fresh bot of ``spec`` (a name or a factory) seeded with ``seed``."""
    from ..bots import make_bot  # the bots load on first use

    if isinstance(spec, str):
        return make_bot(spec, seed=seed)
    return make_bot(spec(seed))


def play_spec(spec: Spec, game: int) -> Session:
    """Play game number ``game`` of the run ``spec`` describes (checked) to its end."""
    from ..bots import bot_move

    gs = stable_number("kum-lab/game", spec.seed, game)  # game_seed, bot_seed and seat_bots of checked numbers
    g = new_session(spec.game, spec.players, gs)
    seated = [bot_of(b, stable_number("kum-lab/bot", gs, seat)) for seat, b in enumerate(seating(spec.bots, game, spec.rotate))]
    limit = spec.max_actions
    while not g.is_over:
        if limit is not None and g.move_number >= limit:
            raise limit_error(spec, game, gs)
        g.apply(bot_move(g, seated[g.current_player]))
    return g


def limit_error(spec: Spec, game: int, seed_of_game: int) -> ActionLimitError:
    """The error of game ``game`` of the run ``spec``, dealt from ``seed_of_game``, past ``max_actions``."""
    the = spec.game
    name = f"{title_of(the)} ({the.name!r})" if the.name and the.name != title_of(the) else title_of(the)
    return ActionLimitError(
        f"{name}: game {game} of the run with seed {spec.seed} (dealt with seed {seed_of_game}) did not end within "
        f"max_actions={spec.max_actions} actions: the game (or a bot) may never end it (core.check_game(game) plays "
        "random games to find out), or it needs more (raise max_actions, or None for no limit; simulate's "
        "unfinished='skip' leaves such games out of its table)",
        game=the.name, number=game, seed=seed_of_game, run_seed=spec.seed, max_actions=spec.max_actions,
    )


def new_session(game: CardGame, players: int, seed: int) -> Session:
    """A new game of ``game`` dealt from ``seed``, the game's own kind of session when it
    makes one (``core.session.new_session``: a ``kum.Game`` for Kings Under Mountains).
    Everything else about the deal is in the game's rule options."""
    from ..core.session import new_session as session_of

    return session_of(game, players, seed=seed)


def game_row(g: Session, game: int, seated: Sequence[BotSpec]) -> dict[str, Any]:
    """The finished game ``g`` (of any game) as one flat row: the lab's own columns, then
    the game's (``CardGame.summary``), in the order of the game's ``columns`` hook when it
    has one. ``seated``: the bot spec at each seat."""
    from ..core.session import Session

    if not isinstance(g, Session) or not g.is_over:
        what = "a game that has not ended" if isinstance(g, Session) else shown(g)
        raise GameError(f"game_row: expected a finished game (a session), got {what}")
    game = integer("game", game, "game_row")
    if isinstance(seated, (str, Mapping)) or not isinstance(seated, Sequence) or len(seated) != g.num_players:
        raise GameError(f"game_row: seated must list the bot at each of the {g.num_players} seats, got {shown(seated)}")
    return finished_row(g, game, seated)


def finished_row(g: Session, game: int, seated: Sequence[BotSpec]) -> dict[str, Any]:
    """:func:`game_row` of checked arguments (a run's: every game goes through here)."""
    n = g.num_players
    winners = tuple(g.winners())
    row: dict[str, Any] = {"game": game, "seed": g.seed, "players": n, "actions": g.move_number,
                           "n_winners": len(winners), "winners": winners}
    for name, values in (("bot", [bot_label(spec) for spec in seated]), ("score", g.scores()),
                         ("win", [seat in winners for seat in range(n)])):
        for seat in range(n):
            row[f"{name}_{seat}"] = values[seat]
    row.update(g.game.summary(g.state, g.logs))
    order = g.game.columns(n)
    if order:
        row = {**{c: row[c] for c in order if c in row}, **row}  # the listed first, the rest as they come
    return row




@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play any game of a run (it pickles: small)."""

    seed: int
    players: int
    bots: tuple[BotSpec, ...]
    game: CardGame  # the rules, options applied
    rotate: bool
    max_actions: int | None = DEFAULT_MAX_ACTIONS  # None: no limit
    unfinished: str = "raise"  # a game past max_actions: "raise" an ActionLimitError, or "skip" it

    def play(self, game: int) -> dict[str, Any]:
        try:
            g = play_spec(self, game)
        except ActionLimitError as exc:
            if self.unfinished != "skip":
                raise
            return Unfinished(game=game, seed=exc.seed, actions=self.max_actions)
        return finished_row(g, game, seating(self.bots, game, self.rotate))


def run_chunk(spec: Spec, games: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games numbered ``games`` (one task for an executor)."""
    return [spec.play(i) for i in games]

