"""README's "Play as a class" runs as written (its blocks are named in ``tests/core/test_docs.py``'s
``RUN_BY``): its class file served by its ``kum-widget serve`` command and a seat played to the
end; its certificate made by its openssl command and served as ``wss://``, joined with the
context the README gives students and refused without it; its JupyterHub service entry is a
command the referee takes, on the address the README gives students. Two visible changes keep
the tests on loopback: the example's address 192.168.1.20 and ``--host 0.0.0.0`` become
127.0.0.1, and every referee gets ``--port 0`` and a folder of the test's."""

from __future__ import annotations

import random
import re
import shlex
import ssl
import subprocess
from pathlib import Path
from typing import Any

import pytest
from _paths import ROOT
from _referee_helpers import DEADLINE, RefereeProcess

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.serve import parser

EXAMPLE_ADDRESS = "192.168.1.20"


def section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("\n## Play as a class\n", 1)[1].split("\n## ", 1)[0]


def block(lang: str, first: str) -> str:
    """The section's ``lang`` block whose first line starts with ``first``."""
    found = [code for code in re.findall(rf"^```{lang}\n(.*?)^```$", section(), flags=re.M | re.S) if code.startswith(first)]
    assert len(found) == 1, f"{len(found)} {lang} blocks start with {first!r}"
    return found[0]


def commands(code: str) -> list[list[str]]:
    """A bash block's commands, each split as the shell would (continued lines joined, comments dropped)."""
    return [shlex.split(line, comments=True) for line in code.replace("\\\n", " ").splitlines() if shlex.split(line, comments=True)]


def on_loopback(args: list[str], where: Path) -> list[str]:
    """The README's arguments, kept on loopback (its example address and 0.0.0.0 become
    127.0.0.1), its certificate and key in ``where``."""
    out = []
    for arg in args:
        arg = "127.0.0.1" if arg == "0.0.0.0" else arg.replace(EXAMPLE_ADDRESS, "127.0.0.1")
        out.append(str(where / arg) if arg.endswith((".pem", ".key")) else arg)
    return out


def play_to_the_end(url: str, code: str, **join: Any) -> list[Any]:
    """The seat of ``code`` joined (``kum.join``'s options) and played as a script plays it: on
    each turn, a random legal action; the scores, the board closed."""
    board = kum.join(url, code, timeout=DEADLINE, **join)
    try:
        rng = random.Random(1)
        game = board.game
        while game.wait_turn():
            game.act(rng.choice(game.legal_actions()))
        return list(game.scores())
    finally:
        board.close()


def seat_code(referee: RefereeProcess, table: str, seat: int) -> str:
    return referee.codes[(table, seat)]


def test_the_class_file_is_served_by_the_serve_command(tmp_path: Path) -> None:
    (serve,) = commands(block("bash", "kum-widget serve"))
    assert serve[:3] == ["kum-widget", "serve", "class.toml"] and len(serve) == 3, serve
    referee = RefereeProcess(tmp_path, *serve[3:], classfile=block("toml", "[[table]]"))
    try:
        assert referee.url.startswith("ws://127.0.0.1:")
        assert {table for table, _ in referee.codes} == {"table 1", "table 2", "every table"}
        assert ("table 2", 1) not in referee.codes  # the bot's seat has no code
        assert len(play_to_the_end(referee.url, seat_code(referee, "table 2", 0))) == 2
    finally:
        referee.stop()
    games = sorted(p.name for p in (referee.folder / "games").iterdir())
    assert [g.split("_20")[0] for g in games] == ["bust_table-2_Eve-Bot"] * 2, games  # its record and its replay


def test_the_certificate_serves_wss_to_students_who_trust_it(tmp_path: Path) -> None:
    make, serve = commands(block("bash", "openssl req"))
    subprocess.run(on_loopback(make, tmp_path), check=True, capture_output=True, cwd=tmp_path, timeout=DEADLINE)
    assert serve[:3] == ["kum-widget", "serve", "class.toml"] and "--certfile" in serve, serve
    referee = RefereeProcess(tmp_path, *on_loopback(serve[3:], tmp_path), classfile=block("toml", "[[table]]"))
    try:
        assert referee.url.startswith("wss://127.0.0.1:")
        code = seat_code(referee, "table 2", 0)
        with pytest.raises(GameError, match="certificate verify failed"):  # a context that does not trust it
            kum.join(referee.url, code, ssl=ssl.create_default_context(), timeout=DEADLINE)
        trusted = ssl.create_default_context(cafile=str(tmp_path / "referee.pem"))  # as the README gives students
        assert len(play_to_the_end(referee.url, code, ssl=trusted)) == 2
    finally:
        referee.stop()


def test_the_jupyterhub_service_is_the_serve_command_on_the_address_students_join() -> None:
    """Not a hub (CI runs none): the entry JupyterHub would read, run with ``c`` as JupyterHub
    runs its config file, is the referee's command with options it takes."""
    from traitlets.config import Config

    code = block("py", "# jupyterhub_config.py")
    c = Config()
    exec(compile(code, "README.md", "exec"), {"c": c})
    (service,) = c.JupyterHub.services
    command = service["command"]
    assert Path(command[0]).name == "kum-widget" and command[1] == "serve", command
    args = parser().parse_args(command[1:])
    assert args.folder is not None  # a folder of its own: started again, it finds its journal
    assert f"`ws://{args.host}:{args.port}/`" in section()
