"""Positions built by hand: load a layout (from ``to_dict`` or a scenario) into a State.

A layout names where every card lies. In a scenario (``strict=False``) cards may be
given loosely (``"goblin 7"``, ``"#34"``, an id), hands and mines left out are dealt,
and every card not placed goes into the deck below the ones listed, shuffled by the
seed. A saved game (``strict=True``) must place each card exactly once. Either way the
position must be one the rules allow, with every card in exactly one place, and one the
game can go on from (the player to move has a legal action, unless it is over); errors
name the field at fault.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import RACES, Deck, Race, match_ids
from .errors import InvalidStateError, KumError, shown, shown_names
from .rules import FOLLOWS, begin_turn, legal_ids
from .ruleset import Rules
from .state import DRAW, OVER, PHASES, PLAY, State, blank

__all__ = ["load_layout"]

_KEYS = {"current", "phase", "deck_only", "turn", "hands", "known", "mines", "claimed",
         "developed", "camp", "deck", "pending"}
MAX_TURN = 99_999  # far beyond any game (every turn or claim spends the deck), and a record's turn numbers stay short


class _Cards:
    """Hands out card ids by reference, each at most once."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.used: dict[int, str] = {}

    def take(self, ref: Any, where: str) -> int:
        if type(ref) is int:
            if not 0 <= ref < len(self.deck):
                raise InvalidStateError(f"{where}: no card id {shown(ref)} (ids run 0..{len(self.deck) - 1})")
            ids = [ref]
        elif isinstance(ref, str):
            try:
                ids = match_ids(self.deck, ref)
            except KumError as exc:
                raise InvalidStateError(f"{where}: {exc}") from None
        else:
            raise InvalidStateError(f"{where}: a card is an id or text like 'goblin 7', got {type(ref).__name__}")
        free = [i for i in ids if i not in self.used]
        if not free:
            raise InvalidStateError(f"{where}: {self.deck[ids[0]].label if len(ids) == 1 else shown(ref)} is already placed at {self.used[ids[0]]}")
        self.used[free[0]] = where
        return free[0]

    def many(self, refs: Any, where: str) -> list[int]:
        if not isinstance(refs, (list, tuple)):
            raise InvalidStateError(f"{where}: expected a list of cards, got {type(refs).__name__}")
        return [self.take(r, f"{where}[{i}]") for i, r in enumerate(refs)]


def _check_stack(s: State, stack: list[int], where: str) -> None:
    values = s.cards.values
    for i in range(1, len(stack)):
        if not FOLLOWS[values[stack[i - 1]] + 1][values[stack[i]]]:
            a, b = s.cards[stack[i - 1]].creature, s.cards[stack[i]].creature
            raise InvalidStateError(f"{where}: {b} cannot lie on {a} (each card must beat the one below; 0 beats 9)")


def _mine_entry(entry: Any, where: str) -> tuple[Any, Any]:
    if isinstance(entry, Mapping):
        extra = set(entry) - {"mine", "stack"}
        if extra or "mine" not in entry:
            raise InvalidStateError(f"{where}: expected {{'mine': card, 'stack': [cards]}}, got keys {shown_names(entry)}")
        return entry["mine"], entry.get("stack", [])
    return entry, []


