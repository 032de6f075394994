"""``Game``: the public face of the engine.

``Game`` is the core's :class:`~kum_widget.core.Session` (history, undo from
snapshots, state id, listeners, refusal before change, records) for Kings Under
Mountains, with the game's own notation on top: actions as text and as
``Play``/``Draw``/``Discard`` objects (each core Action's ``move``; ``moves()``), cards,
mines, the Camp, and scenarios. Every public method validates its input first, so a
refused call leaves the game exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.actions import Action as CoreAction
from ...core.session import Session
from . import records
from .actions import Action, ActionTable, NamedActions, action_table, named_actions
from .card_game import KumRules
from .cards import RACES, Card, Deck, MineFace, Race
from .errors import IllegalActionError, InvalidActionError, InvalidStateError, KumError, shown
from .events import Event, describe
from .resolve import resolve_action
from .rules import is_legal, legal_ids, points, scores
from .ruleset import Rules
from .scenario import load_layout
from .seats import king_indexes, player_names, rule_kings
from .state import OVER, PHASES, PLAY, State, setup
from .views import board_text, view

__all__ = ["Game", "KingsUnderMountains", "Mine", "ClaimedMine"]


@dataclass(frozen=True, slots=True)
class Mine:
    """An available mine slot: ``card`` (None once the deck ran dry) and its stack."""
    number: int
    card: Card | None
    stack: tuple[Card, ...]

    @property
    def face(self) -> MineFace | None:
        return None if self.card is None else self.card.mine


@dataclass(frozen=True, slots=True)
class ClaimedMine:
    """A mine a player claimed and has not developed: ``card`` and development ``stack``."""
    number: int
    card: Card
    stack: tuple[Card, ...]

    @property
    def face(self) -> MineFace:
        return self.card.mine

    @property
    def needs_overseer(self) -> bool:
        """Full overseer mine: only the owner's own race may go on top now."""
        return self.card.overseer and len(self.stack) >= self.card.size


