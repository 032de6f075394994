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
import dataclasses
import inspect
import random
import weakref
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from .actions import Action
from .capabilities import GameType, read_game_type
from .declare import RuleOptions, check_type, option_signature
from .errors import GameFault, IllegalMoveError, InvalidOptionError, shown
from .events import Note
from .kinds import MAX_KIND, mirror_groups, text_kind
from .scores import finite_scores, same_views, top_actions

__all__ = ["CardGame", "GameType", "RuleOptions", "action_kinds", "declares_kinds", "game_type", "nothing_hidden", "same_views", "top_actions"]

State = Any  # the game's own position object
Event = Any  # what apply returns: text, a Note, or the game's own objects (see describe)


class CardGame:
    """Subclass it and fill in the rules; ``MyGame(option=value)`` picks rule options.

    The required methods raise ``NotImplementedError``; every other attribute and method
    is an optional capability with a default, each listed in GAMES.md ("The idea")."""

    name: ClassVar[str] = ""
    """A short id ("high-low"), used by records and ``simulate(game=...)``."""
    title: ClassVar[str] = ""
    """The name people read ("High-Low")."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names the registry finds the game by (Kings Under Mountains: ``("kum",)``)."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    defaults: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Rule options and their default values (bool, int, float or str), each value checked
    by its default's type. With an :attr:`options_class`, its defaults (read only)."""
    options_class: ClassVar[type[RuleOptions] | None] = None
    """The rule options as a frozen dataclass (a :class:`~kum_widget.core.RuleOptions`),
    for options with checks of their own; None: :attr:`defaults` declares them."""
    simultaneous: ClassVar[bool] = False
    """True when some steps have several seats choose at once (see :meth:`to_act`)."""
    perfect_information: ClassVar[bool] = False
    """True when every seat sees everything: bots then need no :meth:`determinize`. A game
    with :attr:`simultaneous` steps never has it, whatever it declares (a pick is sealed until
    the game shows it): see :func:`nothing_hidden`; ``check_game`` verifies the claim."""
    fair_heuristic: ClassVar[bool] = False
    """True when :meth:`heuristic` reads only what the player to act sees (``check_game``
    tests it: the scores of a position dealt from the player's view are the real ones).
    A greedy bot is then handed the scores alone: no view built, no position dealt. A
    subclass inherits it with the heuristic; the checker's "heuristic reads only the view"
    fails a new heuristic that reads more."""
    search_hints: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Settings this game suggests to searching bots, named as ``ISMCTSBot``'s keyword
    arguments (``iterations``, ``rollout_depth``, ``prior``, ``exploration``, ``breadth``,
    ``trees``, ``split``): ``{"iterations": 400, "prior": 3.0}``. The bot owns its settings
    and their defaults: a setting it is given wins over a hint, and it refuses a bad hint
    by name. A subclass inherits them (``{**Parent.search_hints, "iterations": 200}``
    changes one); ``bench/ismcts_match.py`` tells which settings play best."""

    mirror_kinds: ClassVar[tuple[tuple[str, ...], ...]] = ()
    """Groups of action kinds (:meth:`action_kind`'s names) that are mirror images of one
    another, so that no experiment can tell them apart: Connect Four's columns 1 and 7, or
    four races dealt at random. The lab asks one question of each group ("never a kind of
    this group") and never names one member over another. Checked when the class is
    defined: groups of two or more kinds, no kind in two groups."""

    illegal_error: ClassVar[type[IllegalMoveError]] = IllegalMoveError
    """What a session raises for an action the rules refuse now (the message: the action's
    text, its id and :meth:`refusal`'s reason). A game with errors of its own names its
    subclass here (Kings Under Mountains: ``kum.IllegalActionError``)."""
    option_error: ClassVar[type[InvalidOptionError]] = InvalidOptionError
    """What a session raises for a seat, a count of steps or lines it cannot take."""

    rules: dict[str, Any]
    """The rule options in force, as JSON values: ``self.rules["limit"]``."""
    settings: RuleOptions | None = None
    """The same as an :attr:`options_class` object (None without one): ``self.settings.limit``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _declare_options(cls)
        if "mirror_kinds" in cls.__dict__:
            cls.mirror_kinds = mirror_groups(cls.__dict__["mirror_kinds"], f"{cls.__name__}.mirror_kinds")

    def __init__(self, **options: Any) -> None:
        kind = type(self)
        unknown = [k for k in options if k not in self.defaults]  # keys of any type: nothing sorted or formatted whole
        if unknown:
            known = ", ".join(self.defaults) or "none"
            raise InvalidOptionError(f"{self.title or kind.__name__}: unknown option {shown(unknown[0], 44)} (options: {known})")
        if kind.options_class is not None:
            self.settings = kind.options_class.from_options(options)
            self.rules = self.settings.options()
            return
        for key, value in options.items():
            default = self.defaults[key]
            if type(default) in (bool, int, float, str):
                check_type(key, value, type(default), default)
            elif type(value) is not type(default):
                raise InvalidOptionError(f"option {key!r} must be a {type(default).__name__} like {shown(default)}, got {shown(value)}")
        self.rules = {**self.defaults, **options}

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

    def actions(self, state: State) -> list[Any]:
        """The legal actions in ``state`` as the session hands them out, in the order of
        :meth:`legal_actions` (a new list each call): each ``Action(a, action_text(state, a),
        move(state, a))``. For speed: a game whose actions read the same in every position
        of a deal can make each once and keep it (Kings Under Mountains does, per deck).
        Only for texts with no placeholders (``{player}``): the session names those itself.
        ``check_game`` compares them with what the session makes ("action text round trip")."""
        return [Action(a, str(self.action_text(state, a)), self.move(state, a)) for a in self.legal_actions(state)]

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
        for perfect-information games (with no simultaneous steps), is the full table."""
        if nothing_hidden(self):
            return self.view(state, None)
        if self.perfect_information:  # the full table would show a sealed pick to the next chooser, at the pass screen
            raise NotImplementedError(f"{self.title or self.name} has no public_view(): its simultaneous picks are sealed, "
                                      "so a board cannot show the full table behind a pass screen")
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

    def is_legal(self, state: State, action: int) -> bool:
        """Whether ``action`` is legal in ``state``: ``action in legal_actions(state)`` (the
        default). A game may answer without building the list (every ``apply`` asks)."""
        return action in self.legal_actions(state)

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
        sc = finite_scores(self, self.scores(state))  # (a NaN would make no seat the winner)
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
        checker compares it with the heuristic's scores). A subclass that writes its own
        ``heuristic`` inherits this too: it writes its own ``best_actions`` as well, or
        takes this one back (``best_actions = CardGame.best_actions``); the checker's
        "best actions agree" names a stale one."""
        scores = self.heuristic(state, legal)
        return None if scores is None else top_actions(legal, scores)

    def view_heuristic(self, view: dict[str, Any], actions: list[int]) -> list[float] | None:
        """The :meth:`heuristic`'s scores read from the view of the seat to act, with no
        position dealt (the greedy bot then deals none). None (the default): the bot deals
        a position from the view (:meth:`any_position`) and asks :meth:`heuristic`."""
        return None

    def evaluate(self, state: State) -> list[float] | None:
        """For ISMCTS rollouts cut short: each seat's chance of winning from ``state``, in
        [0, 1]. None (the default): rollouts play on to the end."""
        return None

    def action_kind(self, state: State, action: int) -> str | None:
        """What kind of play ``action`` (a legal action of the player to act) is, in a few
        words of the game's own ("draw deck", "column 4"), reading only what that player
        knows: the lab's "what wins" asks what changes when a player never takes a kind
        (``kum.lab.restricted``). None (the default): the game declares no kinds, and the
        lab groups its actions by the words of their text before the first number."""
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

    def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
        """Why ``part`` (the id of a card, piece, zone, cell or place on the board drawn for
        ``seat``) takes no legal action of ``seat`` now, the seat to act, in words: read from
        ``view``, that seat's own view, alone (as :meth:`board` is), so it can say nothing
        the seat may not know. The board shows it when the part is pointed at. Asked only
        for parts no legal action uses. None (the default): nothing to say (the board then
        says it plainly for the cards in the seat's own hand)."""
        return None

    def how_to_play(self) -> dict[str, Any] | None:
        """The game's help, in its own words, for the board's "?" panel: ``{"intro": ...,
        "rules": ...}``, each a text (its paragraphs apart by a blank line) or a list of
        paragraphs, either left out if the game has none. ``intro`` is short (the goal, a
        turn, how to read the table: the board opens it the first time the game is shown);
        ``rules`` is the whole rules text (folded under the intro). It may read the rule
        options (``self.rules``), never a position. None (the default): the panel shows the
        board's keys alone (and an ``intro`` the game's :meth:`board` gives, if any)."""
        return None

    # -- sessions and bots ------------------------------------------------------------------

    def new_session(self, players: Any = None, *, seed: int | None = None, **setup: Any) -> Any:
        """A new game of these rules, for the board and the lab (``core.session.new_session``
        asks here first): override it to start the game's own kind of session (Kings Under
        Mountains gives a ``kum.Game``, which takes ``races``), refusing the ``setup``
        options it does not take. None (the default): a core ``Session``, which takes no
        setup options."""
        if setup:
            raise InvalidOptionError(f"{self.title or self.name}: unknown option {shown(next(iter(setup)), 44)} for a new game")
        return None

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> CardGame:
        """The rules a view was made under, for a bot called as ``choose(view, legal)`` (the
        view names the game, ``view["game"]``). The default: the game with its default options."""
        return cls()

    def move(self, state: State, action: int) -> Any:
        """The game's own object for the legal ``action`` in ``state`` (Kings Under
        Mountains' ``Play``, ``Draw``, ``Discard``): a session's :class:`~kum_widget.core.Action`
        carries it as ``move``. None (the default): the game's actions are ids and texts."""
        return None

    def encode(self, view: dict[str, Any], action: Any) -> int:
        """The id of ``action``, one of the game's own objects (:meth:`move`'s), in the
        position ``view`` shows to the seat to act: a session's ``apply(Play(...))`` and a
        bot called as ``choose(view, legal)`` turn them into ids here. Refuse an object that
        names nothing of this game with :attr:`illegal_error`. The default takes ids alone."""
        if isinstance(action, int) and not isinstance(action, bool):
            return int(action)
        raise IllegalMoveError(f"{self.title or type(self).__name__} has no encode(): its actions are ids, got {shown(action)}")

    # -- names -------------------------------------------------------------------------------

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.rules.items() if self.defaults.get(k) != v}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in changed.items())})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options() == self.options()

    def __hash__(self) -> int:
        return hash((type(self).__name__, repr(sorted(self.options().items()))))


