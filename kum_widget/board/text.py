"""The board as text: what a viewer without JavaScript reads (a widget's plain-text form).

Built from the very board description the page is sent (``drawing.drawn_frame``),
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

A grid of cells is drawn as one, a key naming what its letters stand for; places list
what is on them:

>>> print(board_text({"title": "Four", "zones": [
...     {"id": "g", "label": "Frame", "layout": "cells", "rows": 2, "columns": 3, "cells": [
...         {"id": "a", "row": 1, "col": 0, "pieces": [{"id": "p", "color": "red"}]},
...         {"id": "b", "row": 1, "col": 1, "pieces": [{"id": "q", "color": "gold", "marked": True}]}]},
...     {"id": "y", "layout": "places", "places": [{"id": "f", "label": "Forest", "text": "+2 wood", "capacity": 2,
...         "pieces": [{"id": "w", "shape": "meeple", "color": "blue", "title": "blue worker"}]}]}]}))
Four:
Frame (2 x 3; R red disc, G gold disc, * marked):
  .  .  .
  R  G* .
Forest (+2 wood) 1/2: blue worker
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["board_text"]

MAX_CARDS = 12  # per zone: a long pile says how many more
COLORS = ("red", "orange", "gold", "green", "teal", "blue", "purple", "pink", "gray", "black")


def _face(f: Any) -> str:
    if not isinstance(f, dict):
        return ""
    if f.get("hidden"):
        return "?"
    words = [str(f[k]) for k in ("title", "value") if f.get(k) not in (None, "")]
    if not words and f.get("text"):
        words = [str(f["text"])]
    fields = [str(x.get("short") or f"{x.get('label', '')} {x.get('value', '')}".strip()) for x in _list(f.get("fields")) if isinstance(x, dict)]
    tags = [str(t.get("text")) for t in _list(f.get("tags")) if isinstance(t, dict) and t.get("text")]
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
    faces = [_face(f) for f in _list(c.get("faces"))[:2] if isinstance(f, dict)]  # both faces, as the board shows
    text = " / ".join(f for f in faces if f) or str(c.get("id", "?"))
    return f"*{text}*" if c.get("marked") else text


def _piece(p: Any) -> str:
    if not isinstance(p, dict):
        return "?"
    if p.get("title"):
        text = str(p["title"])
    else:
        shape = p.get("shape") if p.get("shape") in ("disc", "chip", "cube", "meeple", "pawn") else "disc"
        words = [p.get("color") if p.get("color") in COLORS else "", shape, p.get("text")]
        text = " ".join(str(w) for w in words if w not in (None, ""))
    return f"*{text}*" if p.get("marked") else text


def _pieces(items: Any) -> list[str]:
    """Each piece as text, a run of equal ones as one ("red worker x2")."""
    out: list[str] = []
    for text in (_piece(p) for p in _list(items)):
        if out and out[-1].rsplit(" x", 1)[0] == text:
            last = out[-1].rsplit(" x", 1)
            out[-1] = f"{text} x{int(last[1]) + 1 if len(last) == 2 and last[1].isdigit() else 2}"
        else:
            out.append(text)
    return out


def _list(items: Any) -> list[Any]:
    return items if isinstance(items, list) else []


def _grid(z: dict[str, Any], indent: str, lines: list[str], head: str) -> None:
    """A cells zone as a picture: a letter per piece (its text when short), '.' for an empty cell."""
    rows, cols = z.get("rows"), z.get("columns")
    if type(rows) is not int or type(cols) is not int or not (0 < rows <= 26 and 0 < cols <= 26):
        return
    grid = [["."] * cols for _ in range(rows)]
    key: dict[str, str] = {}  # a piece's words -> its letter
    for c in _list(z.get("cells")):
        if not (isinstance(c, dict) and type(c.get("row")) is int and type(c.get("col")) is int and 0 <= c["row"] < rows and 0 <= c["col"] < cols):
            continue
        marks = []
        for p in (p for p in _list(c.get("pieces")) if isinstance(p, dict)):
            words = _piece({k: v for k, v in p.items() if k != "marked"})
            short = str(p.get("text", ""))
            if short and len(short) <= 2 and not p.get("title"):
                mark = short
            else:
                if words not in key:
                    used = set(key.values())
                    key[words] = next((ch for ch in words.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch.isalpha() and ch not in used), "?")
                mark = key[words]
            marks.append(mark + ("*" if p.get("marked") else ""))
        if marks:
            grid[c["row"]][c["col"]] = "".join(marks)
    width = max(len(x) for row in grid for x in row)
    legend = [f"{letter} {words}" for words, letter in key.items()]
    if any("*" in x for row in grid for x in row):
        legend.append("* marked")
    lines.append(f"{indent}{head or 'Grid'} ({rows} x {cols}{'; ' + ', '.join(legend) if legend else ''}):")
    lines.extend(f"{indent}  " + " ".join(x.ljust(width) for x in row).rstrip() for row in grid)


def _places(z: dict[str, Any], indent: str, lines: list[str]) -> None:
    for p in _list(z.get("places")):
        if not isinstance(p, dict):
            continue
        held = _pieces(p.get("pieces"))
        text = f" ({p['text']})" if p.get("text") not in (None, "") else ""
        cap = f" {len(_list(p.get('pieces')))}/{p['capacity']}" if type(p.get("capacity")) is int else ""
        body = ", ".join(held) if held else "empty"
        lines.append(f"{indent}{p.get('label') or p.get('id', '?')}{text}{cap}: {body}")


def _zone(z: Any, depth: int, lines: list[str]) -> None:
    if not isinstance(z, dict):
        return
    label = str(z.get("label") or "")
    cards = [_card(c) for c in _list(z.get("cards"))] + _pieces(z.get("pieces"))
    if len(cards) > MAX_CARDS:
        cards = [*cards[:MAX_CARDS], f"... {len(cards) - MAX_CARDS} more"]
    badges = [str(b.get("text")) for b in _list(z.get("badges")) if isinstance(b, dict) and b.get("text") not in (None, "")]
    counters = [f"{c.get('label')} {c.get('value')}" for c in _list(z.get("counters")) if isinstance(c, dict)]
    count = f" ({z['count']})" if isinstance(z.get("count"), int) and not isinstance(z.get("count"), bool) else ""
    subs = _list(z.get("zones"))
    body = ", ".join(cards) if cards else ("" if subs or count else str(z.get("empty") or "empty"))
    if count and cards:  # a pile lists its top card only
        body = f"top {body}"
    extra = " ".join(f"[{b}]" for b in badges) + (f" ({', '.join(counters)})" if counters else "")
    head = f"{label}{count}" + (f" {extra.strip()}" if extra.strip() else "")
    indent = "  " * depth
    if z.get("layout") == "cells":
        _grid(z, indent, lines, head.strip())
        return
    if z.get("layout") == "places":
        if head.strip():
            lines.append(f"{indent}{head.strip()}:")
            depth += 1
        _places(z, "  " * depth, lines)
        return
    if head.strip() or body:
        lines.append(f"{indent}{head.strip()}{': ' if head.strip() and body else ''}{body}".rstrip())
        depth += 1
    for sub in subs:
        _zone(sub, depth, lines)


def board_text(board: dict[str, Any], log: Sequence[str] = (), *, last: int = 1) -> str:
    """The board description as lines of text; ``log``'s last ``last`` lines after it."""
    lines = [f"{board.get('title') or 'Game'}: {board.get('status') or ''}".rstrip()]
    if board.get("over") and isinstance(board.get("outcome"), str):  # what decided the game, as the banner says it
        lines.append(board["outcome"])
    for z in _list(board.get("zones")):
        _zone(z, 0, lines)
    if isinstance(board.get("text"), str):
        lines.append(board["text"])
    seats = {s["seat"]: s for s in _list(board.get("seats")) if isinstance(s, dict) and type(s.get("seat")) is int}
    for p in _list(board.get("players")):
        if not isinstance(p, dict):
            continue
        flags = [w for w, on in (("to act", p.get("current")), ("bot", p.get("bot")), ("winner", p.get("winner"))) if on]
        seat = seats.get(p["seat"], {}) if type(p.get("seat")) is int else {}
        counters = [f"{c.get('label')} {c.get('value')}" for c in _list(seat.get("counters")) if isinstance(c, dict)]
        if "score" in p:
            counters.append(f"final score {p['score']}")
        head = str(p.get("name", "?")) + (f" ({', '.join(flags)})" if flags else "")
        lines.append(head + (f" | {', '.join(counters)}" if counters else ""))
        for z in _list(seat.get("zones")):
            _zone(z, 1, lines)
    recent = [str(x) for x in log if x][-last:] if last > 0 else []
    if recent:
        lines.append("Last: " + " / ".join(recent))
    return "\n".join(lines)