def load_layout(
    rules: Rules,
    names: Sequence[str],
    kings: Sequence[int],
    layout: Mapping[str, Any],
    *,
    seed: int | None,
    first: int,
    strict: bool,
) -> State:
    """Build and validate the State a layout describes (see module docstring)."""
    if not isinstance(layout, Mapping):
        raise InvalidStateError(f"a layout must be a mapping, got {type(layout).__name__}")
    unknown = set(layout) - _KEYS
    if unknown:
        raise InvalidStateError(f"unknown layout field(s): {shown_names(unknown)}")
    if strict:
        missing = _KEYS - set(layout)
        if missing:
            raise InvalidStateError(f"missing layout field(s): {', '.join(sorted(missing))}")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise InvalidStateError(f"seed: expected a whole number >= 0, got {shown(seed)}")
    s = blank(rules, names, kings, seed, first)
    p = s.players
    cards = _Cards(s.cards)
    rng = random.Random(seed)

    # Placed cards first (mines, stacks, claims, camp, hands), so loose refs never
    # take a copy that is named exactly somewhere later.
    mines = layout.get("mines")
    if mines is not None:
        if not isinstance(mines, (list, tuple)) or len(mines) != s.m:
            raise InvalidStateError(f"mines: expected a list of {s.m} slots (a slot may be null), got {shown(mines)}")
        for slot, entry in enumerate(mines):
            if entry is None:
                continue
            where = f"mines[{slot}]"
            mine_ref, stack_refs = _mine_entry(entry, where)
            s.mines[slot] = mine = cards.take(mine_ref, where + ".mine")
            s.mine_stacks[slot] = stack = cards.many(stack_refs, where + ".stack")
            _check_stack(s, stack, where + ".stack")
            if len(stack) >= s.cards.defenses[mine]:
                raise InvalidStateError(f"{where}: a stack of {len(stack)} would already have claimed a mine of defense {s.cards.defenses[mine]}")
    for field in ("claimed", "developed"):
        value = layout.get(field, [[] for _ in range(p)])
        if not isinstance(value, (list, tuple)) or len(value) != p:
            raise InvalidStateError(f"{field}: expected one list per seat ({p}), got {shown(value)}")
    for seat, entries in enumerate(layout.get("claimed", [[] for _ in range(p)])):
        if not isinstance(entries, (list, tuple)):
            raise InvalidStateError(f"claimed[{seat}]: expected a list of claimed mines")
        own = s.kings[seat]
        for k, entry in enumerate(entries):
            where = f"claimed[{seat}][{k}]"
            mine_ref, stack_refs = _mine_entry(entry, where)
            mine = cards.take(mine_ref, where + ".mine")
            stack = cards.many(stack_refs, where + ".stack")
            _check_stack(s, stack, where + ".stack")
            size = s.cards.sizes[mine]
            limit = size if s.cards.overseers[mine] else size - 1
            if len(stack) > limit:
                raise InvalidStateError(f"{where}: a stack of {len(stack)} would already have developed a mine of size {size}")
            if any(s.cards.races[c] == own for c in stack):
                raise InvalidStateError(f"{where}: seat {seat} may not have its own race ({RACES[own].value}) on its claimed mine")
            s.claimed[seat].append(mine)
            s.stacks[mine] = stack
    for seat, entries in enumerate(layout.get("developed", [[] for _ in range(p)])):
        s.developed[seat] = cards.many(entries, f"developed[{seat}]")
    camp = layout.get("camp", {})
    if not isinstance(camp, Mapping):
        raise InvalidStateError(f"camp: expected a mapping race -> pile, got {type(camp).__name__}")
    named: dict[Race, Any] = {}
    for name, pile in camp.items():
        try:
            race = Race.parse(name)
        except KumError:
            raise InvalidStateError(f"camp: unknown race pile {shown(name)}") from None
        if race in named:  # "orc" and "orcs": the second would replace the first pile's cards
            raise InvalidStateError(f"camp: {shown(named[race])} and {shown(name)} both name the {race.value} pile; give it once")
        named[race] = name
        ids = cards.many(pile, f"camp.{race.value}")
        for c in ids:
            if s.cards.races[c] != race.index:
                raise InvalidStateError(f"camp.{race.value}: {s.cards[c].creature} belongs on the {s.cards[c].race.value} pile")
        s.camp[race.index] = ids
    hands = layout.get("hands")
    if hands is not None:
        if not isinstance(hands, (list, tuple)) or len(hands) != p:
            raise InvalidStateError(f"hands: expected one list per seat ({p}), got {shown(hands)}")
        for seat, hand in enumerate(hands):
            if hand is not None:
                s.hands[seat] = cards.many(hand, f"hands[{seat}]")
    deck_top = cards.many(layout.get("deck", []), "deck")

    rest = [c for c in range(s.n) if c not in cards.used]
    if strict and rest:
        raise InvalidStateError(f"{len(rest)} card(s) are placed nowhere, e.g. {s.cards[rest[0]].label}")
    rng.shuffle(rest)
    if hands is None or any(h is None for h in hands):  # deal the hands left out
        for seat in range(p):
            if hands is None or hands[seat] is None:
                s.hands[seat] = [rest.pop() for _ in range(min(rules.hand_size, len(rest)))]
    if mines is None:
        for slot in range(s.m):
            if rest:
                s.mines[slot] = rest.pop()
    s.deck = rest + deck_top[::-1]  # the listed cards on top, first listed = top

    known = layout.get("known", [])
    in_hand = {c for h in s.hands for c in h}
    for i, ref in enumerate(known if isinstance(known, (list, tuple)) else [known]):
        c = _lookup(s.cards, ref, f"known[{i}]")
        if c not in in_hand:
            raise InvalidStateError(f"known[{i}]: {s.cards[c].label} is in no hand (only hand cards can be known)")
        s.known[c] = 1
    _load_turn(s, layout, strict)
    if s.phase != OVER and not legal_ids(s):
        # Only a draw can have nothing to take (the deck may run out under end="finish_round").
        why = "a stuck draw must come from the deck, which is empty" if s.deck_only else "the deck and the Camp are empty"
        raise InvalidStateError(
            f"phase: seat {s.current} ({s.names[s.current]}) is to {PHASES[s.phase]} but has no legal action "
            f"in that position ({why}); set phase 'over' or give it something to {PHASES[s.phase]}"
        )
    return s


