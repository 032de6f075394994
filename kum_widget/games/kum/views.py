"""What one seat may see (D6), as JSON-safe data, and a text board.

Every card shows one face to the table. A view gives each card only the face(s) the
seat can see: mines as mine faces, played and Camp cards as creatures, the seat's
own hand whole, other hands as mine faces plus the creature when it came from the
Camp. Card ids appear only where the seat sees both faces (its own hand), since an
id names both faces through the deck table.
"""

from __future__ import annotations

from typing import Any

from .cards import RACES
from .rules import points, scores, winners
from .state import OVER, PHASES, State

__all__ = ["view", "board_text"]


def _creature(s: State, c: int) -> dict[str, Any]:
    return {"race": RACES[s.cards.races[c]].value, "value": s.cards.values[c]}


def _face(s: State, c: int) -> dict[str, Any]:
    d = s.cards
    return {"defense": d.defenses[c], "size": d.sizes[c], "points": d.points[c], "overseer": d.overseers[c]}


def _hand_card(s: State, c: int, sees: str) -> dict[str, Any]:
    """``sees`` is "all" (both faces and id), "physical" (D6) or "count" (nothing)."""
    known = bool(s.known[c])
    if sees == "all":
        return {"id": c, **_creature(s, c), **_face(s, c), "public": known}
    if sees == "count":
        return {"id": None, "race": None, "value": None, "defense": None, "size": None,
                "points": None, "overseer": None, "public": False}
    out: dict[str, Any] = {"id": None, "race": None, "value": None, **_face(s, c), "public": known}
    if known:
        out.update(_creature(s, c))
    return out


def view(s: State, seat: int | None, *, spectator: bool = False) -> dict[str, Any]:
    """The observation of ``seat`` (or of the full table for ``None``; or of a
    spectator, who holds no cards, with ``spectator=True``).

    Never contains the creature face of another seat's card drawn from the deck, nor
    the deck below its top card's mine face.
    """
    if seat is not None and not (type(seat) is int and 0 <= seat < s.players):
        raise ValueError(f"seat must be 0..{s.players - 1} or None, got {seat!r}")
    if spectator:
        seat = None
    vis = s.rules.visibility
    players = []
    for p in range(s.players):
        if (seat is None and not spectator) or p == seat or vis == "open":
            sees = "all"
        else:
            sees = "physical" if vis == "physical" else "count"
        dev, undev = points(s, p)
        players.append({
            "seat": p,
            "name": s.names[p],
            "king": RACES[s.kings[p]].value,
            "hand_size": len(s.hands[p]),
            "hand": [_hand_card(s, c, sees) for c in s.hands[p]],
            "claimed": [
                {
                    "number": k + 1,
                    "mine": _face(s, mine),
                    "stack": [_creature(s, c) for c in s.stacks[mine]],
                    "needs_overseer": s.cards.overseers[mine] and len(s.stacks[mine]) >= s.cards.sizes[mine],
                }
                for k, mine in enumerate(s.claimed[p])
            ],
            "developed": [_face(s, mine) for mine in s.developed[p]],
            "developed_points": dev,
            "undeveloped_points": undev,
            "score": dev - undev,
        })
    over = s.phase == OVER
    return {
        "game": "kings-under-mountains",
        "seat": seat,
        "spectator": spectator,
        "players": players,
        "mines": [
            {
                "number": slot + 1,
                "mine": None if mine < 0 else _face(s, mine),
                "stack": [_creature(s, c) for c in s.mine_stacks[slot]],
            }
            for slot, mine in enumerate(s.mines)
        ],
        "camp": {race.value: [_creature(s, c) for c in s.camp[race.index]] for race in RACES},
        "deck": {"size": len(s.deck), "top": _face(s, s.deck[-1]) if s.deck else None},
        "current": s.current,
        "first_player": s.first,
        "phase": PHASES[s.phase],
        "deck_only": s.deck_only,
        "turn": s.turn,
        "over": over,
        "scores": scores(s),
        "winners": winners(s) if over else [],
        "kings_in_game": [RACES[r].value for r in s.kings],
        "pending": [slot + 1 for slot in s.pending],
        "rules": s.rules.to_dict(),
    }


def _face_text(s: State, c: int) -> str:
    return f"[{s.cards[c].mine}]"


def _stack_text(s: State, stack: list[int], need: int) -> str:
    cards = " ".join(s.cards[c].race.letter + str(s.cards.values[c]) for c in stack)
    return f"{cards or '-'} ({len(stack)}/{need})"


def board_text(s: State) -> str:
    """A compact text board of the full table, for terminals."""
    d = s.cards
    head = f"Kings Under Mountains: turn {s.turn + 1}, "
    if s.phase == OVER:
        win = ", ".join(s.names[w] for w in winners(s))
        head = f"Kings Under Mountains: game over after {s.turn} turns, won by {win}"
    else:
        head += f"{s.names[s.current]} to {PHASES[s.phase]}"
    top = _face_text(s, s.deck[-1]) if s.deck else "empty"
    lines = [head, f"Deck: {len(s.deck)} cards, top {top}"]
    for slot, mine in enumerate(s.mines):
        if mine < 0:
            lines.append(f"Mine {slot + 1}: (empty)")
        else:
            stack = _stack_text(s, s.mine_stacks[slot], d.defenses[mine])
            lines.append(f"Mine {slot + 1} {_face_text(s, mine)}: {stack}")
    camp = "  ".join(
        f"{race.value} " + (" ".join(str(d.values[c]) for c in s.camp[race.index]) or "-") for race in RACES
    )
    lines.append(f"Camp: {camp}")
    sc = scores(s)
    for p in range(s.players):
        dev, undev = points(s, p)
        mark = ">" if p == s.current and s.phase != OVER else " "
        lines.append(f"{mark} {s.names[p]} ({RACES[s.kings[p]].value} King): score {sc[p]} = {dev} developed - {undev} undeveloped")
        for k, mine in enumerate(s.claimed[p]):
            need = d.sizes[mine] + (1 if d.overseers[mine] else 0)
            lines.append(f"    claimed {k + 1} {_face_text(s, mine)}: {_stack_text(s, s.stacks[mine], need)}")
        if s.developed[p]:
            lines.append("    developed: " + " ".join(_face_text(s, mine) for mine in s.developed[p]))
        lines.append("    hand: " + ", ".join(str(d[c]) for c in s.hands[p]))
    return "\n".join(lines)
