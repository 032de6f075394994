"""Reading a file a user's own code names (a card table, a deck), writing one a user
asks for (a replay, a report), and the name a finished game is handed in under.

Only a regular file is read (a FIFO would block for ever, ``/dev/zero`` would fill memory),
checked before it is opened and again once open, and at most ``limit`` bytes of it. A file
is written whole or not at all (beside its place, then moved over it), keeping an existing
file's permissions and owner, and only ever over a regular file (never a device).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import stat
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

from .errors import GameError, cut, shown

__all__ = ["HAND_IN_KINDS", "hand_in_name", "read_text_file", "write_text_file"]


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


def write_text_file(path: object, text: str, *, error: type[GameError] = GameError, example: str = "game.html") -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all, and return the path. A bad
    path (not a path, a folder, no such folder, a device or FIFO) or a failed write raises
    ``error`` naming the path; ``example`` is the file name suggested for a folder."""
    try:
        name = os.fsdecode(path) if isinstance(path, (str, os.PathLike)) else ""
    except (TypeError, ValueError):
        name = ""
    if not name:
        raise error(f"path must be a file path, got {shown(path)}")
    target = Path(name)
    where = cut(str(target), 120)
    try:
        folder, parent = target.is_dir(), target.parent.is_dir()
    except (OSError, ValueError) as exc:  # a name too long, a null byte, a FIFO or a device...
        raise error(f"cannot save {where}: {cut(str(exc), 120)}") from None
    if folder:
        raise error(f"{where} is a folder: give a file name such as {cut(str(target / example), 120)}")
    if not parent:
        raise error(f"cannot save {where}: there is no folder {cut(str(target.parent), 120)}")
    mode, owner = _kept(target, where, error)
    try:  # a whole file or none: written beside the target, then moved over it
        real = Path(os.path.realpath(target))  # through a link: the link stays, the file it names is replaced
        fd, tmp = tempfile.mkstemp(prefix=".kum-", suffix=target.suffix, dir=real.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                os.fchmod(out.fileno(), mode)  # mkstemp's 0600 would keep the file from its readers
                if owner is not None and owner != (os.getuid(), os.getgid()):
                    with contextlib.suppress(OSError):  # root saving over a user's file leaves it theirs
                        os.fchown(out.fileno(), *owner)
            os.replace(tmp, real)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, ValueError) as exc:
        raise error(f"cannot save {where}: {cut(str(exc), 120)}") from None
    return target


def _kept(target: Path, where: str, error: type[GameError]) -> tuple[int, tuple[int, int] | None]:
    """The permissions (and owner) the saved file gets: an existing file's own, else what
    the umask gives a new file. Only a regular file (or nothing) is replaced: never a FIFO,
    a device or a socket (as root, saving to /dev/null would otherwise replace /dev/null)."""
    try:
        st = target.stat()  # through links: what would be replaced is what the link names
    except FileNotFoundError:
        umask = os.umask(0)  # read, then put back: the only portable way to know it
        os.umask(umask)
        return 0o666 & ~umask, None
    except (OSError, ValueError) as exc:
        raise error(f"cannot save {where}: {cut(str(exc), 120)}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(f"cannot save {where}: it is not a regular file (a device, a FIFO or a socket), and only a file is replaced")
    return stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)


# -- the name a finished game is handed in under ---------------------------------------------

HAND_IN_KINDS = {"record": ".kum.txt", "replay": ".html"}
"""What :func:`hand_in_name` names, and the ending each kind's file gets."""

_NAME_CHARS = 24  # the most characters of one player's (or a table's) name in a file name
_PLAYERS_CHARS = 120  # the most characters of the players' part


def _words(text: str, most: int) -> str:
    """``text`` in safe file-name characters: accents dropped (Zoë: Zoe), every run of other
    characters one "-", cut to ``most`` characters; empty when nothing is left."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = "".join(ch if ch.isalnum() else " " for ch in plain).split()
    return "-".join(words)[:most].strip("-")


def hand_in_name(session: Any, *, table: Any = None, when: datetime.datetime | None = None, kind: str = "record") -> str:
    """The file name a finished game is handed in under: its game, its table (if any), its
    players and the date, in safe characters only (letters, digits, "-", "_", "."), so that
    a class's files sort by game and table and no two players' games share a name.

    ``kings-under-mountains_table-1_Ada-Bo-Cy-Di_2026-12-06-0930.kum.txt``: ``session`` is any
    game with ``game.name`` and ``players`` (a ``core.Session``, a ``kum.Game``); ``table`` a
    table's number or name (``1`` and ``"table 1"`` both give ``table-1``); ``when`` the time
    to write (default: now); ``kind`` "record" (``.kum.txt``) or "replay" (``.html``). A
    player's name keeps its letters and digits (a space becomes "-", each player's
    name is cut to 24 characters, an empty one is "seat-N"); players are joined by "-".

    >>> from kum_widget.core.examples import Bust
    >>> from kum_widget.core.session import Session
    >>> game = Session(Bust(), ["Zoë", "Bo / 2"], seed=1)
    >>> hand_in_name(game, table=3, when=datetime.datetime(2026, 12, 6, 9, 30))
    'bust_table-3_Zoe-Bo-2_2026-12-06-0930.kum.txt'
    """
    name = getattr(getattr(session, "game", None), "name", None)
    players = getattr(session, "players", None)
    if not isinstance(name, str) or isinstance(players, (str, bytes)) or not isinstance(players, (tuple, list)) \
            or not all(isinstance(p, str) for p in players):
        raise GameError(f"hand_in_name: expected a game (with game.name and its players' names), got {shown(session)}")
    if kind not in HAND_IN_KINDS:
        raise GameError(f"hand_in_name: kind must be one of {', '.join(map(repr, HAND_IN_KINDS))}, got {shown(kind)}")
    if when is None:
        when = datetime.datetime.now()
    elif not isinstance(when, datetime.datetime):
        raise GameError(f"hand_in_name: when must be a datetime.datetime (or None: now), got {shown(when)}")
    parts = [_words(name, 60).lower() or "game"]
    if table is not None:
        if isinstance(table, bool) or not isinstance(table, (int, str)):
            raise GameError(f"hand_in_name: table must be a table's number or name (or None), got {shown(table)}")
        label = _words(str(table), _NAME_CHARS)
        if not label:
            raise GameError(f"hand_in_name: a table's name needs a letter or a digit, got {shown(table)}")
        parts.append(label if label.lower().startswith("table") else f"table-{label}")
    seated = "-".join(_words(p, _NAME_CHARS) or f"seat-{i + 1}" for i, p in enumerate(players))
    parts += [seated[:_PLAYERS_CHARS].strip("-") or "players", when.strftime("%Y-%m-%d-%H%M")]
    return "_".join(parts) + HAND_IN_KINDS[kind]
