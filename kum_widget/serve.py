"""``kum-widget serve CLASS.toml`` (also ``python -m kum_widget.serve CLASS.toml``): the referee
of a class, every table of the class file (``referee.classfile``) on one asyncio process.

It listens on 127.0.0.1 (``--host 0.0.0.0`` for every interface, to reach the students'
laptops), prints the address and one code per seat and one for the teacher, and keeps its
files in a folder only its user can read (``--folder``; by default
``~/.local/state/kum-widget/<class file's name>``, outside any folder a notebook server shows):
``codes.txt`` (the codes), ``journal.jsonl`` (every change, so a referee started again with the
same folder resumes every table where it was) and ``games/`` (each finished game's record and
replay, for ``kum.lab.load``). ``--certfile`` (and ``--keyfile``) serve ``wss://``.
``--game path/file.py:Class`` makes a game written in a file playable (it runs that file's
code). ``--silent SECONDS``: a bot stands in for a person silent that long on their turn, until
they take their seat back. Ctrl+C (or SIGTERM) stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import functools
import hashlib
import importlib.util
import logging
import os
import re
import signal
import ssl
import sys
from pathlib import Path
from typing import Any

from .core.errors import GameError, shown

__all__ = ["main"]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="kum-widget", description="kum_widget's commands")
    commands = top.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="referee a class's tables over websockets", description=__doc__)
    serve.add_argument("classfile", type=Path, help="the class file: its [[table]] entries (TOML)")
    serve.add_argument("--host", default="127.0.0.1", help="the interface to listen on (default 127.0.0.1; 0.0.0.0: every one)")
    serve.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any free one)")
    serve.add_argument("--folder", type=Path,
                       help="the referee's own folder: codes, journal, finished games (default: "
                            "$XDG_STATE_HOME or ~/.local/state, then kum-widget/<CLASSFILE's name>-<a hash of its path>)")
    serve.add_argument("--codes", type=Path, help="where the codes are written (default: codes.txt in the folder)")
    serve.add_argument("--game", action="append", default=[], metavar="FILE.py:CLASS",
                       help="a game written in a file, played by its name in the class file (runs that file's code)")
    serve.add_argument("--silent", type=float, metavar="SECONDS",
                       help="a bot stands in for a person silent this long on their turn (default: never)")
    serve.add_argument("--stand-in", default="greedy", metavar="BOT", help="the bot that stands in (default greedy)")
    serve.add_argument("--certfile", type=Path, help="a TLS certificate (PEM): serve wss:// instead of ws://")
    serve.add_argument("--keyfile", type=Path, help="its private key (PEM), when not in the certificate file")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # who joined, who left, refusals, games over: for the teacher's console (never a code, a frame or a hand)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S", stream=sys.stdout)
    try:
        return asyncio.run(serve(args))
    except GameError as exc:
        print(f"kum-widget serve: {exc}", file=sys.stderr)
        return 2


async def serve(args: argparse.Namespace) -> int:
    from . import __version__
    from .referee.classfile import read_class
    from .referee.codes import TEACHER, Codes, read_codes, write_private
    from .referee.journal import Journal, read_journal, tables_from
    from .referee.server import Referee

    for spec in args.game:
        load_game(spec)
    if args.silent is not None and not 1 <= args.silent <= 86_400:
        raise GameError(f"--silent is a number of seconds from 1 to 86400, got {args.silent:g}")
    class_tables = read_class(args.classfile)  # (a class file that does not read makes no folder)
    folder = private_folder(args.folder or default_folder(args.classfile))
    codes_file = args.codes or folder / "codes.txt"
    journal_file = folder / "journal.jsonl"
    context = None
    if args.certfile is not None:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as exc:
            raise GameError(f"cannot load the certificate {args.certfile}: {exc}") from None
    resumed = journal_file.exists() and journal_file.stat().st_size > 0
    if resumed:
        entries, cut = read_journal(journal_file)
        tables, handed_in = tables_from(entries, where=journal_file.name)
        if not codes_file.exists():
            raise GameError(f"{journal_file} holds a class whose codes file {codes_file} is gone: give --codes, or a new --folder to start afresh")
        codes = read_codes(codes_file)
        if cut:
            print(f"kum-widget serve: {cut}; left out", file=sys.stderr, flush=True)
    else:
        tables, handed_in, codes = {}, {}, Codes()
        codes.new(None, TEACHER)
    journal = Journal(journal_file)
    for table in class_tables:  # the class file's tables the journal does not hold yet (all, the first time)
        if table.name not in tables:
            tables[table.name] = table
            journal.write({"kind": "table", "setup": table.setup()})
            for seat in range(len(table.players)):
                if seat not in table.bots:
                    codes.new(table.name, seat)
    games = folder / "games"
    games.mkdir(mode=0o700, exist_ok=True)
    lines = codes.lines({t.name: t.players for t in tables.values()})
    write_private(codes_file, "\n".join(lines) + "\n")
    referee = Referee(tables, codes, version=__version__, journal=journal, codes_file=codes_file,
                      hand_in=functools.partial(hand_in, games=games), handed_in=handed_in, silent=args.silent, stand_in=args.stand_in)
    try:
        server = await referee.serve(args.host, args.port, ssl=context)
    except OSError as exc:
        raise GameError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    port = server.sockets[0].getsockname()[1]
    scheme = "wss" if context else "ws"
    host = f"[{args.host}]" if ":" in args.host else args.host
    count = f"{len(tables)} table{'s' if len(tables) != 1 else ''}"
    if resumed:
        count += f", resumed from its journal ({len(handed_in)} finished)"
    print(f"kum-widget referee {__version__}: {count}; its folder {folder}, codes in {codes_file}", flush=True)
    for line in sorted(lines, key=lambda line: line.startswith("every table")):
        print("  " + line.replace("\t", "  "), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before the address is out: a stop from then on is a clean one
        loop.add_signal_handler(signum, stop.set)
    print(f"serving at {scheme}://{host}:{port}/ (Ctrl+C stops it)", flush=True)
    await stop.wait()
    server.close()
    await server.wait_closed()
    await referee.finish()
    referee.close()
    journal.close()
    print("referee stopped", flush=True)
    return 0


def default_folder(classfile: Path) -> Path:
    """~/.local/state/kum-widget/<the class file's name>-<its place> (XDG_STATE_HOME when
    set): one folder per class file, the same each time it is served."""
    state = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    place = hashlib.sha256(str(classfile.resolve()).encode()).hexdigest()[:8]
    name = re.sub(r"[^\w.-]+", "-", classfile.stem).strip("-") or "class"
    return state / "kum-widget" / f"{name}-{place}"


def private_folder(folder: Path) -> Path:
    """``folder``, made if need be, readable by this user alone."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
    except OSError as exc:
        raise GameError(f"cannot make the referee's folder {folder}: {exc.strerror or exc}") from None
    return folder


