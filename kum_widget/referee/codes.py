"""The codes a referee hands out: one per seat of each table and one for the teacher. Each is
128 random bits from :mod:`secrets`, written as 32 hex digits, bound to its table and seat, and
checked in constant time against every code the referee holds (how long a check takes says
nothing about how close a guess came).

>>> codes = Codes()
>>> ada = codes.new("table 1", 0)
>>> codes.check(ada)
Seat(table='table 1', seat=0)
>>> codes.check("0" * 32) is None
True
>>> len(ada), repr(Codes())
(32, 'Codes(0 codes)')
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import GameError, shown

__all__ = ["CODE_CHARS", "TEACHER", "Codes", "Seat", "read_codes", "write_private"]

CODE_CHARS = 32  # 128 bits in hex
TEACHER = "teacher"  # the seat of the teacher's code: every table, public only until a game ends


@dataclass(frozen=True)
class Seat:
    """What a code is good for: ``seat`` (a seat number, or ``TEACHER``) at ``table`` (None:
    the teacher's code, for every table)."""

    table: str | None
    seat: int | str


class Codes:
    """The referee's codes, each bound to a :class:`Seat`. Its repr and str name no code."""

    def __init__(self) -> None:
        self._codes: list[tuple[bytes, Seat]] = []

    def new(self, table: str | None, seat: int | str) -> str:
        """A new code for ``seat`` at ``table``; a seat already given a code keeps that one
        too (a teacher hands out a new code when a student's leaked, then ``revoke``s it)."""
        code = secrets.token_hex(CODE_CHARS // 2)
        self._codes.append((code.encode(), Seat(table, seat)))
        return code

    def keep(self, table: str | None, seat: int | str, code: str) -> None:
        """Hold ``code`` (given before, read back from the codes file) for ``seat`` at ``table``."""
        if not isinstance(code, str) or len(code) != CODE_CHARS or any(c not in "0123456789abcdef" for c in code):
            raise GameError(f"a code is {CODE_CHARS} hex digits; the codes file holds something else for {_seat_words(table, seat)}")
        self._codes.append((code.encode(), Seat(table, seat)))

    def lines(self, players: Mapping[str, Sequence[str]] | None = None) -> list[str]:
        """The codes file's lines: ``table<TAB>seat N (player)<TAB>code`` (``players``: each
        table's players, by table), the teacher's ``every table<TAB>teacher<TAB>code``; read
        back by :func:`read_codes`."""
        out = []
        for c, seat in self._codes:
            words = _seat_words(seat.table, seat.seat)
            names = (players or {}).get(seat.table or "", ())
            if isinstance(seat.seat, int) and seat.seat < len(names):
                words += f" ({''.join(ch if ch.isprintable() else ' ' for ch in names[seat.seat])})"
            out.append(f"{'every table' if seat.table is None else seat.table}\t{words}\t{c.decode()}")
        return out

    def revoke(self, code: str) -> None:
        """``code`` is good for nothing from now."""
        if not isinstance(code, str):
            raise GameError(f"a code is text, got {type(code).__name__}")
        key = code.encode()
        self._codes = [(c, seat) for c, seat in self._codes if not hmac.compare_digest(c, key)]

    def check(self, code: object) -> Seat | None:
        """The seat ``code`` is for; None for anything else (text of another length, not hex,
        not ours). Every code held is compared, each in constant time."""
        if not isinstance(code, str) or len(code) != CODE_CHARS:
            return None
        try:
            key = code.encode("ascii")
        except UnicodeEncodeError:
            return None
        found = None
        for c, seat in self._codes:
            if hmac.compare_digest(c, key):  # no early exit: every code is compared
                found = seat
        return found

    def of_table(self, table: str) -> dict[int, list[str]]:
        """The codes of ``table``'s seats, per seat (for the teacher's file)."""
        out: dict[int, list[str]] = {}
        for c, seat in self._codes:
            if seat.table == table and isinstance(seat.seat, int):
                out.setdefault(seat.seat, []).append(c.decode())
        return out

    def teacher(self) -> list[str]:
        return [c.decode() for c, seat in self._codes if seat.seat == TEACHER]

    def __len__(self) -> int:
        return len(self._codes)

    def __repr__(self) -> str:
        return f"Codes({len(self._codes)} codes)"


def _seat_words(table: str | None, seat: int | str) -> str:
    return "teacher" if seat == TEACHER else f"seat {seat}"


def read_codes(path: str | Path) -> Codes:
    """The codes written to ``path`` (``Codes.lines``), held again: a referee that starts again
    from its journal keeps every code it gave."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(f"cannot read the codes file {shown(str(path))}: {exc}") from None
    codes = Codes()
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split("\t")
        if len(parts) != 3 or not (parts[1] == "teacher" or re.fullmatch(r"seat \d{1,3}( \(.*\))?", parts[1])):
            raise GameError(f"{path.name}, line {number}: not a line of a codes file (table, seat, code, tab-separated)")
        table, seat, code = parts
        if seat == "teacher":
            codes.keep(None, TEACHER, code)
        else:
            codes.keep(table, int(seat.split()[1]), code)
    return codes


def write_private(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` readable and writable by this user alone (mode 0600 from the
    moment the file exists: it is created so, then renamed over any older one)."""
    path = Path(path)
    if path.is_dir():
        raise GameError(f"{shown(str(path))} is a folder, not a file to write the codes in")
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