def _lookup(deck: Deck, ref: Any, where: str) -> int:
    return _Cards(deck).take(ref, where)


def _load_turn(s: State, layout: Mapping[str, Any], strict: bool) -> None:
    current = layout.get("current", s.first)
    if type(current) is not int or not 0 <= current < s.players:
        raise InvalidStateError(f"current: expected a seat 0..{s.players - 1}, got {shown(current)}")
    s.current = current
    turn = layout.get("turn", 0)
    if type(turn) is not int or not 0 <= turn <= MAX_TURN:
        raise InvalidStateError(f"turn: expected a whole number 0..{MAX_TURN}, got {shown(turn)}")
    s.turn = turn
    s.pending = _pending(s, layout.get("pending", []))
    empty = [slot + 1 for slot, mine in enumerate(s.mines) if mine < 0 and slot not in s.pending]
    if empty and s.deck:  # a claimed slot is refilled from the deck, at once or at the end of the turn (D1)
        raise InvalidStateError(f"mines: mine {empty[0]} is empty while the deck still has cards")
    deck_only = layout.get("deck_only", False)
    if type(deck_only) is not bool:
        raise InvalidStateError(f"deck_only: expected true or false, got {shown(deck_only)}")
    phase = layout.get("phase")
    if phase is not None and phase not in PHASES:
        raise InvalidStateError(f"phase: expected one of {', '.join(PHASES)}, got {shown(phase)}")
    if s.pending and phase != "over" and (phase != "draw" or deck_only):
        # A slot waits for its refill from the claim (a play) to the end of the turn (the draw).
        after = "a stuck draw (deck_only) follows no play" if phase == "draw" else f"phase {phase or 'play'!r} is not the draw after a claim"
        raise InvalidStateError(f"pending: slots wait for a refill only in the draw after a claim; {after}")
    if phase == "over":
        if s.deck:  # either end rule (D2) ends the game only once the deck is empty
            raise InvalidStateError("phase: the game cannot be over while the deck has cards")
        s.phase = OVER
        return
    if not s.deck and s.rules.end == "immediate":
        raise InvalidStateError("deck: the deck is empty, so the game is over (D2); set phase 'over'")
    if phase == "draw":
        s.phase, s.deck_only = DRAW, deck_only
        return
    if deck_only:
        raise InvalidStateError("deck_only: only a draw phase can be limited to the deck")
    begin_turn(s, None)  # play, or the stuck rule if the player cannot play
    if strict and (s.current, s.turn) != (current, turn):  # stuck with nothing to draw: the turn passed at once
        raise InvalidStateError(f"phase: seat {current} can neither play nor draw, so no game stops at its turn")
    if strict and phase is not None and PHASES[s.phase] != phase:
        raise InvalidStateError(f"phase: seat {current} {'can' if s.phase == PLAY else 'cannot'} play, so the phase is {PHASES[s.phase]!r}, not {phase!r}")


def _pending(s: State, pending: Any) -> list[int]:
    """The slots waiting for a refill at the end of the turn (D1 "end_of_turn"): each an
    empty slot, each once (a slot listed twice would be refilled twice, losing a card)."""
    if not isinstance(pending, (list, tuple)) or any(type(x) is not int or not 0 <= x < s.m for x in pending):
        raise InvalidStateError(f"pending: expected a list of mine slots 0..{s.m - 1}, got {shown(pending)}")
    if pending and s.rules.refill != "end_of_turn":
        raise InvalidStateError("pending: slots wait for a refill only under refill='end_of_turn' (D1)")
    for x in pending:
        if s.mines[x] >= 0:
            raise InvalidStateError(f"pending: mine {x + 1} (slot {x}) is not empty, so it waits for no refill")
        if pending.count(x) > 1:
            raise InvalidStateError(f"pending: mine {x + 1} (slot {x}) is listed twice; each empty slot is refilled once")
    return list(pending)
