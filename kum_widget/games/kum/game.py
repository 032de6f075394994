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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.actions import Action as CoreAction
from ...core.session import Session
from . import records
from .actions import Action
from .card_game import KumRules
from .cards import RACES, Card, Deck, MineFace, Race
from .errors import InvalidActionError, InvalidStateError, shown
from .events import Event, describe
from .rules import points
from .ruleset import Rules
from .scenario import load_layout
from .seats import king_indexes, player_names, rule_kings
from .state import PHASES, State, setup
from .views import board_text

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

    It is the core's session for these rules, with reads and moves in the game's words on
    top, each built on the session's public methods (the position is read from a copy).
    """

    game: KingsUnderMountains

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
        start = setup(rules, names, seed, [RACES[k] for k in kings] if kings else None, first_player)
        super().__init__(KingsUnderMountains(rules), names, seed=seed, start=start,
                         setup=records.setup_options([RACES[k] for k in start.kings], start.first))

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
        state = load_layout(rules, names, kings, layout, seed=seed, first=first_player, strict=False)
        return cls.from_position(KingsUnderMountains(rules), state, names)

    @classmethod
    def from_position(cls, game: Any, state: Any, players: int | Sequence[str] | None = None) -> Game:
        """A game that starts from ``state`` (a position of ``game``'s rules, as its
        ``load_position`` reads a saved one), with no seed."""
        start = records.named_start(game, state, players)
        return super().from_position(game, start, start.names)

    @classmethod
    def from_dict(cls, data: Any, *, game: Any = None) -> Game:
        """Inverse of :meth:`to_dict`."""
        return records.game_from_dict(cls, data, KingsUnderMountains if game is None else game)

    @classmethod
    def from_record(cls, text: Any, *, game: Any = None) -> Game:
        """Inverse of :meth:`record`: the identical game, history included."""
        return records.game_from_record(cls, text, KingsUnderMountains if game is None else game)

    # -- reading -----------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.game.kum_rules

    @property
    def deck(self) -> Deck:
        """The table of all cards (look a card up by id: ``game.deck[34]``)."""
        return self.game.kum_rules.deck

    def king(self, seat: int) -> Race:
        return self.kings[self._check_seat(seat)]

    @property
    def kings(self) -> tuple[Race, ...]:
        return tuple(RACES[k] for k in self.state.kings)

    @property
    def first_player(self) -> int:
        return self.state.first

    @property
    def phase(self) -> str:
        """"play", "draw", "discard" (stuck rule) or "over"."""
        return PHASES[self.state.phase]

    @property
    def turn(self) -> int:
        """Turns completed so far."""
        return self.state.turn

    def hand(self, seat: int) -> list[Card]:
        seat = self._check_seat(seat)
        s = self.state
        return [s.cards[c] for c in s.hands[seat]]

    @property
    def mines(self) -> tuple[Mine, ...]:
        s = self.state
        return tuple(
            Mine(i + 1, None if m < 0 else s.cards[m], tuple(s.cards[c] for c in st))
            for i, (m, st) in enumerate(zip(s.mines, s.mine_stacks, strict=True))
        )

    def claimed(self, seat: int) -> list[ClaimedMine]:
        seat = self._check_seat(seat)
        s = self.state
        return [ClaimedMine(k + 1, s.cards[m], tuple(s.cards[c] for c in s.stacks[m])) for k, m in enumerate(s.claimed[seat])]

    def developed(self, seat: int) -> list[Card]:
        seat = self._check_seat(seat)
        s = self.state
        return [s.cards[c] for c in s.developed[seat]]

    @property
    def camp(self) -> dict[Race, list[Card]]:
        s = self.state
        return {race: [s.cards[c] for c in s.camp[race.index]] for race in RACES}

    @property
    def deck_size(self) -> int:
        return len(self.state.deck)

    @property
    def deck_top(self) -> MineFace | None:
        """The public mine face of the deck's top card (None when empty)."""
        s = self.state
        return s.cards[s.deck[-1]].mine if s.deck else None

    def points(self, seat: int) -> tuple[int, int]:
        """(developed points, undeveloped points) of ``seat``."""
        return points(self.state, self._check_seat(seat))

    if TYPE_CHECKING:  # the session's, with this game's types

        @property
        def state(self) -> State: ...
        @property
        def history(self) -> tuple[CoreAction, ...]: ...
        def apply(self, action: CoreAction | Action | str | int) -> list[Event]: ...
        def legal_actions(self) -> list[CoreAction]: ...

    @property
    def log(self) -> list[Event]:
        """Every event since the start, in order."""
        return [e for events in self.logs for e in events]

    def describe(self, event: Event, viewer: int | None = None, *, spectator: bool = False) -> str:
        """An event as a sentence for ``viewer`` (None: the full table), hiding a deck
        draw from other seats; ``spectator=True`` hides it from everyone."""
        if not isinstance(event, Event):
            raise InvalidStateError(f"describe takes an event of this game (from apply() or log), got {shown(event)}")
        if viewer is not None:
            viewer = self._check_seat(viewer)
        return describe(event, self.deck, self.players, -1 if spectator else viewer)

    # -- actions -----------------------------------------------------------------------

    def moves(self) -> list[Action]:
        """The legal actions as this game's own objects (``Play``, ``Draw``, ``Discard``),
        in the order of :meth:`legal_actions`."""
        return [a.move for a in self.legal_actions()]

    def parse_action(self, text: str) -> CoreAction:
        """Read ``text`` against this position (short card forms like ``'goblin 7'``)."""
        aid = self.action_id(text)
        return CoreAction(aid, self.action_text(aid), self.game.move(self.state, aid))

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

    # -- this game's own input checks ----------------------------------------------------------

    def _check_seat(self, seat: Any) -> int:
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise InvalidStateError(f"seat must be 0..{self.num_players - 1}, got {shown(seat)}")
        return seat

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

    def __str__(self) -> str:
        return board_text(self.state)

    def __repr__(self) -> str:
        seed = f"seed={self.seed}" if self.seed is not None else "scenario"
        return f"<kum.Game {', '.join(self.players)}; {seed}; turn {self.turn + 1}; {self.phase}>"


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