def game_type(game: CardGame | type[CardGame]) -> GameType:
    """What a game class (or the class of a game) declares and which optional methods it
    writes (:class:`~kum_widget.core.capabilities.GameType`), read once per class and
    checked: a declaration of the wrong kind is an :class:`InvalidOptionError` naming it."""
    cls = game if isinstance(game, type) else type(game)
    if not issubclass(cls, CardGame):
        raise InvalidOptionError(f"a game is a core.CardGame (class or instance), got {shown(game)}")
    found = _TYPES.get(cls)
    if found is None:
        found = _TYPES[cls] = read_game_type(cls, CardGame)
    return found


_TYPES: weakref.WeakKeyDictionary[type, GameType] = weakref.WeakKeyDictionary()  # (a class made in a loop is freed)


def nothing_hidden(game: CardGame) -> bool:
    """May a bot, a hint or a spectator be handed the whole position? Only in a game of
    perfect information with no simultaneous steps: a pick made in such a step is sealed
    from the other seats until the game shows it, whatever the game declares."""
    return game_type(game).nothing_hidden


def declares_kinds(game: CardGame) -> bool:
    """Does ``game`` declare its action kinds (its class writes :meth:`CardGame.action_kind`)?"""
    return game_type(game).has("action_kind")


def action_kinds(game: CardGame, state: Any, actions: Sequence[int]) -> list[str]:
    """The kind of each of ``actions`` (legal actions of the player to act in ``state``):
    the game's :meth:`~CardGame.action_kind`, else :func:`~kum_widget.core.kinds.text_kind`
    of the action's text. A declared kind that is not a short text is the game's fault (a
    :class:`GameFault` naming it).

    >>> from kum_widget.core.examples import Bust
    >>> import random
    >>> bust = Bust()
    >>> s = bust.setup(2, random.Random(0))
    >>> sorted(set(action_kinds(bust, s, bust.legal_actions(s))))
    ['draw', 'play']
    """
    if not declares_kinds(game):
        return [text_kind(game.action_text(state, a)) for a in actions]
    kind_of = game.action_kind
    out = [kind_of(state, a) for a in actions]
    for kind in set(out) if all(type(k) is str for k in out) else out:  # (the lab asks at every decision: each kind once)
        if not isinstance(kind, str) or not kind.strip() or len(kind) > MAX_KIND:
            a = actions[out.index(kind)]
            raise GameFault(f"{type(game).__name__}.action_kind() must give a short text (1 to {MAX_KIND} characters) "
                            f"for every legal action, got {shown(kind)} for action {a}")
    return out  # type: ignore[return-value]  # (checked: every one is a str)


def _declare_options(cls: type[CardGame]) -> None:
    """Read a subclass's declaration of its rule options: an ``options_class`` gives its
    ``defaults``; either gives the signature ``MyGame(*, limit=21)`` (when the class's
    ``__init__`` takes the options alone)."""
    own = cls.__dict__
    options = cls.options_class
    if "options_class" in own and options is not None:
        if not (isinstance(options, type) and issubclass(options, RuleOptions) and dataclasses.is_dataclass(options)):
            raise InvalidOptionError(f"{cls.__name__}.options_class must be a dataclass subclassing core.RuleOptions, got {shown(options)}")
        missing = [f.name for f in dataclasses.fields(options) if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        if missing:
            raise InvalidOptionError(f"{cls.__name__}.options_class: option {missing[0]!r} has no default")
        cls.defaults = MappingProxyType(options().options())
    elif "defaults" in own:
        cls.options_class = None  # the lowest declaration is the game's
    if "defaults" in own or "options_class" in own or "__init__" in own:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        plain = all(p.kind is p.VAR_KEYWORD for p in params)  # (self, **options): the declared options are all it takes
        cls.__signature__ = option_signature(cls.defaults) if plain else None  # type: ignore[attr-defined]
