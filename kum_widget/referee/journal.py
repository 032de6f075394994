"""The referee's journal: one JSON line per thing that changed a table, appended as it happens,
so a referee that stops in any way (Ctrl+C, a crash, SIGKILL) starts again where it was.

A line is one of:

- ``{"kind": "table", "setup": {...}}``: a table dealt (``Table.setup``: its game, rules,
  players, seed and bots; the seed deals every hand, which is why the file is the teacher's
  alone, mode 0600);
- ``{"kind": "act", "table": name, "seat": n, "action": id}``: an action taken;
- ``{"kind": "undo", "table": name, "seat": n}``: a seat's own last action taken back;
- ``{"kind": "away", "table": name, "seat": n, "bot": name}`` and ``{"kind": "back", ...}``:
  a bot stood in for a seat, and its person took it back;
- ``{"kind": "over", "table": name, "files": [...]}``: the game ended and was handed in.

Each line is written whole and flushed before the seats are told, so a change a seat has seen
is in the journal. A line cut short (the process killed while writing it) is the last one; it is
left out when the journal is read, and said.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import GameError, shown
from .classfile import tables_of
from .table import Table

__all__ = ["Journal", "read_journal", "tables_from"]


class Journal:
    """``Journal(path)``: appends to the journal at ``path`` (created readable and writable by
    this user alone). ``write(entry)`` adds one line."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            raise GameError(f"cannot open the journal {shown(str(self.path))}: {exc.strerror or exc}") from None
        if os.fstat(fd).st_mode & 0o077:
            os.close(fd)
            raise GameError(f"the journal {shown(str(self.path))} is readable by others: it holds every deal (chmod 600 it)")
        try:  # one referee a folder: a second would write the same journal and codes
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise GameError(f"another referee is using {shown(str(self.path.parent))} (its journal is locked): stop it, "
                            "or give this one another --folder") from None
        _cut_to_whole_lines(fd)
        self._out: TextIO = os.fdopen(fd, "a", encoding="utf-8")

    def write(self, entry: dict[str, Any]) -> None:
        self._out.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._out.flush()

    def sync(self) -> None:
        """To the disk, not only the system's buffers (a finished game: a power cut keeps it)."""
        os.fsync(self._out.fileno())

    def close(self) -> None:
        self._out.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"


def read_journal(path: str | Path) -> tuple[list[dict[str, Any]], str | None]:
    """The entries of the journal at ``path``, and what was left out (a last line cut short),
    or None."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(f"cannot read the journal {shown(str(path))}: {exc}") from None
    entries: list[dict[str, Any]] = []
    lines = text.split("\n")
    left_out = None
    for number, line in _numbered(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            entry = None
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            if number == len(lines) - 1 or (number == len(lines) - 2 and lines[-1] == ""):
                left_out = f"line {number + 1} of {path.name} was cut short (the referee stopped while writing it)"
                break
            raise GameError(f"{path.name}, line {number + 1}: not a journal entry: {shown(line, 60)}")
        entries.append(entry)
    return entries, left_out


def _cut_to_whole_lines(fd: int) -> None:
    """A line cut short at the end (read_journal left it out) goes, so the next starts afresh."""
    size = os.fstat(fd).st_size
    if not size or os.pread(fd, 1, size - 1) == b"\n":
        return
    tail = max(0, size - 65_536)
    while True:
        chunk = os.pread(fd, size - tail, tail)
        end = chunk.rfind(b"\n")
        if end >= 0 or tail == 0:
            os.ftruncate(fd, tail + end + 1)
            return
        tail = max(0, tail - 65_536)


def _numbered(lines: list[str]) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(lines):
        if line:
            yield number, line


def tables_from(entries: list[dict[str, Any]], *, where: str = "the journal") -> tuple[dict[str, Table], dict[str, list[str]]]:
    """The tables as the journal's ``entries`` leave them (each dealt again from its setup,
    every change played again in order), and the tables whose game was handed in, with the
    names of the files it was handed in as."""
    tables: dict[str, Table] = {}
    handed_in: dict[str, list[str]] = {}
    for number, entry in enumerate(entries, 1):
        kind = entry["kind"]
        try:
            if kind not in ("table", "act", "undo", "away", "back", "over"):
                raise GameError(f"no entry of the kind {shown(kind)}")
            if kind == "table":
                (table,) = tables_of({"table": [entry["setup"]]}, where=where)
                tables[table.name] = table
                continue
            table = tables[entry["table"]]
            if kind == "act":
                table.act(entry["seat"], entry["action"], state_id=table.state_id, by_bot=True)
            elif kind == "undo":
                table.undo(entry["seat"], state_id=table.state_id, replaying=True)
            elif kind == "away":
                table.hand_over(entry["seat"], entry["bot"])
            elif kind == "back":
                table.take_back(entry["seat"])
            else:
                handed_in[table.name] = [str(name) for name in entry["files"]]
        except (KeyError, TypeError) as exc:
            raise GameError(f"{where}, entry {number} ({shown(kind)}): a field is missing or wrong ({exc})") from None
        except GameError as exc:
            raise GameError(f"{where}, entry {number} ({shown(kind)}) cannot be played again: {exc}") from None
    return tables, handed_in