class Game(Session):
    """A game of Kings Under Mountains.

    >>> g = Game(["Ada", "Bo"], seed=7)
    >>> g.current_player, g.phase, len(g.hand(0)), g.deck_size
    (0, 'play', 6, 60)
    >>> g.legal_actions()[0]
    Action(16, 'play orc 2 #4 on mine 1')
    >>> g.legal_actions()[0].move, g.moves()[0]
    (Play(card=4, slot=0, claim=None), Play(card=4, slot=0, claim=None))
    >>> events = g.apply(g.legal_actions()[0])
    >>> g.phase
    'draw'
    >>> g.undo(); g.phase
    1
    'play'

    ``apply`` (and ``play``, ``draw``, ``discard``) raise :class:`InvalidActionError`
    for text that does not parse and :class:`IllegalActionError`, naming the rule, for
    a forbidden action; the game is then unchanged.
    """

    _state: State
    _initial: State
    _layout: Mapping[str, Any] | None
    _actions: ActionTable
    _public: NamedActions

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        seed: int | None = None,
        races: Iterable[Race | str] | None = None,
        rules: Rules | None = None,
        first_player: int | None = None,
    ) -> None:
        names = player_names(players)
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise InvalidStateError(f"rules must be a kum.Rules, got {type(rules).__name__}")
        if seed is None:
            import secrets  # only here: it costs import time

            seed = secrets.randbelow(2**31)
        if type(seed) is not int or not 0 <= seed < 2**64:
            raise InvalidStateError(f"seed must be a whole number 0..2**64-1, got {shown(seed)}")
        if first_player is not None and (type(first_player) is not int or not 0 <= first_player < len(names)):
            raise InvalidStateError(f"first_player must be a seat 0..{len(names) - 1}, got {shown(first_player)}")
        kings = king_indexes(races, len(names))
        self._start(setup(rules, names, seed, [RACES[k] for k in kings] if kings else None, first_player), None)

    def _start(self, state: State, layout: Mapping[str, Any] | None) -> None:  # type: ignore[override]
        self.game = KingsUnderMountains(state.rules)
        self._names, self._seed = state.names, state.seed
        self._actions = action_table(state.n, state.m)  # one table per deck and mine count
        self._public = named_actions(state.cards, state.m)  # the core Actions, named by this deck
        super()._start(state)
        self._layout = layout  # the scenario a game started from, for its record

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_scenario(
        cls,
        players: int | Sequence[str] = 2,
        *,
        races: Iterable[Race | str] | None = None,
        rules: Rules | None = None,
        seed: int = 0,
        first_player: int | None = None,
        **layout: Any,
    ) -> Game:
        """Build any legal position by hand. Layout fields (all optional):

        ``hands`` (a list per seat; None deals that hand), ``mines`` (one entry per slot:
        a card, or ``{"mine": card, "stack": [cards]}``), ``claimed`` and ``developed``
        (a list per seat), ``camp`` (race -> pile, bottom to top), ``deck`` (cards on top
        of the deck, top first), ``known`` (hand cards drawn from the Camp), ``current``,
        ``phase``, ``turn``. Cards are ids or text (``"goblin 7"``, ``"#34"``). Cards left
        over go into the deck below those listed, shuffled by ``seed``. Races default to
        the rule ``races``, else orc, dwarf, goblin, giant in seat order; the first player
        to the rules' D5 option.

        >>> g = Game.from_scenario(["Ada", "Bo"], races=["orc", "goblin"],
        ...     hands=[["goblin 7"], ["orc 1"]], mines=[{"mine": "#0", "stack": ["dwarf 5"]}, 10, 11, 12])
        >>> [type(e).__name__ for e in g.apply("play goblin 7 on mine 1")]
        ['Played', 'Claimed', 'Refilled']
        >>> g.claimed(1)[0].face  # mine #0 had defense 2; the goblin King is Bo's
        MineFace.parse('d2 s2 p3')
        """
        names = player_names(players)
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise InvalidStateError(f"rules must be a kum.Rules, got {type(rules).__name__}")
        kings = king_indexes(races, len(names)) or rule_kings(rules, len(names)) or list(range(len(names)))
        if type(seed) is not int or not 0 <= seed < 2**64:
            raise InvalidStateError(f"seed must be a whole number 0..2**64-1, got {shown(seed)}")
        if first_player is None:
            first_player = rules.first_player if rules.first_player != "random" else random.Random(seed).randrange(len(names))
        if type(first_player) is not int or not 0 <= first_player < len(names):
            raise InvalidStateError(f"first_player must be a seat 0..{len(names) - 1}, got {shown(first_player)}")
        game = cls.__new__(cls)
        state = load_layout(rules, names, kings, layout, seed=seed, first=first_player, strict=False)
        game._start(state, state.layout())
        game._state.seed = game._initial.seed = game._seed = None
        return game

    @classmethod
    def from_position(cls, game: Any, state: Any, players: int | Sequence[str] | None = None) -> Game:
        """A game that starts from ``state`` (a position of ``game``'s rules, as its
        ``load_position`` reads a saved one), with no seed."""
        session = cls.__new__(cls)
        start = records.named_start(game, state, players)
        session._start(start, start.layout())
        return session

    @classmethod
    def _make(cls, game: Any, players: Any, seed: Any, **setup: Any) -> Game:
        # How the core's records deal a saved game: kum.Game's own deal (races, first_player).
        unknown = sorted(set(setup) - {"races", "first_player"})
        if unknown:
            raise InvalidStateError(f"setup: unknown option {shown(unknown[0], 44)} (options: races, first_player)")
        return cls(players, seed=seed, rules=game.kum_rules, **setup)

    def _setup_options(self) -> dict[str, Any] | None:
        return None if self.seed is None else records.setup_options(self.kings, self.first_player)

    @classmethod
    def from_dict(cls, data: Any, *, game: Any = None) -> Game:
        """Inverse of :meth:`to_dict`."""
        return records.game_from_dict(cls, data, KingsUnderMountains if game is None else game)

    @classmethod
    def from_record(cls, text: Any, *, game: Any = None) -> Game:
        """Inverse of :meth:`record`: the identical game, history included."""
        return records.game_from_record(cls, text, KingsUnderMountains if game is None else game)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_actions"], state["_public"]  # shared by every game of this deck: rebuilt, not pickled
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._actions = action_table(self._state.n, self._state.m)
        self._public = named_actions(self._state.cards, self._state.m)

    def _load_extra(self, other: Session) -> None:
        self._layout = other._layout  # type: ignore[attr-defined]
        self._actions = other._actions  # type: ignore[attr-defined]
        self._public = other._public  # type: ignore[attr-defined]

    # -- reading -----------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._state.rules

    @property
    def deck(self) -> Deck:
        """The table of all cards (look a card up by id: ``game.deck[34]``)."""
        return self._state.cards

    def king(self, seat: int) -> Race:
        return RACES[self._state.kings[self._seat(seat)]]

    @property
    def kings(self) -> tuple[Race, ...]:
        return tuple(RACES[k] for k in self._state.kings)

    @property
    def first_player(self) -> int:
        return self._state.first

    @property
    def current_player(self) -> int:
        return self._state.current

    @property
    def is_over(self) -> bool:
        return self._state.phase == OVER

    @property
    def phase(self) -> str:
        """"play", "draw", "discard" (stuck rule) or "over"."""
        return PHASES[self._state.phase]

    @property
    def turn(self) -> int:
        """Turns completed so far."""
        return self._state.turn

    def hand(self, seat: int) -> list[Card]:
        return [self.deck[c] for c in self._state.hands[self._seat(seat)]]

    @property
    def mines(self) -> tuple[Mine, ...]:
        s = self._state
        return tuple(
            Mine(i + 1, None if m < 0 else s.cards[m], tuple(s.cards[c] for c in st))
            for i, (m, st) in enumerate(zip(s.mines, s.mine_stacks, strict=True))
        )

    def claimed(self, seat: int) -> list[ClaimedMine]:
        s = self._state
        return [
            ClaimedMine(k + 1, s.cards[m], tuple(s.cards[c] for c in s.stacks[m]))
            for k, m in enumerate(s.claimed[self._seat(seat)])
        ]

    def developed(self, seat: int) -> list[Card]:
        return [self.deck[c] for c in self._state.developed[self._seat(seat)]]

    @property
    def camp(self) -> dict[Race, list[Card]]:
        return {race: [self.deck[c] for c in self._state.camp[race.index]] for race in RACES}

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def deck_top(self) -> MineFace | None:
        """The public mine face of the deck's top card (None when empty)."""
        return self.deck[self._state.deck[-1]].mine if self._state.deck else None

    def points(self, seat: int) -> tuple[int, int]:
        """(developed points, undeveloped points) of ``seat``."""
        return points(self._state, self._seat(seat))

    @property
    def history(self) -> tuple[CoreAction, ...]:
        """Actions applied since the start, oldest first (core Actions, as ``legal_actions``)."""
        return tuple(map(self._public.__getitem__, self._history))

    @property
    def log(self) -> list[Event]:
        """Every event since the start, in order."""
        return [e for events in self._logs for e in events]

    def recent_logs(self, count: int) -> list[list[Any]]:
        """The events of the last ``count`` actions (a bad count: this game's own error)."""
        if type(count) is not int:
            raise InvalidStateError(f"recent_logs: count must be a whole number, got {shown(count)}")
        return super().recent_logs(count)

    def public_view(self) -> dict[str, Any]:
        """What a spectator sees: only public information (D6), no seat's hand."""
        return view(self._state, None, spectator=True)

    def describe(self, event: Event, viewer: int | None = None, *, spectator: bool = False) -> str:
        """An event as a sentence for ``viewer`` (None: the full table), hiding a deck
        draw from other seats; ``spectator=True`` hides it from everyone."""
        if not isinstance(event, Event):
            raise InvalidStateError(f"describe takes an event of this game (from apply() or log), got {shown(event)}")
        if viewer is not None:
            viewer = self._seat(viewer)
        return describe(event, self.deck, self.players, -1 if spectator else viewer)

    def scores(self) -> list[int]:
        """Developed minus claimed-but-undeveloped points, per seat (final once over)."""
        return scores(self._state)

    # -- actions -----------------------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, in the same order (a new list each call)."""
        return legal_ids(self._state)  # already a copy: no second one

    def legal_actions(self) -> list[CoreAction]:
        """Every legal action of the player to move, sorted by id (stable): core Actions,
        ``Action(16, 'play orc 2 #4 on mine 1')``, each with its ``Play``/``Draw``/``Discard``
        as ``move`` (:meth:`moves` lists those alone)."""
        return list(map(self._public.__getitem__, self._legal()))

    def moves(self) -> list[Action]:
        """The legal actions as this game's own objects (``Play``, ``Draw``, ``Discard``),
        in the order of :meth:`legal_actions`."""
        return list(map(self._actions.__getitem__, self._legal()))

    def _legal(self) -> list[int]:
        s = self._state
        plays = s.plays
        if plays is not None and s.phase == PLAY:  # the cached plays: mapped, not copied first
            return plays
        return legal_ids(s)

    def parse_action(self, text: str) -> CoreAction:
        """Read ``text`` against this position (short card forms like ``'goblin 7'``)."""
        return self._public[self._resolve(text)]

    if TYPE_CHECKING:  # the session's apply runs (no extra call); this gives it this game's types

        def apply(self, action: CoreAction | Action | str | int) -> list[Event]: ...

    def play(self, card: Card | int | str, target: int | str) -> list[Event]:
        """Play ``card`` onto mine ``target``: ``2`` or ``"mine 2"`` (an available mine,
        numbered from 1) or ``"claimed 1"`` (your first claimed mine)."""
        label = self._card_text(card)
        if type(target) is int:
            if not -1000 < target < 1000:  # before formatting: a huge int cannot be written out (and names no mine)
                raise InvalidActionError(f"target: there is no mine {shown(target)}: mines are numbered from 1 "
                                         f"(1..{len(self.mines)} now)")
            target = f"mine {target}"
        if not isinstance(target, str):
            raise InvalidActionError(f"target must be a mine number or text like 'mine 2', got {shown(target)}")
        return self.apply(f"play {label} on {target}")

    def draw(self, source: str | Race = "deck") -> list[Event]:
        """Draw from ``"deck"`` or a Camp pile (``"goblin"``)."""
        source = source.value if isinstance(source, Race) else source
        if not isinstance(source, str):
            raise InvalidActionError(f"source must be 'deck' or a race, got {shown(source)}")
        return self.apply("draw deck" if source.strip().lower() == "deck" else f"draw camp {source}")

    def discard(self, card: Card | int | str) -> list[Event]:
        """Discard ``card`` (only when stuck, D3)."""
        return self.apply(f"discard {self._card_text(card)}")

    def load(self, other: Session) -> None:
        """Become ``other`` (a loaded dict, record or scenario), keeping listeners:
        a board showing this game follows."""
        if not isinstance(other, Game):
            raise InvalidStateError(f"load takes a kum.Game, got {type(other).__name__}")
        super().load(other)

    # -- helpers (the session's, in this game's words) --------------------------------------

    def _public_action(self, aid: int) -> CoreAction:
        return self._public[aid]

    def _illegal(self, aid: int, reason: str) -> KumError:
        return IllegalActionError(f"{self.action_text(aid)}: {reason}")

    @staticmethod
    def _steps(steps: Any) -> int:
        if type(steps) is not int or steps < 0:
            raise InvalidActionError(f"steps must be a whole number >= 0, got {shown(steps)}")
        return steps

    def _seat(self, seat: Any) -> int:
        if type(seat) is not int or not 0 <= seat < self._state.players:
            raise InvalidStateError(f"seat must be 0..{self._state.players - 1}, got {shown(seat)}")
        return seat

    def _is_legal(self, aid: int) -> bool:
        return is_legal(self._state, aid)

    def _card_text(self, card: Card | int | str) -> str:
        if isinstance(card, Card):
            if card.id >= len(self.deck) or self.deck[card.id] != card:
                raise InvalidActionError(f"{card} is not a card of this game's deck")
            return f"#{card.id}"
        if type(card) is int:
            if not 0 <= card < len(self.deck):  # before formatting: a huge int cannot be written out
                raise InvalidActionError(f"card id must be 0..{len(self.deck) - 1}, got {shown(card)}")
            return f"#{card}"
        if isinstance(card, str):
            return card
        raise InvalidActionError(f"a card is a Card, an id or text like 'goblin 7', got {shown(card)}")

    def _resolve(self, action: Any) -> int:
        table = self._actions
        if type(action) is int or type(action) is CoreAction:
            aid = int(action)
            table[aid]  # range check (a bad id raises as action_from_id does; a good one is cached)
            return aid
        known = table.ids.get(id(action))
        if known is not None and known[0] is action:  # one of the objects moves() (and each Action's move) hands out
            return known[1]
        return resolve_action(self._state, action, self.players)  # an object built by hand, or text

    def __str__(self) -> str:
        return board_text(self._state)

    def __repr__(self) -> str:
        seed = f"seed={self.seed}" if self.seed is not None else "scenario"
        return f"<kum.Game {', '.join(self.players)}; {seed}; turn {self.turn + 1}; {self.phase}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._state == other._state and self._history == other._history

    __hash__ = None


