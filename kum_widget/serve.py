"""``kum-widget serve CLASS.toml`` (also ``python -m kum_widget.serve CLASS.toml``): the referee
of a class, every table of the class file (``referee.classfile``) on one asyncio process.

It listens on 127.0.0.1 (``--host 0.0.0.0`` for every interface, to reach the students'
laptops), prints the address and one code per seat and one for the teacher, and writes them to
a file only its user can read (``--codes``, by default beside the class file). ``--certfile``
(and ``--keyfile``) serve ``wss://``. Ctrl+C (or SIGTERM) stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import ssl
import sys
from pathlib import Path

from .core.errors import GameError

__all__ = ["main"]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="kum-widget", description="kum_widget's commands")
    commands = top.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="referee a class's tables over websockets", description=__doc__)
    serve.add_argument("classfile", type=Path, help="the class file: its [[table]] entries (TOML)")
    serve.add_argument("--host", default="127.0.0.1", help="the interface to listen on (default 127.0.0.1; 0.0.0.0: every one)")
    serve.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any free one)")
    serve.add_argument("--codes", type=Path, help="where the codes are written (default: CLASSFILE's name + .codes.txt, beside it)")
    serve.add_argument("--certfile", type=Path, help="a TLS certificate (PEM): serve wss:// instead of ws://")
    serve.add_argument("--keyfile", type=Path, help="its private key (PEM), when not in the certificate file")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return asyncio.run(serve(args))
    except GameError as exc:
        print(f"kum-widget serve: {exc}", file=sys.stderr)
        return 2


async def serve(args: argparse.Namespace) -> int:
    from . import __version__
    from .referee.classfile import read_class
    from .referee.codes import TEACHER, Codes, write_private
    from .referee.server import Referee

    tables = read_class(args.classfile)
    context = None
    if args.certfile is not None:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as exc:
            raise GameError(f"cannot load the certificate {args.certfile}: {exc}") from None
    codes = Codes()
    lines = []
    for table in tables:
        for seat, player in enumerate(table.players):
            if seat in table.bots:
                continue  # the referee's bot plays it
            lines.append(f"{table.name}\tseat {seat} ({player})\t{codes.new(table.name, seat)}")
    lines.append(f"every table\tteacher\t{codes.new(None, TEACHER)}")
    path = args.codes or args.classfile.with_name(args.classfile.name + ".codes.txt")
    write_private(path, "\n".join(lines) + "\n")
    referee = Referee({t.name: t for t in tables}, codes, version=__version__)
    try:
        server = await referee.serve(args.host, args.port, ssl=context)
    except OSError as exc:
        raise GameError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    port = server.sockets[0].getsockname()[1]
    scheme = "wss" if context else "ws"
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"kum-widget referee {__version__}: {len(tables)} table{'s' if len(tables) != 1 else ''}; codes in {path}", flush=True)
    for line in lines:
        print("  " + line.replace("\t", "  "), flush=True)
    print(f"serving at {scheme}://{host}:{port}/ (Ctrl+C stops it)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    server.close()
    await server.wait_closed()
    referee.close()
    print("referee stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(["serve", *sys.argv[1:]]))
