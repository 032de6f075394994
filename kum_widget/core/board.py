"""The board description a game sends, and its check (GAMES.md, "The board").

A board is JSON: shared zones, each seat's area, cards with one or two faces, pieces
(discs, cubes, meeples...), grids of cells, places that hold pieces, counters and badges.
The front-end draws any game from it; the clicks come from the legal actions
(``CardGame.click``), which name the ids of cards, pieces, zones, cells, groups of cells
and places.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import shown

__all__ = ["LAYOUTS", "SIZES", "COLORS", "SHAPES", "CELL_SHAPES", "board_problems", "click_problems", "unclicked_parts"]

LAYOUTS = ("row", "grid", "pile", "stack", "hand", "cells", "places")
SHAPES = ("disc", "chip", "cube", "meeple", "pawn")  # a piece's shape
CELL_SHAPES = ("square", "round")  # a cells zone's cells: squares, or round holes in a frame
MAX_SIDE = 26  # rows and columns of a cells zone
SIZES = ("small", "large")  # a zone's card size (and its sub-zones'); left out: the normal size
COLORS = ("red", "orange", "gold", "green", "teal", "blue", "purple", "pink", "gray", "black")
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_ID = re.compile(r"[A-Za-z0-9_.:\- ]{1,60}")

_BOARD_KEYS = {"zones", "seats", "status", "title", "intro", "outcome"}
_SEAT_KEYS = {"seat", "name", "zones", "counters", "badges"}
_ZONE_KEYS = {"id", "label", "layout", "size", "columns", "cards", "count", "zones", "counters", "badges", "hint", "empty",
              "pieces", "color", "rows", "cells", "cell_shape", "places"}
_PIECE_KEYS = {"id", "shape", "color", "text", "title", "marked"}
_CELL_KEYS = {"id", "row", "col", "pieces", "color", "label", "title", "marked", "group"}
_PLACE_KEYS = {"id", "label", "text", "glyph", "capacity", "pieces", "color", "title", "marked"}
_CARD_KEYS = {"id", "faces", "title", "down", "marked"}
_FACE_KEYS = {"title", "value", "color", "glyph", "tags", "fields", "text", "tooltip", "hidden"}


class _Check:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.ids: set[str] = set()
        self.groups: dict[str, str] = {}  # a group of cells (one click target): its id -> where first named

    def fail(self, where: str, what: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(f"{where}: {what}")

    def keys(self, d: Any, allowed: set[str], where: str) -> bool:
        if not isinstance(d, dict):
            self.fail(where, f"expected an object, got {type(d).__name__}")
            return False
        for k in d:
            if k not in allowed:
                self.fail(where, f"unknown field {k!r} (fields: {', '.join(sorted(allowed))})")
        return True

    def text(self, d: dict[str, Any], key: str, where: str, *, required: bool = False, number: bool = False) -> None:
        if key not in d:
            if required:
                self.fail(where, f"missing {key!r}")
            return
        ok = (str, int, float) if number else (str,)
        if not isinstance(d[key], ok) or isinstance(d[key], bool):
            self.fail(where, f"{key!r} must be {'text or a number' if number else 'text'}, got {type(d[key]).__name__}")

    def ident(self, d: dict[str, Any], where: str) -> None:
        value = d.get("id")
        if not isinstance(value, str) or not _ID.fullmatch(value):
            self.fail(where, f"'id' must be text of 1-60 letters, digits, spaces or _.:- ; got {value!r:.40}")
        elif value in self.ids:
            self.fail(where, f"id {value!r} is used twice: ids name clicks, so each must be unique")
        else:
            self.ids.add(value)

    def color(self, d: dict[str, Any], where: str) -> None:
        c = d.get("color")
        if c is not None and not (isinstance(c, str) and (c in COLORS or _HEX.fullmatch(c))):
            self.fail(where, f"color {c!r:.20} must be one of {', '.join(COLORS)} or #rrggbb")

    def items(self, d: dict[str, Any], key: str, where: str, each: Any) -> None:
        value = d.get(key)
        if value is None:
            return
        if not isinstance(value, list):
            self.fail(where, f"{key!r} must be a list")
            return
        for i, item in enumerate(value):
            each(item, f"{where}.{key}[{i}]")

    def badge(self, b: Any, where: str) -> None:
        if self.keys(b, {"text", "color", "title"}, where):
            self.text(b, "text", where, required=True, number=True)
            self.text(b, "title", where)
            self.color(b, where)

    def flag(self, d: dict[str, Any], key: str, where: str) -> None:
        if key in d and not isinstance(d[key], bool):
            self.fail(where, f"{key!r} must be true or false, got {type(d[key]).__name__}")

    def whole(self, d: dict[str, Any], key: str, where: str, low: int, high: int) -> bool:
        if key not in d:
            self.fail(where, f"missing {key!r} (a whole number {low}..{high})")
            return False
        if type(d[key]) is not int or not low <= d[key] <= high:
            self.fail(where, f"{key!r} must be a whole number {low}..{high}, got {d.get(key)!r:.20}")
            return False
        return True

    def piece(self, p: Any, where: str) -> None:
        if not self.keys(p, _PIECE_KEYS, where):
            return
        self.ident(p, where)
        if "shape" in p and p["shape"] not in SHAPES:
            self.fail(where, f"shape {p['shape']!r:.20} must be one of {', '.join(SHAPES)} (or left out: a disc)")
        self.text(p, "text", where, number=True)
        self.text(p, "title", where)
        self.color(p, where)
        self.flag(p, "marked", where)

    def cell(self, c: Any, where: str, rows: int, columns: int, taken: set[tuple[int, int]]) -> None:
        if not self.keys(c, _CELL_KEYS, where):
            return
        self.ident(c, where)
        for key in ("label", "title"):
            self.text(c, key, where)
        self.color(c, where)
        self.flag(c, "marked", where)
        row_ok = self.whole(c, "row", where, 0, rows - 1)
        if self.whole(c, "col", where, 0, columns - 1) and row_ok:
            if (c["row"], c["col"]) in taken:
                self.fail(where, f"row {c['row']}, col {c['col']} holds another cell already")
            taken.add((c["row"], c["col"]))
        group = c.get("group")
        if group is not None:
            if not isinstance(group, str) or not _ID.fullmatch(group):
                self.fail(where, f"'group' must be text of 1-60 letters, digits, spaces or _.:- ; got {group!r:.40}")
            else:
                self.groups.setdefault(group, where)
        self.items(c, "pieces", where, self.piece)

    def place(self, p: Any, where: str) -> None:
        if not self.keys(p, _PLACE_KEYS, where):
            return
        self.ident(p, where)
        for key in ("label", "text", "glyph", "title"):
            self.text(p, key, where)
        self.color(p, where)
        self.flag(p, "marked", where)
        if "capacity" in p and self.whole(p, "capacity", where, 1, 20):
            held = p.get("pieces")
            if isinstance(held, list) and len(held) > p["capacity"]:
                self.fail(where, f"holds {len(held)} pieces, more than its capacity {p['capacity']}")
        self.items(p, "pieces", where, self.piece)

    def counter(self, c: Any, where: str) -> None:
        if self.keys(c, {"label", "value", "max", "title"}, where):
            self.text(c, "label", where, required=True)
            self.text(c, "value", where, required=True, number=True)
            self.text(c, "title", where)

    def face(self, f: Any, where: str) -> None:
        if not self.keys(f, _FACE_KEYS, where):
            return
        for key in ("title", "glyph", "text", "tooltip"):
            self.text(f, key, where)
        self.text(f, "value", where, number=True)
        self.color(f, where)
        self.items(f, "tags", where, self.badge)
        self.items(f, "fields", where, self.field)

    def field(self, x: Any, where: str) -> None:
        if self.keys(x, {"label", "value", "short"}, where):
            self.text(x, "label", where, required=True)
            self.text(x, "value", where, required=True, number=True)
            self.text(x, "short", where)

    def card(self, c: Any, where: str) -> None:
        if not self.keys(c, _CARD_KEYS, where):
            return
        self.ident(c, where)
        self.text(c, "title", where)
        faces = c.get("faces", [])
        if not isinstance(faces, list) or not (c.get("down") or 1 <= len(faces) <= 2):
            self.fail(where, "a card has 'faces': a list of one or two faces (or 'down': true for a back)")
        self.items(c, "faces", where, self.face)

    def zone(self, z: Any, where: str) -> None:
        if not self.keys(z, _ZONE_KEYS, where):
            return
        self.ident(z, where)
        for key in ("label", "hint", "empty"):
            self.text(z, key, where)
        layout = z.get("layout", "row")
        if layout not in LAYOUTS:
            self.fail(where, f"layout {layout!r:.20} must be one of {', '.join(LAYOUTS)}")
        if "size" in z and z["size"] not in SIZES:
            self.fail(where, f"size {z['size']!r:.20} must be one of {', '.join(SIZES)} (or left out)")
        if layout == "cells":
            self.cells(z, where)
        elif "columns" in z and (type(z["columns"]) is not int or not 1 <= z["columns"] <= 12):
            self.fail(where, "'columns' must be a whole number 1..12")
        for key, wants in (("rows", "cells"), ("cells", "cells"), ("cell_shape", "cells"), ("places", "places")):
            if key in z and layout != wants:
                self.fail(where, f"{key!r} belongs to a zone with layout {wants!r}, not {layout!r:.20}")
        if "count" in z and (type(z["count"]) is not int or z["count"] < 0):
            self.fail(where, "'count' must be a whole number >= 0")
        self.color(z, where)
        self.items(z, "pieces", where, self.piece)
        if layout == "places":
            self.items(z, "places", where, self.place)
        self.items(z, "cards", where, self.card)
        self.items(z, "zones", where, self.zone)
        self.items(z, "counters", where, self.counter)
        self.items(z, "badges", where, self.badge)

    def cells(self, z: dict[str, Any], where: str) -> None:
        """A grid of ``rows`` x ``columns`` squares; its cells name their row and column (0, 0: top left)."""
        rows_ok = self.whole(z, "rows", where, 1, MAX_SIDE)
        if self.whole(z, "columns", where, 1, MAX_SIDE) and rows_ok:
            taken: set[tuple[int, int]] = set()
            self.items(z, "cells", where, lambda c, at: self.cell(c, at, z["rows"], z["columns"], taken))
        if "cell_shape" in z and z["cell_shape"] not in CELL_SHAPES:
            self.fail(where, f"cell_shape {z['cell_shape']!r:.20} must be one of {', '.join(CELL_SHAPES)} (or left out: square)")

    def intro(self, intro: Any) -> None:
        """The first-time panel: a title and a few paragraphs of text (the game's own words)."""
        if intro is None:
            return
        if not self.keys(intro, {"title", "paragraphs"}, "board.intro"):
            return
        self.text(intro, "title", "board.intro", required=True)
        paragraphs = intro.get("paragraphs")
        if not isinstance(paragraphs, list) or not 1 <= len(paragraphs) <= 12 or not all(isinstance(p, str) and p for p in paragraphs):
            self.fail("board.intro", "'paragraphs' must be a list of 1 to 12 texts")

    def finish(self) -> None:
        """A group of cells is one click target: its id joins the ids, and names nothing else."""
        for group, where in self.groups.items():
            if group in self.ids:
                self.fail(where, f"group {group!r} is also the id of a card, piece, zone, cell or place: ids name clicks, so each must be unique")
        self.ids.update(self.groups)


def board_problems(board: Any, players: int) -> tuple[list[str], set[str]]:
    """What is wrong with ``board`` (empty when it is valid), and the ids it defines."""
    check = _Check()
    if not check.keys(board, _BOARD_KEYS, "board"):
        return check.problems, check.ids
    check.text(board, "status", "board")
    check.text(board, "title", "board")
    check.text(board, "outcome", "board")
    check.intro(board.get("intro"))
    check.items(board, "zones", "board", check.zone)
    seen: set[int] = set()

    def seat(s: Any, where: str) -> None:
        if not check.keys(s, _SEAT_KEYS, where):
            return
        if type(s.get("seat")) is not int or not 0 <= s["seat"] < players or s["seat"] in seen:
            check.fail(where, f"'seat' must be a seat 0..{players - 1}, each once")
        else:
            seen.add(s["seat"])
        check.text(s, "name", where)
        check.items(s, "zones", where, check.zone)
        check.items(s, "counters", where, check.counter)
        check.items(s, "badges", where, check.badge)

    check.items(board, "seats", "board", seat)
    check.finish()
    return check.problems, check.ids


def click_problems(click: Any, ids: set[str], text: str) -> list[str]:
    """What is wrong with one action's click (``CardGame.click``) on a board with ``ids``."""
    if not isinstance(click, dict):
        return [f"click of {text!r}: expected an object like {{'target': 'zone-id'}}, got {type(click).__name__}"]
    problems = [f"click of {text!r}: unknown field {k!r} (fields: source, target, label, choice)" for k in click
                if k not in ("source", "target", "label", "choice")]
    if "source" in click and "target" not in click:
        problems.append(f"click of {text!r}: a 'source' needs a 'target'")
    for key in ("source", "target"):
        if key in click and click[key] not in ids:
            problems.append(f"click of {text!r}: {key} {click[key]!r:.40} is no card, piece, zone, cell, group or place id on the board")
    if "label" in click and not isinstance(click["label"], str):
        problems.append(f"click of {text!r}: 'label' must be text")
    if "choice" in click and not (isinstance(click["choice"], str) and 0 < len(click["choice"]) <= 60):
        problems.append(f"click of {text!r}: 'choice' (its entry in the click's menu) must be text of 1-60 characters, got {shown(click['choice'])}")
    return problems


def _parts(zones: Any, out: list[tuple[str, str | None]]) -> None:
    """Add (id, group) of every part of ``zones`` to ``out``, in the board's order (as the
    board reads it)."""
    stack = [zones]
    while stack:  # (a loop, not recursion: a board nested deep costs no RecursionError)
        z = stack.pop()
        if isinstance(z, list):
            stack.extend(reversed(z))  # depth first, in order: a zone, then its inner zones, then the next
            continue
        if not isinstance(z, dict):
            continue
        if isinstance(pid := z.get("id"), str):
            out.append((pid, None))
        for key in ("cards", "pieces"):
            for part in parts if isinstance(parts := z.get(key), list) else ():
                if isinstance(part, dict) and isinstance(pid := part.get("id"), str):
                    out.append((pid, None))
        for key in ("cells", "places"):
            for part in parts if isinstance(parts := z.get(key), list) else ():
                if isinstance(part, dict) and isinstance(pid := part.get("id"), str):
                    group = part.get("group")
                    out.append((pid, group if isinstance(group, str) else None))
                    for piece in pieces if isinstance(pieces := part.get("pieces"), list) else ():
                        if isinstance(piece, dict) and isinstance(pid := piece.get("id"), str):
                            out.append((pid, None))
        if z.get("zones"):
            stack.append(z["zones"])


def unclicked_parts(board: Any, clicks: list[Any]) -> list[str]:
    """The parts of ``board`` (a board description) that no legal action uses, given the
    legal actions' ``clicks``: each id on it that no click names as its ``source`` or
    ``target`` (nor, for a cell or place, names its group), each once, in the board's order.
    These are the parts a board asks ``CardGame.why_not`` about (and ``check_game`` too)."""
    if not isinstance(board, dict):
        return []
    used = {c[k] for c in clicks if isinstance(c, dict) for k in ("source", "target") if isinstance(c.get(k), str)}
    seats = board.get("seats")
    zones = [board.get("zones")] + [s.get("zones") for s in (seats if isinstance(seats, list) else ()) if isinstance(s, dict)]
    found: list[tuple[str, str | None]] = []
    for where in zones:
        _parts(where, found)
    out: dict[str, None] = {}
    for part, group in found:
        if part not in used and (group is None or group not in used):
            out.setdefault(part)
    return list(out)
