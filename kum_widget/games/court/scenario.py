"""Positions built by hand (tests, teaching, a design question about one position).

Every card must be in exactly one place, and princes only where they may be: the
draw pile, the row, the defeated pile, or set aside during setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.errors import InvalidOptionError, shown
from .state import BUYING, FIGHTING, PLACES, SETUP, SPACES, STARTING_CARDS, CourtState

if TYPE_CHECKING:
    from .formulas import CourtFormulas

__all__ = ["build"]

PILES = ("discarded", "defeated", "captured", "aside", "bought")


def build(game: CourtFormulas, row: Sequence[Any], court: Sequence[Any], *, cp: int = 10,
          pile: Sequence[Any] | None = None, phase: str = BUYING, turn: int = 1, fights: int = 0,
          **piles: Sequence[Any]) -> CourtState:
    """``row`` (4 places) and ``court`` (8 spaces, 1.1..1.4 then 2.1..2.4) hold cards or
    None; ``pile`` is the draw pile, its top card FIRST (left out: every card not placed
    elsewhere, in id order); ``discarded``, ``defeated``, ``captured`` and ``aside``
    (setup only) are piles; ``bought`` lists court cards counted as bought. Cards are
    ids or text (``"#12"``, ``"sun poet 4"``)."""
    unknown = sorted(set(piles) - set(PILES))
    if unknown:
        raise InvalidOptionError(f"scenario: unknown field {unknown[0]!r} (fields: row, court, cp, pile, phase, turn, fights, {', '.join(PILES)})")
    if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != PLACES:
        raise InvalidOptionError(f"scenario: row is a list of {PLACES} places (a card or None), got {shown(row)}")
    if isinstance(court, (str, bytes)) or not isinstance(court, Sequence) or len(court) != SPACES:
        raise InvalidOptionError(f"scenario: court is a list of {SPACES} spaces (a card or None), got {shown(court)}")
    if phase not in (SETUP, BUYING, FIGHTING):
        raise InvalidOptionError(f"scenario: phase must be one of {SETUP!r}, {BUYING!r}, {FIGHTING!r}, got {shown(phase)}")
    for key, value, top in (("cp", cp, 10**6), ("turn", turn, 10**6), ("fights", fights, game.rules["fights_per_turn"])):
        if type(value) is not int or not (0 if key != "turn" else 1) <= value <= top:
            raise InvalidOptionError(f"scenario: {key} must be a whole number {0 if key != 'turn' else 1}..{top}, got {shown(value)}")
    find = game.table.find
    lists: dict[str, list[int]] = {}
    for key in PILES:
        cards = piles.get(key, ())
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise InvalidOptionError(f"scenario: {key} is a list of cards, got {shown(cards)}")
        lists[key] = [find(c, where=f"scenario: {key}") for c in cards]
    row_ids = [None if c is None else find(c, where="scenario: row") for c in row]
    court_ids = [None if c is None else find(c, where="scenario: court") for c in court]
    if pile is not None and (isinstance(pile, (str, bytes)) or not isinstance(pile, Sequence)):
        raise InvalidOptionError(f"scenario: pile is a list of cards (its top first), got {shown(pile)}")
    pile_ids = None if pile is None else [find(c, where="scenario: pile") for c in pile]
    placed = [c for c in (*row_ids, *court_ids) if c is not None] + [c for k, v in lists.items() if k != "bought" for c in v]
    full = placed + (pile_ids or [])
    if len(set(full)) != len(full):
        twice = next(c for c in full if full.count(c) > 1)
        raise InvalidOptionError(f"scenario: card {twice} ({game.table[twice].label}) is in two places")
    n = len(game.table)
    if pile_ids is None:
        taken = set(placed)
        pile_ids = [c for c in range(n) if c not in taken]
    elif len(full) != n:
        missing = sorted(set(range(n)) - set(full))
        raise InvalidOptionError(f"scenario: {len(missing)} card(s) are nowhere, first {missing[0]} ({game.table[missing[0]].label}): "
                                 "every card is in exactly one place")
    t = game.table
    if any(t[c].prince for c in (*(x for x in court_ids if x is not None), *lists["discarded"], *lists["captured"], *lists["bought"])):
        raise InvalidOptionError("scenario: a Daemon Prince can be only in the pile, the row or the defeated pile")
    if any(not t[c].prince for c in (*lists["defeated"], *lists["aside"])):
        raise InvalidOptionError("scenario: only Daemon Princes are defeated or set aside")
    if lists["aside"] and phase != SETUP:
        raise InvalidOptionError("scenario: princes are set aside only during setup")
    if phase == SETUP and any(t[c].prince for c in row_ids if c is not None):
        raise InvalidOptionError("scenario: the setup row shows court cards only (princes dealt then are set aside)")
    if not set(lists["bought"]) <= {c for c in (*court_ids, *lists["discarded"], *lists["captured"]) if c is not None}:
        raise InvalidOptionError("scenario: a bought card is in the court, the discard or the daemons' court")
    if len(set(lists["bought"])) != len(lists["bought"]):
        raise InvalidOptionError("scenario: bought lists a card twice (each card is bought at most once)")
    in_court = sum(c is not None for c in court_ids)
    in_row = sum(c is not None for c in row_ids)
    if phase == SETUP and (in_court >= STARTING_CARDS or in_row < STARTING_CARDS - in_court):
        raise InvalidOptionError(f"scenario: setup places {STARTING_CARDS} starting cards from the row: with {in_court} in the court "
                                 f"the row needs at least {STARTING_CARDS - in_court} (it has {in_row})")
    if phase == BUYING and sum(1 for c in row_ids if c is not None and t[c].prince) >= 4:
        # (in the fight phase a refill may have brought the fourth: the end check comes after the fights)
        raise InvalidOptionError("scenario: four Daemon Princes in the row at the start of a turn: the game would be over")
    if phase == BUYING and fights:
        raise InvalidOptionError("scenario: fights counts the fights of phase 2; in phase 1 it is 0")
    state = CourtState(pile=pile_ids[::-1], row=row_ids, court=court_ids, cp=cp, seed=0, phase=phase, turn=turn, fights=fights,
                       discarded=lists["discarded"], defeated=lists["defeated"], captured=lists["captured"],
                       aside=lists["aside"], bought=lists["bought"])
    if phase == FIGHTING and not game.legal_actions(state)[:-1]:
        raise InvalidOptionError("scenario: no fight can be declared in this phase 2, so the phase would have passed by itself: use phase='buy'")
    if not game.legal_actions(state):
        raise InvalidOptionError("scenario: no action is legal in this position")
    return state
