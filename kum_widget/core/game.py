"""``CardGame``: the protocol a card game implements to get a session, bots, the lab and a board.

A ``CardGame`` describes the rules; no position lives in it. A *state* is the
game's own object (a dataclass, a dict: anything :meth:`CardGame.clone` can copy)
and every method is a function of it, in the spirit of OpenSpiel's Game/State split
and boardgame.io's moves. Actions are stable ids (ints) with text forms. Chance is
explicit: :meth:`setup` gets a seeded ``random.Random``; a game that needs chance
later keeps that generator in its state.

Required: :meth:`setup`, :meth:`current_player`, :meth:`legal_actions`, :meth:`apply`,
:meth:`is_over`, :meth:`scores`, :meth:`view`. Everything else has a default; see
GAMES.md for a complete example.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from .errors import GameFault, IllegalMoveError, InvalidOptionError, shown
from .events import Note

__all__ = ["CardGame", "top_actions"]

State = Any  # the game's own position object
Event = Any  # what apply returns: text, a Note, or the game's own objects (see describe)


class CardGame:
    """Subclass it and fill in the rules; ``MyGame(option=value)`` picks rule options."""

    name: ClassVar[str] = ""
    """A short id ("high-low"), used by records and ``simulate(game=...)``."""
    title: ClassVar[str] = ""
    """The name people read ("High-Low")."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    defaults: ClassVar[Mapping[str, Any]] = {}
    """Rule options and their default values (bool, int, float or str)."""
    simultaneous: ClassVar[bool] = False
    """True when some steps have several seats choose at once (see :meth:`to_act`)."""
    perfect_information: ClassVar[bool] = False
    """True when every seat sees everything: bots then need no :meth:`determinize`."""
    fair_heuristic: ClassVar[bool] = False
    """True when :meth:`heuristic` reads only what the player to act sees (``check_game``
    tests it: the scores of a position dealt from the player's view are the real ones).
    A greedy bot is then handed the scores alone: no view built, no position dealt. A
    subclass that writes its own ``heuristic`` must say so again (else it is False)."""

    rollout_depth: ClassVar[int] = 10
    """How many moves ISMCTS's rollouts play before :meth:`evaluate` scores the position
    (when the bot is not given a depth): shorter is faster, and as strong when ``evaluate``
    judges a position well (``bench/ismcts_match.py`` tells)."""

    search_iterations: ClassVar[int] = 1000
    """ISMCTS's iterations a decision when the bot is not given a number: what buys a
    strong move at about 0.1 s depends on what an iteration costs in this game."""

    search_prior: ClassVar[float] = 0.0
    """How much ISMCTS's tree trusts :meth:`heuristic` when the bot is not told (its
    ``prior``): 0 for not at all. On the scale of a win (rewards are in [0, 1]): 3 adds
    three wins' worth to the heuristic's favourite on its first visit, fading as 1/(visits
    + 1). A good heuristic lets fewer iterations play as well (``bench/ismcts_match.py``
    tells)."""

    search_exploration: ClassVar[float] = 0.7
    """UCB's exploration constant for ISMCTS when the bot is not told (its
    ``exploration``), on the scale of the rewards ([0, 1]): lower spends more of the
    budget on the moves that look best so far, which pays when the budget is small and
    the moves' rewards lie close together. The search attributes go back to these
    defaults in a subclass that writes its own ``heuristic``, unless it sets them (the
    rollouts play by the heuristic: a new one needs its own tuning)."""

    search_breadth: ClassVar[int] = 0
    """How many moves ISMCTS weighs at its root when the bot is not told (its
    ``breadth``): the heuristic's favourites, the others never played; 0 for every move.
    A narrow root spends a small budget on the moves worth it, when the heuristic's
    favourites hold the best move (``bench/ismcts_match.py`` tells)."""

    search_trees: ClassVar[int] = 1
    """How many trees ISMCTS grows a decision when the bot is not told (its ``trees``),
    sharing the budget and summing their roots' visits (root parallelisation), one after the
    other; whether two trees of half the budget play as well as one of the whole is the
    game's to show (``bench/ismcts_match.py`` tells)."""

    search_split: ClassVar[bool] = False
    """With ``search_trees`` above 1, whether the trees split the root's moves between them
    when the bot is not told (its ``split``): the heuristic's favourite to the first tree,
    the next to the second and so on, each tree weighing its share with its part of the
    budget, as deep as one tree over every move would; the move played is the best on
    average of the trees' most visited. Where summed trees of half the budget play worse
    than one (they search half as deep), split trees may not (``bench/ismcts_match.py``
    tells). A root with fewer than two moves a tree is not split."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "heuristic" in cls.__dict__:  # a new heuristic is not the one proved fair, nor the one the search was tuned to
            for name in ("fair_heuristic", "search_iterations", "search_prior", "search_exploration", "search_breadth", "search_trees",
                         "search_split", "best_actions"):
                if name not in cls.__dict__:
                    setattr(cls, name, getattr(CardGame, name))

    def __init__(self, **options: Any) -> None:
        unknown = [k for k in options if k not in self.defaults]  # keys of any type: nothing sorted or formatted whole
        if unknown:
            known = ", ".join(self.defaults) or "none"
            raise InvalidOptionError(f"{self.title or type(self).__name__}: unknown option {shown(unknown[0], 44)} (options: {known})")
        for key, value in options.items():
            default = self.defaults[key]
            if type(value) is not type(default) and not (type(default) is float and type(value) is int):
                kind = {"int": "whole number", "float": "number", "str": "text", "bool": "True or False"}.get(type(default).__name__, type(default).__name__)
                raise InvalidOptionError(f"option {key!r} must be {'' if kind.startswith('True') else 'a '}{kind} like {default!r}, got {shown(value)}")
        self.rules: dict[str, Any] = {**self.defaults, **options}

    # -- rule options ------------------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """The rule options in force, JSON-safe (records and the lab's columns keep them)."""
        return dict(self.rules)

    def with_options(self, options: Mapping[str, Any]) -> CardGame:
        """The same game with some options changed (``simulate``'s rule variants)."""
        if not isinstance(options, Mapping):
            raise InvalidOptionError(f"options must be a mapping of option names to values, got {shown(options)}")
        bad = [k for k in options if not isinstance(k, str)]
        if bad:  # ** takes text keys only (a TypeError otherwise)
            raise InvalidOptionError(f"{self.title or type(self).__name__}: an option's name is text, got {shown(bad[0])}")
        return type(self)(**{**self.rules, **options})

    def check_players(self, players: int) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            span = f"{self.min_players}" if self.min_players == self.max_players else f"{self.min_players}..{self.max_players}"
            raise InvalidOptionError(f"{self.title or self.name} is for {span} player{'' if span == '1' else 's'}, got {shown(players)}")

    # -- the rules (required) --------------------------------------------------------

    def setup(self, players: int, rng: random.Random) -> State:
        """The start position for ``players`` seats, dealt with ``rng``."""
        raise NotImplementedError(f"{type(self).__name__} must define setup() (see GAMES.md)")

    def current_player(self, state: State) -> int:
        """The seat to act (any value once the game is over)."""
        raise NotImplementedError(f"{type(self).__name__} must define current_player() (see GAMES.md)")

    def to_act(self, state: State) -> list[int]:
        """The seats that choose at once in this step (simultaneous choices: sealed bids,
        drafting), in the order the session asks them. Read only when the game declares
        ``simultaneous = True``; the default is ``[current_player(state)]``.

        The seats before :meth:`current_player` in this list have chosen; their choices are
        in the state but in no other seat's view until the game reveals them (usually when
        the last one chooses). A later chooser's legal actions and view must not depend on
        an earlier chooser's pick (``check_game`` tries two picks and compares): then no
        seat, and no bot, can tell what the others chose, and ISMCTS searches the step as
        simultaneous (each seat's choice weighed without the others')."""
        return [self.current_player(state)]

    def legal_actions(self, state: State) -> list[int]:
        """Every legal action id of the player to act, in a stable order (empty once over)."""
        raise NotImplementedError(f"{type(self).__name__} must define legal_actions() (see GAMES.md)")

    def apply(self, state: State, action: int) -> Sequence[Event] | None:
        """Apply a LEGAL action to ``state`` in place; return its events (or None)."""
        raise NotImplementedError(f"{type(self).__name__} must define apply() (see GAMES.md)")

    def step(self, state: State, action: int) -> None:
        """Apply a LEGAL action with no events wanted (tree search); the default is :meth:`apply`."""
        self.apply(state, action)

    def is_over(self, state: State) -> bool:
        raise NotImplementedError(f"{type(self).__name__} must define is_over() (see GAMES.md)")

    def scores(self, state: State) -> list[float]:
        """One number per seat (final once the game is over); higher is better."""
        raise NotImplementedError(f"{type(self).__name__} must define scores() (see GAMES.md)")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-safe; ``None`` is the full table (a teacher's view).
        It must hold nothing private to another seat."""
        raise NotImplementedError(f"{type(self).__name__} must define view() (see GAMES.md)")

    def public_view(self, state: State) -> dict[str, Any]:
        """What a spectator sees (a board's pass screen): only what is public. The default,
        for perfect-information games, is the full table."""
        if self.perfect_information:
            return self.view(state, None)
        raise NotImplementedError(f"{self.title or self.name} has no public_view(): a board cannot hide hands behind a pass screen")

    # -- text forms (defaults: str(action), and reading back any legal action's text) ---

    def action_text(self, state: State, action: int) -> str:
        """The text of ``action`` in ``state`` ("play 7", "draw"). It may name seats:
        ``{player}`` (the seat to act), ``{seat0}``, ``{seat1}``...; the session fills in
        the players' names (GAMES.md, "Texts that name seats")."""
        return str(action)

    def parse_action(self, state: State, text: str) -> int:
        """The action ``text`` names in ``state``. The default reads the text of any legal
        action (case and spaces aside). To read more (short forms), override it and call
        ``super().parse_action(state, text)`` for text you do not read (it raises
        ``IllegalMoveError``). It gets the text as typed; when it refuses it, the session
        itself reads the texts with placeholders, names filled in ("Ada plays on Bo")."""
        key = " ".join(text.lower().split())
        for action in self.legal_actions(state):
            if " ".join(self.action_text(state, action).lower().split()) == key:
                return action
        raise IllegalMoveError(f"{text[:80]!r} is not a legal action now")

    def refusal(self, state: State, action: int) -> str | None:
        """Why ``action`` (not among the legal actions) is illegal in ``state``: a rule, in
        words. Asked only for illegal actions; the legal list decides what is legal."""
        return "not a legal action now"

    # -- what happened, in words ---------------------------------------------------------------

    def describe(self, state: State, event: Event, viewer: int | None) -> str | None:
        """``event`` as a sentence for ``viewer`` (a seat; None: the full table; -1: a
        spectator, who sees only what is public), or None if it is hidden from them.
        The default reads text (public) and :class:`Note` (private parts). The session
        fills in the placeholders of the text it returns: ``{player}`` for the event's
        ``seat``, ``{seat0}``, ``{seat1}``... for the others."""
        if isinstance(event, Note):
            return event.text_for(viewer)
        return str(event)

    def winners(self, state: State) -> list[int]:
        """The seats with the top score once over (ties share)."""
        if not self.is_over(state):
            return []
        sc = self.scores(state)
        top = max(sc)
        return [p for p, v in enumerate(sc) if v == top]

    # -- positions ---------------------------------------------------------------------------

    def clone(self, state: State) -> State:
        """An independent copy of ``state`` (deep copy; override for speed)."""
        return copy.deepcopy(state)

    def same(self, a: State, b: State) -> bool:
        """Are two positions equal? (The checker's determinism and undo checks.) The default
        compares the full views, a NaN equal to a NaN at the same place (a view holding one
        is the JSON check's to name, not every comparison's)."""
        return same_views(self.view(a, None), self.view(b, None))

    # -- optional hooks ------------------------------------------------------------------------

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        """A full position consistent with ``view`` (seat's view), the hidden cards dealt
        at random: what ISMCTS and the greedy bot search. Perfect-information games need
        none. Must give back exactly ``view`` from ``self.view(result, seat)``."""
        raise NotImplementedError(f"{self.title or self.name} has no determinize(): only RandomBot can play it with hidden cards")

    def sampler(self, view: dict[str, Any], seat: int) -> Callable[[random.Random], State]:
        """``sample(rng)``: positions consistent with ``view``, one per call (ISMCTS deals one
        per iteration). Override to prepare once per decision; the default calls
        :meth:`determinize`."""
        return lambda rng: self.determinize(view, seat, rng)

    def any_position(self, view: dict[str, Any], seat: int) -> State:
        """One position consistent with ``view``, for a heuristic that reads only what
        the seat knows (the greedy bot)."""
        return self.sampler(view, seat)(random.Random(0))

    def heuristic(self, state: State, actions: list[int]) -> list[float] | None:
        """A score for each legal action of the player to act (higher is better), reading
        only what that player knows and changing nothing; the greedy bot plays the best.
        None: no heuristic."""
        return None

    def best_actions(self, state: State, legal: list[int]) -> list[int] | None:
        """The actions of ``legal`` that :meth:`heuristic` rates best (within 1e-9 of the
        top score), in ``legal``'s order; None when the game has no heuristic. ``legal`` is
        the position's legal actions as :meth:`legal_actions` lists them. ISMCTS's rollouts
        play one of these at nearly every step: a game may override this for speed (the
        checker compares it with the heuristic's scores), and a subclass that writes its
        own ``heuristic`` is given this default back unless it writes its own as well."""
        scores = self.heuristic(state, legal)
        return None if scores is None else top_actions(legal, scores)

    def evaluate(self, state: State) -> list[float] | None:
        """For ISMCTS rollouts cut short: each seat's chance of winning from ``state``, in
        [0, 1]. None (the default): rollouts play on to the end."""
        return None

    def summary(self, state: State, logs: Sequence[Sequence[Event]]) -> dict[str, Any]:
        """The lab's columns for a finished game, from its last position and the events of
        every action (JSON-safe values; a column per seat ends in ``_<seat>``). The lab adds
        the scores, winners and bots."""
        return {}

    def columns(self, players: int) -> list[str] | None:
        """The order of the lab's table for ``players`` seats: the lab's own columns
        (``game``, ``seed``, ``players``, ``actions``, ``n_winners``, ``winners``, per seat
        ``bot_s``, ``score_s``, ``win_s``) and the :meth:`summary`'s, as it should show them.
        Every column listed is in the table; one it leaves out follows in the order it
        comes. None (the default): the lab's own columns, then the summary's as they come."""
        return None

    def turn(self, state: State) -> int | None:
        """The number of the turn being played, if the game counts turns: a record puts
        each turn on its own line. None (the default): a turn is a run of one seat's actions."""
        return None

    def save_position(self, state: State) -> Any:
        """The position as JSON (a dict of lists and numbers), so a session that starts
        from a position built by hand can be saved; None (the default): it cannot."""
        return None

    def load_position(self, data: Any) -> State:
        """Inverse of :meth:`save_position`, checking what it reads (a saved game may be hostile):
        raise a GameError that names what is wrong."""
        raise InvalidOptionError(f"{self.title or type(self).__name__} cannot read a saved position (no load_position() hook)")

    def secrets(self, state: State, seat: int) -> list[Any]:
        """Values only ``seat`` may know now (say, the cards of its hand as its view writes
        them): the checker makes sure no other seat's view holds one."""
        return []

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        """The table as the board draws it, from ``view`` alone (so it can show nothing
        the view does not; see GAMES.md: zones, cards, counters). ``seat`` is whose view
        it is (None: the full table or a spectator). None: the board shows the view as text."""
        return None

    def click(self, state: State, action: int) -> dict[str, Any]:
        """Where on the board ``action`` is clicked: ``{"target": id}`` or ``{"source": id,
        "target": id}`` with the ids of the board's cards or zones. The default is a
        button with the action's text."""
        return {}

    # -- names -------------------------------------------------------------------------------

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.rules.items() if self.defaults.get(k) != v}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in changed.items())})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options() == self.options()

    def __hash__(self) -> int:
        return hash((type(self).__name__, repr(sorted(self.options().items()))))


