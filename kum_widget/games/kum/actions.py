"""Actions, their text notation and their stable integer ids.

Three kinds of action, in the game's words:

* ``play goblin 7 #34 on mine 2``: a creature onto available mine slot 2 (1-based in text);
* ``play orc 3 #6 on claimed 1``: a creature onto your own first claimed mine (in the
  order you claimed them; a mine's id is never shown, since its creature face is down);
* ``draw deck`` / ``draw camp goblin``: end the turn by drawing;
* ``discard goblin 7 #34``: the stuck rule (D3).

Ids are stable for a given deck size ``n`` and mine count ``m`` (OpenSpiel style), and
sort plays before draws before discards, so ``sorted`` legal actions read naturally.

A ``kum.Game`` hands actions out as every session does, as core Actions (the id, its
text): their ``move`` is the ``Play``/``Draw``/``Discard`` here (``NamedActions``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.actions import Action as CoreAction
from .cards import RACES, Deck, Race
from .errors import InvalidActionError, shown

__all__ = ["Play", "Draw", "Discard", "Action", "ParsedAction", "parse_action", "action_id", "action_from_id", "action_text",
           "action_kind", "KIND_NAMES",
           "ActionTable", "action_table", "NamedActions", "named_actions"]


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """Play creature ``card`` onto available mine ``slot`` (0-based) or onto the
    player's claimed mine number ``claim`` (0-based, in claim order). Exactly one is set.

    >>> Play(34, slot=1)
    Play(card=34, slot=1, claim=None)
    """

    card: int
    slot: int | None = None
    claim: int | None = None

    def __post_init__(self) -> None:
        if (self.slot is None) == (self.claim is None):
            raise InvalidActionError("a play names exactly one target: slot= (an available mine) or claim= (a claimed mine)")
        for name in ("card", "slot", "claim"):
            v = getattr(self, name)
            if v is not None and (type(v) is not int or v < 0):
                raise InvalidActionError(f"play {name} must be a non-negative whole number, got {shown(v)}")


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the deck (``race=None``) or of a Camp race pile."""

    race: Race | None = None

    def __post_init__(self) -> None:
        if self.race is not None and not isinstance(self.race, Race):
            raise InvalidActionError(f"draw race must be a Race or None, got {shown(self.race)}")


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card`` to the Camp (only when stuck, rule D3)."""

    card: int

    def __post_init__(self) -> None:
        if type(self.card) is not int or self.card < 0:
            raise InvalidActionError(f"discard card must be a non-negative whole number, got {shown(self.card)}")


Action = Play | Draw | Discard


# -- ids: the one place their layout is written --------------------------------------
# For a deck of n cards and m mine slots, with B = id_base(n, m):
#   play card c on slot k:              c*m + k                 in [0, n*m)
#   play card c on claimed mine j:      n*m + c*n + j           in [n*m, B)
#   draw from the deck:                 B
#   draw from the Camp pile of race r:  B + CAMP_OFFSET + r
#   discard card c (stuck, D3):         B + DISCARD_OFFSET + c
CAMP_OFFSET = 1
DISCARD_OFFSET = CAMP_OFFSET + len(RACES)


def id_base(n: int, m: int) -> int:
    """The first id that is not a play (the deck draw)."""
    return n * m + n * n


def action_id(action: Action | CoreAction, n: int, m: int) -> int:
    """The stable integer id of ``action`` for a deck of ``n`` cards and ``m`` mines (a
    core Action is its id)."""
    if isinstance(action, CoreAction):
        return int(action)
    base = id_base(n, m)
    if isinstance(action, Play):
        if action.slot is not None:
            return action.card * m + action.slot
        return n * m + action.card * n + action.claim  # type: ignore[operator]
    if isinstance(action, Draw):
        return base if action.race is None else base + CAMP_OFFSET + action.race.index
    return base + DISCARD_OFFSET + action.card


def action_from_id(aid: int, n: int, m: int) -> Action:
    """Inverse of :func:`action_id`; raises InvalidActionError for an id out of range."""
    base = id_base(n, m)
    if type(aid) is not int or not 0 <= aid < base + DISCARD_OFFSET + n:
        raise InvalidActionError(f"action id must be a whole number 0..{base + DISCARD_OFFSET + n - 1}, got {shown(aid)}")
    if aid < n * m:
        return Play(aid // m, slot=aid % m)
    if aid < base:
        card, claim = divmod(aid - n * m, n)
        return Play(card, claim=claim)
    if aid == base:
        return Draw()
    if aid < base + DISCARD_OFFSET:
        return Draw(RACES[aid - base - CAMP_OFFSET])
    return Discard(aid - base - DISCARD_OFFSET)


KIND_NAMES = ("play on a free mine", "play on a claimed mine", "draw deck",
              *(f"draw camp {race.value}" for race in RACES), "discard")
"""Every kind of action (``action_kind``): the lab's restricted play asks of each."""


def action_kind(aid: int, n: int, m: int) -> str:
    """The kind of the (valid) action id ``aid``, read from its range alone (the lab asks
    at every decision): one of :data:`KIND_NAMES`."""
    base = n * m + n * n
    if aid < n * m:
        return KIND_NAMES[0]
    if aid < base:
        return KIND_NAMES[1]
    if aid < base + DISCARD_OFFSET:
        return KIND_NAMES[2 + aid - base]
    return KIND_NAMES[-1]


