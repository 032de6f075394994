"""A real referee process for the referee's tests (``kum-widget serve`` on 127.0.0.1, port 0)."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["CLASS", "DEADLINE", "TEACHER", "referee"]

DEADLINE = 60.0  # seconds for the referee to start, or an exchange to finish, on a loaded machine
TEACHER = "teacher"

CLASS = """
[[table]]
name = "table 1"
game = "bust"
players = ["Ada", "Bo"]
seed = 3

[[table]]
name = "table 2"
game = "kings-under-mountains"
players = 4
"""


@contextmanager
def referee(tmp_path: Path, *more: str, classfile: str = CLASS) -> Iterator[tuple[str, dict[tuple[str, int | str], str], list[str]]]:
    """A referee process: its url, the codes from its file by (table, seat), and its output."""
    (tmp_path / "class.toml").write_text(classfile)
    codes = tmp_path / "private" / "codes.txt"
    codes.parent.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "kum_widget.serve", str(tmp_path / "class.toml"), "--port", "0",
                             "--codes", str(codes), *more], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out: list[str] = []
    try:
        assert proc.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout
        reader = threading.Thread(target=lambda: [lines.put(line) for line in iter(stdout.readline, "")], daemon=True)
        reader.start()
        deadline = time.monotonic() + DEADLINE
        while not (out and out[-1].startswith("serving at")):  # its start ends with the address
            try:
                out.append(lines.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"the referee did not start within {DEADLINE:.0f} s: {''.join(out)}") from None
        url = re.search(r"(wss?://\S+)", out[-1]).group(1)  # type: ignore[union-attr]
        given = {}
        for row in codes.read_text().splitlines():
            table, seat, code = row.split("\t")
            given[(table, TEACHER if seat == "teacher" else int(seat.split()[1]))] = code
        yield url, given, out
    finally:
        proc.terminate()
        proc.wait(timeout=DEADLINE)
        reader.join(DEADLINE)  # it ends at the output's end
        out.extend(lines.get() for _ in range(lines.qsize()))
        assert proc.returncode == 0, "".join(out)
        assert out[-1].rstrip() == "referee stopped", "".join(out)
