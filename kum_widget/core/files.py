"""Reading a file a user's own code names (a card table, a deck): never a saved game.

Only a regular file is read (a FIFO would block for ever, ``/dev/zero`` would fill memory),
checked before it is opened and again once open, and at most ``limit`` bytes of it.
"""

from __future__ import annotations

import os
import stat

from .errors import GameError, cut, shown

__all__ = ["read_text_file"]


def read_text_file(path: object, *, what: str, limit: int, error: type[GameError] = GameError) -> tuple[str, str]:
    """``(path, text)`` of a UTF-8 file of at most ``limit`` bytes; anything else raises
    ``error`` naming ``what`` was being read (e.g. "card table")."""
    if not isinstance(path, (str, os.PathLike)):
        raise error(f"a {what} file is a path (text or pathlib.Path), got {shown(path)}")
    try:
        where = os.fspath(path)
    except TypeError as exc:
        raise error(f"a {what} file is a path (text or pathlib.Path): {cut(str(exc), 80)}") from None
    if not isinstance(where, str):
        raise error(f"a {what} file is a path (text or pathlib.Path), got {shown(where)}")
    name = shown(where)
    try:
        if not stat.S_ISREG(os.stat(where).st_mode):
            raise error(f"cannot read {what} {name}: not a regular file")
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):  # replaced between the look and the open
                raise error(f"cannot read {what} {name}: not a regular file")
            data = file.read(limit + 1)
    except GameError:
        raise
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise error(f"cannot read {what} {name}: {getattr(exc, 'strerror', None) or cut(str(exc), 80)}") from None
    if len(data) > limit:
        raise error(f"cannot read {what} {name}: the file is larger than the {limit:,} bytes a {what} may have")
    try:
        return where, data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"cannot read {what} {name}: not UTF-8 text") from None
