"""What one seat may see (D6), as JSON-safe data, and a text board.

Every card shows one face to the table. A view gives each card only the face(s) the
seat can see: mines as mine faces, played and Camp cards as creatures, the seat's
own hand whole, other hands as mine faces plus the creature when it came from the
Camp. Card ids appear only where the seat sees both faces (its own hand), since an
id names both faces through the deck table.
"""

from __future__ import annotations

from typing import Any

from .cards import RACES, Deck
from .rules import points, scores, winners
from .ruleset import Rules
from .state import OVER, PHASES, State

__all__ = ["view", "board_text"]

_RACE_NAMES = tuple(race.value for race in RACES)


class _Faces:
    """Every card's faces as view dicts, built once per deck: a view copies them (a
    shallow ``dict.copy``, as the values are plain numbers and text), so building a view
    costs a copy per card instead of a dict built field by field."""

    __slots__ = ("count", "creature", "face", "own", "physical")

    def __init__(self, d: Deck) -> None:
        races = [RACES[r].value for r in d.races]
        n = len(d)
        self.creature: list[dict[str, Any]] = [{"race": races[c], "value": d.values[c]} for c in range(n)]
        self.face: list[dict[str, Any]] = [
            {"defense": d.defenses[c], "size": d.sizes[c], "points": d.points[c], "overseer": d.overseers[c]}
            for c in range(n)
        ]
        # hand cards by what the viewer sees, indexed [known][card]
        self.own: list[list[dict[str, Any]]] = [[{"id": c, **self.creature[c], **self.face[c], "public": bool(known)} for c in range(n)] for known in (0, 1)]
        self.physical: list[list[dict[str, Any]]] = [
            [{"id": None, "race": None, "value": None, **self.face[c], "public": False} for c in range(n)],
            [{"id": None, **self.creature[c], **self.face[c], "public": True} for c in range(n)],
        ]
        self.count: dict[str, Any] = {"id": None, "race": None, "value": None, "defense": None, "size": None,
                      "points": None, "overseer": None, "public": False}


_TABLES: dict[int, tuple[Deck, _Faces]] = {}
_RULES: dict[int, tuple[Rules, dict[str, Any]]] = {}


def _faces(d: Deck) -> _Faces:
    entry = _TABLES.get(id(d))
    if entry is None or entry[0] is not d:
        if len(_TABLES) >= 16:
            _TABLES.clear()
        entry = _TABLES[id(d)] = (d, _Faces(d))
    return entry[1]


def _rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()``, once per rules object (a custom deck's CSV text is long); a copy each call."""
    entry = _RULES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_RULES) >= 16:
            _RULES.clear()
        entry = _RULES[id(rules)] = (rules, rules.to_dict())
    return entry[1].copy()


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
    t = _faces(s.cards)
    creature, face = t.creature, t.face
    d = s.cards
    pts, sizes, overseers = d.points, d.sizes, d.overseers
    known = s.known
    vis = s.rules.visibility
    everyone = (seat is None and not spectator) or vis == "open"
    players = []
    for p in range(s.players):
        hand = s.hands[p]
        if everyone or p == seat:
            own = t.own
            cards = [own[known[c]][c].copy() for c in hand]
        elif vis == "physical":
            phys = t.physical
            cards = [phys[known[c]][c].copy() for c in hand]
        else:
            count = t.count
            cards = [count.copy() for _ in hand]
        claimed = []
        for k, mine in enumerate(s.claimed[p]):
            st = s.stacks[mine]
            claimed.append({
                "number": k + 1,
                "mine": face[mine].copy(),
                "stack": [creature[c].copy() for c in st],
                "needs_overseer": overseers[mine] and len(st) >= sizes[mine],
            })
        developed = s.developed[p]
        dev = sum([pts[c] for c in developed])
        undev = sum([pts[c] for c in s.claimed[p]])
        players.append({
            "seat": p,
            "name": s.names[p],
            "king": _RACE_NAMES[s.kings[p]],
            "hand_size": len(hand),
            "hand": cards,
            "claimed": claimed,
            "developed": [face[c].copy() for c in developed],
            "developed_points": dev,
            "undeveloped_points": undev,
            "score": dev - undev,
        })
    over = s.phase == OVER
    deck = s.deck
    return {
        "game": "kings-under-mountains",
        "seat": seat,
        "spectator": spectator,
        "players": players,
        "mines": [
            {
                "number": slot + 1,
                "mine": None if mine < 0 else face[mine].copy(),
                "stack": [creature[c].copy() for c in st],
            }
            for slot, (mine, st) in enumerate(zip(s.mines, s.mine_stacks, strict=True))
        ],
        "camp": {name: [creature[c].copy() for c in pile] for name, pile in zip(_RACE_NAMES, s.camp, strict=True)},
        "deck": {"size": len(deck), "top": face[deck[-1]].copy() if deck else None},
        "current": s.current,
        "first_player": s.first,
        "phase": PHASES[s.phase],
        "deck_only": s.deck_only,
        "turn": s.turn,
        "over": over,
        "scores": [p["score"] for p in players],
        "winners": winners(s) if over else [],
        "kings_in_game": [_RACE_NAMES[r] for r in s.kings],
        "pending": [slot + 1 for slot in s.pending],
        "rules": _rules_dict(s.rules),
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