class KingsUnderMountains(KumRules):
    """``KingsUnderMountains(rules=kum.Rules(...))`` or ``KingsUnderMountains(end="finish_round")``:
    the game as the core sees it (``simulate(game=...)``, ``GameWidget(KingsUnderMountains())``).
    Its options are those of ``kum.Rules``, the Kings among them: ``races="giant,orc"``."""

    def save_position(self, state: State) -> dict[str, Any]:
        """The position as JSON: the layout of ``Game.from_scenario``, the Kings and the first
        player (the start of a game built by hand, in its records; and a dict's ``state``)."""
        return records.position_data(state)

    def load_position(self, data: Any) -> State:
        """Inverse of :meth:`save_position`, every field checked (``InvalidStateError``)."""
        return records.position_state(self.kum_rules, data)

    def new_session(self, players: Any = None, *, seed: int | None = None, **setup: Any) -> Any:
        """A ``kum.Game`` under these rules (``setup``: ``races``, a King race per seat, which
        overrides the rule ``races``; ``first_player``)."""
        unknown = sorted(set(setup) - {"races", "first_player"})
        if unknown:
            raise InvalidStateError(f"unknown option {shown(unknown[0], 44)} for a new game (options: players, seed, races, rules, first_player)")
        return Game(2 if players is None else players, seed=seed, rules=self.kum_rules, **setup)
