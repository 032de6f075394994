"""The board as text: what a viewer without JavaScript reads (a widget's plain-text form).

Built from the very board description the page is sent (``_board_data.board_payload``),
so it says no more than the board shows, for any game on the shell.

>>> print(board_text({"title": "T", "status": "Ada to act.", "over": False,
...     "zones": [{"id": "z", "label": "Deck", "layout": "pile", "count": 3, "cards": [{"id": "c", "down": True}]}],
...     "players": [{"seat": 0, "name": "Ada", "current": True}],
...     "seats": [{"seat": 0, "counters": [{"label": "score", "value": 2}],
...                "zones": [{"id": "h", "label": "Hand", "cards": [{"id": "a", "faces": [{"title": "orc", "value": 4}]}]}]}]},
...     ["Ada drew a card."]))
T: Ada to act.
Deck (3): top [face down]
Ada (to act) | score 2
  Hand: orc 4
Last: Ada drew a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["board_text"]

MAX_CARDS = 12  # per zone: a long pile says how many more


def _face(f: Any) -> str:
    if not isinstance(f, dict):
        return ""
    if f.get("hidden"):
        return "?"
    words = [str(f[k]) for k in ("title", "value") if f.get(k) not in (None, "")]
    if not words and f.get("text"):
        words = [str(f["text"])]
    fields = [str(x.get("short") or f"{x.get('label', '')} {x.get('value', '')}".strip()) for x in f.get("fields") or () if isinstance(x, dict)]
    tags = [str(t.get("text")) for t in f.get("tags") or () if isinstance(t, dict) and t.get("text")]
    out = " ".join(words)
    if fields:
        out += f" ({', '.join(fields)})"
    if tags:
        out += f" [{', '.join(tags)}]"
    return out


def _card(c: Any) -> str:
    if not isinstance(c, dict):
        return "?"
    if c.get("down"):
        return "[face down]"
    faces = [_face(f) for f in (c.get("faces") or ())[:2] if isinstance(f, dict)]  # both faces, as the board shows
    text = " / ".join(f for f in faces if f) or str(c.get("id", "?"))
    return f"*{text}*" if c.get("marked") else text


def _zone(z: Any, depth: int, lines: list[str]) -> None:
    if not isinstance(z, dict):
        return
    label = str(z.get("label") or "")
    cards = [_card(c) for c in z.get("cards") or ()]
    if len(cards) > MAX_CARDS:
        cards = [*cards[:MAX_CARDS], f"... {len(cards) - MAX_CARDS} more"]
    badges = [str(b.get("text")) for b in z.get("badges") or () if isinstance(b, dict) and b.get("text") not in (None, "")]
    counters = [f"{c.get('label')} {c.get('value')}" for c in z.get("counters") or () if isinstance(c, dict)]
    count = f" ({z['count']})" if isinstance(z.get("count"), int) and not isinstance(z.get("count"), bool) else ""
    subs = z.get("zones") or ()
    body = ", ".join(cards) if cards else ("" if subs or count else str(z.get("empty") or "empty"))
    if count and cards:  # a pile lists its top card only
        body = f"top {body}"
    extra = " ".join(f"[{b}]" for b in badges) + (f" ({', '.join(counters)})" if counters else "")
    head = f"{label}{count}" + (f" {extra.strip()}" if extra.strip() else "")
    indent = "  " * depth
    if head.strip() or body:
        lines.append(f"{indent}{head.strip()}{': ' if head.strip() and body else ''}{body}".rstrip())
        depth += 1
    for sub in subs:
        _zone(sub, depth, lines)


def board_text(board: dict[str, Any], log: Sequence[str] = (), *, last: int = 1) -> str:
    """The board description as lines of text; ``log``'s last ``last`` lines after it."""
    lines = [f"{board.get('title') or 'Game'}: {board.get('status') or ''}".rstrip()]
    for z in board.get("zones") or ():
        _zone(z, 0, lines)
    if isinstance(board.get("text"), str):
        lines.append(board["text"])
    seats = {s.get("seat"): s for s in board.get("seats") or () if isinstance(s, dict)}
    for p in board.get("players") or ():
        if not isinstance(p, dict):
            continue
        flags = [w for w, on in (("to act", p.get("current")), ("bot", p.get("bot")), ("winner", p.get("winner"))) if on]
        seat = seats.get(p.get("seat"), {})
        counters = [f"{c.get('label')} {c.get('value')}" for c in seat.get("counters") or () if isinstance(c, dict)]
        if "score" in p:
            counters.append(f"final score {p['score']}")
        head = str(p.get("name", "?")) + (f" ({', '.join(flags)})" if flags else "")
        lines.append(head + (f" | {', '.join(counters)}" if counters else ""))
        for z in seat.get("zones") or ():
            _zone(z, 1, lines)
    recent = [str(x) for x in log if x][-last:] if last > 0 else []
    if recent:
        lines.append("Last: " + " / ".join(recent))
    return "\n".join(lines)
