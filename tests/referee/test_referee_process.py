"""``kum-widget serve`` as a real process on 127.0.0.1, port 0: it prints its address and the
codes, writes them to a file only its user can read, referees a whole game played by two
websocket clients (each choosing from its own frames alone, no frame holding the other seat's
secret), serves wss:// with a certificate made here, and stops cleanly on SIGTERM; a bad class
file stops it with a sentence naming what is wrong."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import ssl
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _conformance_helpers import Holdings
from _referee_helpers import DEADLINE, frame_after, referee
from websockets.asyncio.client import connect

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.core.registry import game_class
from kum_widget.core.session import new_session


async def play_bust(url: str, codes: dict[tuple[str, int | str], str], **connect_args: Any) -> int:
    """Ada and Bo play table 1 to the end, each from its own frames; the number of actions."""
    sockets = []
    for seat in (0, 1):
        ws = await connect(url, proxy=None, **connect_args)
        await ws.send(json.dumps({"kind": "hello", "code": codes[("table 1", seat)], "game": "bust", "version": kum.__version__}))
        sockets.append(ws)
    frames: dict[int, dict[str, Any]] = {}
    reference = new_session(game_class("bust")(), ["Ada", "Bo"], seed=3)  # the same deal, to know the secrets
    rng = random.Random(1)
    actions = 0

    async def latest(seat: int, newer_than: int) -> dict[str, Any]:
        while seat not in frames or frames[seat]["state_id"] <= newer_than:
            async with asyncio.timeout(DEADLINE):
                message = json.loads(await sockets[seat].recv())
            frame = frame_after(frames.get(seat), message)
            if frame is not None:
                frames[seat] = frame
            else:
                assert message["kind"] == "answer" and message["ok"], message
        return frames[seat]

    state = -1
    while True:
        seen = [await latest(seat, state) for seat in (0, 1)]
        state = seen[0]["state_id"]
        for seat, frame in enumerate(seen):
            held = Holdings({**frame, "actions": [{k: v for k, v in a.items() if k != "id"} for a in frame["actions"]]})
            other = 1 - seat
            for secret in reference.game.secrets(reference.state, other):
                assert not held.hold(secret), f"seat {seat}'s frame holds {secret!r}"
        if seen[0]["over"]:
            break
        seat = seen[0]["current"]
        action = rng.choice([a["id"] for a in seen[seat]["actions"]])
        reference.apply(action)
        await sockets[seat].send(json.dumps({"kind": "act", "action_id": action, "state_id": state}))
        actions += 1
    for ws in sockets:
        await ws.close()
    return actions


def test_the_referee_process_serves_a_whole_game_and_keeps_its_codes_private(tmp_path: Path) -> None:
    with referee(tmp_path) as (url, codes, out):
        assert url.startswith("ws://127.0.0.1:") and len(codes) == 2 + 4 + 1
        path = tmp_path / "private" / "codes.txt"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.stat().st_uid == os.getuid()
        assert all(re.fullmatch(r"[0-9a-f]{32}", c) for c in codes.values())
        assert asyncio.run(play_bust(url, codes)) > 2
    printed = "".join(out)
    assert "seed" not in printed.lower()  # the deal's seed stays in the referee


def test_the_referee_serves_wss_with_a_certificate(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    with referee(tmp_path, "--certfile", str(cert), "--keyfile", str(key)) as (url, codes, _):
        assert url.startswith("wss://127.0.0.1:")
        trusted = ssl.create_default_context(cafile=str(cert))
        assert asyncio.run(play_bust(url, codes, ssl=trusted)) > 2
        with pytest.raises(ssl.SSLCertVerificationError):  # a client that does not trust it is not fooled
            asyncio.run(play_bust(url, codes, ssl=ssl.create_default_context()))
        with pytest.raises(GameError, match="certificate verify failed"):  # nor a seat's board, told why
            kum.join(url, codes[("table 1", 0)])  # (no ssl=: the system's trust, which does not hold this one)
        with pytest.raises(GameError, match=r"no referee answered at ws://.* \(a referee serving wss:// is reached with wss://\)"):
            kum.join(url.replace("wss://", "ws://"), codes[("table 1", 0)])
        board = kum.join(url, codes[("table 1", 0)], ssl=trusted)
        assert board.game.seat == 0
        board.close()


@pytest.mark.parametrize(("classfile", "says"), [
    ("[[table]]\ngame = 'no-such-game'\n", "no-such-game"),
    ("[[table]]\nname = 't'\ngame = 'bust'\nplayers = 9\n", "'t': Bust is for"),
    ("[[table]]\ngame = 'bust'\nbots = {1 = 'clever'}\n", "a bot at a table is one of random, greedy, ismcts"),
    ("[[table]]\ngame = 'bust'\nbots = {one = 'greedy'}\n", "bots map seat numbers to bots' names"),
    ("[[table]]\ngame = 'bust'\nbots = {'\u00b2' = 'greedy'}\n", "bots map seat numbers to bots' names"),  # a digit, not ASCII
    ("[[table]]\ngame = 'bust'\ncolour = 'red'\n", "no key colour"),
    ("table = 3\n", "a class file is a list of [[table]] entries"),
    ("[[table]\n", "is not TOML"),
    ("[[table]]\nname = 'a'\ngame = 'bust'\n[[table]]\nname = 'a'\ngame = 'bust'\n", "two tables have this name"),
])
def test_a_bad_class_file_stops_the_referee_with_a_sentence(tmp_path: Path, classfile: str, says: str) -> None:
    (tmp_path / "class.toml").write_text(classfile)
    done = subprocess.run([sys.executable, "-m", "kum_widget.serve", str(tmp_path / "class.toml"), "--port", "0",
                           "--codes", str(tmp_path / "codes.txt")], capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "codes.txt").exists()


def test_the_console_script_names_its_command() -> None:
    done = subprocess.run([str(Path(sys.executable).with_name("kum-widget")), "serve", "--help"], capture_output=True, text=True,
                          timeout=DEADLINE)
    assert done.returncode == 0 and "referee" in done.stdout and "--certfile" in done.stdout