def same_views(a: Any, b: Any) -> bool:
    """``a == b`` for views (JSON-like trees), but a NaN equals a NaN.

    >>> same_views({"odds": [float("nan"), 1]}, {"odds": [float("nan"), 1]})
    True
    """
    if a == b:
        return True
    if isinstance(a, float) and isinstance(b, float):
        return a != a and b != b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_views(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same_views(x, y) for x, y in zip(a, b, strict=True))
    return False


def top_actions(legal: Sequence[int], scores: Sequence[float]) -> list[int]:
    """The actions of ``legal`` whose scores are within 1e-9 of the top one, in order:
    what :meth:`CardGame.best_actions` gives by default (and what the checker expects).

    A NaN score (a bug in the game's heuristic: ``check_game`` names it) counts as the
    worst: never top while another action has a score, and when every score is NaN every
    action ties. Scores that are not numbers are a :class:`GameFault`.

    >>> top_actions([3, 5, 8], [0.5, 2.0, 2.0])
    [5, 8]
    >>> top_actions([3, 5], [float("nan"), 0.5])
    [5]
    """
    try:
        if len(scores) != len(legal):
            raise GameFault(f"the heuristic gave {len(scores)} scores for {len(legal)} actions")
        if len(scores) == 0:  # (not `not scores`: a heuristic may give a numpy array)
            return []
        top = max(scores)  # (a NaN compares false both ways: max() keeps one only when it comes first)
        if top != top:
            numbers = [x for x in scores if x == x]
            if not numbers:  # every score NaN: no opinion, every action ties
                return list(legal)
            top = max(numbers)
        bar = top - 1e-9
        return [a for a, x in zip(legal, scores, strict=False) if x >= bar]  # (checked above: strict costs twice as much)
    except TypeError:  # not numbers (or no list of them)
        raise GameFault(f"the heuristic's scores must be numbers, {_not_numbers(legal, scores)}") from None


def _not_numbers(legal: Sequence[int], scores: Any) -> str:
    """Which of ``scores`` is not a number, in words (for :func:`top_actions`' error)."""
    from numbers import Real

    try:
        for a, x in zip(legal, scores, strict=False):
            if not isinstance(x, Real):
                return f"got {shown(x)} for action {shown(a)}"
    except TypeError:
        pass
    return f"got {shown(scores)}"