def load_game(spec: str) -> Any:
    """``path/file.py:Class``: the game class in that file, registered by its name (warned:
    the file's code runs here)."""
    from .core.game import CardGame
    from .core.registry import register

    path, sep, name = spec.rpartition(":")
    if not sep or not path.endswith(".py") or not name.isidentifier():
        raise GameError(f"--game takes path/file.py:Class (a CardGame class in a Python file), got {shown(spec)}")
    file = Path(path)
    if not file.is_file():
        raise GameError(f"--game: there is no file {shown(path)}")
    print(f"kum-widget serve: --game runs the code in {file}: give it only a file you trust", file=sys.stderr, flush=True)
    module_name = "kum_widget_served_" + re.sub(r"\W", "_", file.stem)
    loaded = importlib.util.spec_from_file_location(module_name, file)
    if loaded is None or loaded.loader is None:
        raise GameError(f"--game: cannot load {shown(path)} as Python")
    module = importlib.util.module_from_spec(loaded)
    sys.modules[module_name] = module  # (dataclasses and pickling in the bots' worker look it up)
    try:
        loaded.loader.exec_module(module)
    except Exception as exc:
        raise GameError(f"--game: {file.name} failed to run: {type(exc).__name__}: {str(exc)[:200]}") from None
    cls = getattr(module, name, None)
    if not (isinstance(cls, type) and issubclass(cls, CardGame)):
        raise GameError(f"--game: {file.name} has no CardGame class named {name}")
    return register(cls)


def hand_in(table: Any, games: Path) -> list[str]:
    """Write ``table``'s finished game to ``games``: its full record (for ``kum.lab.load``)
    and its replay (the full table, every position), named by game, table, players and date;
    the files' names."""
    from .board.replay import replay_html
    from .core.files import hand_in_name
    from .referee.codes import write_private

    session = table.finished()
    when = datetime.datetime.now()
    record_name = hand_in_name(session, table=table.name, when=when)
    replay_name = hand_in_name(session, table=table.name, when=when, kind="replay")
    stem, n = record_name.removesuffix(".kum.txt"), 1
    while (games / record_name).exists() or (games / replay_name).exists():  # two tables' names may read alike: never over another
        n += 1
        record_name, replay_name = f"{stem}-{n}.kum.txt", f"{stem}-{n}.html"
    record = write_private(games / record_name, table.record())
    replay = write_private(games / replay_name, replay_html(session))
    return [record.name, replay.name]


if __name__ == "__main__":
    sys.exit(main(["serve", *sys.argv[1:]]))