class ActionTable(dict[int, Action]):
    """The action objects of one deck size ``n`` and mine count ``m`` by id, each made on
    first use and then shared (actions are immutable): ``table[aid]``. ``ids`` maps the
    ``id()`` of each of the table's own objects to (the object, its action id), so a
    session handed back one of its own actions finds its id at once."""

    __slots__ = ("ids", "m", "n")

    def __init__(self, n: int, m: int) -> None:
        super().__init__()
        self.n, self.m = n, m
        self.ids: dict[int, tuple[Action, int]] = {}

    def __missing__(self, aid: int) -> Action:
        action = self[aid] = action_from_id(aid, self.n, self.m)  # raises for an id out of range
        self.ids[id(action)] = (action, aid)  # the table keeps the object alive: its id() stays its own
        return action


_TABLES: dict[tuple[int, int], ActionTable] = {}


def action_table(n: int, m: int) -> ActionTable:
    """The shared :class:`ActionTable` for ``n`` cards and ``m`` mines."""
    table = _TABLES.get((n, m))
    if table is None:
        table = _TABLES[(n, m)] = ActionTable(n, m)
    return table


class NamedActions(dict[int, CoreAction]):
    """The core Actions of one deck and mine count by id (the id, its text, and the
    ``Play``/``Draw``/``Discard`` of :class:`ActionTable` as its move), each made on first
    use and then shared by every game of that deck: ``named[aid]``."""

    __slots__ = ("deck", "moves")

    def __init__(self, deck: Deck, moves: ActionTable) -> None:
        super().__init__()
        self.deck, self.moves = deck, moves

    def __missing__(self, aid: int) -> CoreAction:
        move = self.moves[aid]  # raises for an id out of range
        action = self[aid] = CoreAction(aid, action_text(move, self.deck), move)
        return action


_NAMED: dict[tuple[int, int], NamedActions] = {}


def named_actions(deck: Deck, m: int) -> NamedActions:
    """The shared :class:`NamedActions` of ``deck`` with ``m`` mines (a text names cards by their labels)."""
    table = _NAMED.get((id(deck), m))
    if table is None or table.deck is not deck:
        if len(_NAMED) >= 16:  # decks made and dropped (a search over custom decks): keep a few
            _NAMED.clear()
        table = _NAMED[(id(deck), m)] = NamedActions(deck, action_table(len(deck), m))
    return table


# -- text --------------------------------------------------------------------------

def action_text(action: Action, deck: Deck) -> str:
    """Canonical text form, e.g. ``'play goblin 7 #34 on mine 2'``."""
    if isinstance(action, Play):
        label = deck[action.card].label
        if action.slot is not None:
            return f"play {label} on mine {action.slot + 1}"
        return f"play {label} on claimed {(action.claim or 0) + 1}"
    if isinstance(action, Draw):
        return "draw deck" if action.race is None else f"draw camp {action.race.value}"
    return f"discard {deck[action.card].label}"


@dataclass(frozen=True, slots=True)
class ParsedAction:
    """Text read without a game: the card is still a loose reference (``'goblin 7'``,
    ``'#34'``), which a game resolves against the hand of the player to move."""

    kind: str  # "play", "draw" or "discard"
    card: str | None = None
    slot: int | None = None
    claim: int | None = None
    race: Race | None = None


_PLAY_RE = re.compile(r"play\s+(?P<card>.+?)\s+(?:on|onto)\s+(?:(?:mine\s*)?(?P<slot>[0-9]{1,6})|claimed\s*(?:mine\s*)?(?P<claim>[0-9]{1,6}))")
_DRAW_RE = re.compile(r"draw\s+(?:(?P<deck>deck)|(?:from\s+)?(?:camp\s+)?(?P<race>[a-z]+))")
_DISCARD_RE = re.compile(r"discard\s+(?P<card>.+)")


def parse_action(text: str) -> ParsedAction:
    """Read an action's text form (case and spacing are forgiven).

    >>> parse_action("draw camp goblin")
    ParsedAction(kind='draw', card=None, slot=None, claim=None, race=Race.GOBLIN)
    >>> parse_action("play goblin 7 on mine 2").slot
    1
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action must be text or an action object, not {type(text).__name__}")
    t = " ".join(text.strip().lower().split())
    if m := _PLAY_RE.fullmatch(t):
        if m["slot"] is not None:
            slot = int(m["slot"])
            if slot < 1:
                raise InvalidActionError(f"cannot read {shown(text)}: mines are numbered from 1")
            return ParsedAction("play", card=m["card"], slot=slot - 1)
        claim = int(m["claim"])
        if claim < 1:
            raise InvalidActionError(f"cannot read {shown(text)}: claimed mines are numbered from 1")
        return ParsedAction("play", card=m["card"], claim=claim - 1)
    if m := _DRAW_RE.fullmatch(t):
        if m["deck"]:
            return ParsedAction("draw")
        try:
            return ParsedAction("draw", race=Race.parse(m["race"]))
        except ValueError:
            raise InvalidActionError(f"cannot read {shown(text)}: draw from 'deck' or a camp pile (orc, dwarf, goblin, giant)") from None
    if m := _DISCARD_RE.fullmatch(t):
        return ParsedAction("discard", card=m["card"])
    raise InvalidActionError(
        f"cannot read action {shown(text)}: expected 'play <card> on mine <1-4>', "
        "'play <card> on claimed <n>', 'draw deck', 'draw camp <race>' or 'discard <card>'"
    )
