"""A real referee process for the referee's tests (``kum-widget serve`` on 127.0.0.1, port 0)."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kum_widget.referee.delta import patched

__all__ = ["CLASS", "DEADLINE", "TEACHER", "RefereeProcess", "frame_after", "referee"]

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


def frame_after(held: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any] | None:
    """The frame a referee's ``frame`` or ``delta`` message makes of ``held`` (the last frame of
    its table on that connection); None for any other message. A delta on another frame fails."""
    if message.get("kind") == "frame":
        return dict(message["frame"])
    if message.get("kind") != "delta":
        return None
    assert held is not None and message["base"] == [held["state_id"], held["table_sequence"]], (message["base"], held and held["state_id"])
    return dict(patched(held, message["changes"]))


class RefereeProcess:
    """``kum-widget serve class.toml`` in ``tmp_path`` with its folder ``tmp_path/private``
    (``more``: more arguments), started: ``url``, ``codes`` by (table, seat) from its codes
    file, and its output so far in ``out``. ``stop()`` ends it as Ctrl+C does (and checks it
    said so); ``kill()`` with SIGKILL. Started again on the same ``tmp_path``, it finds its
    journal there."""

    def __init__(self, tmp_path: Path, *more: str, classfile: str = CLASS) -> None:
        (tmp_path / "class.toml").write_text(classfile)
        self.folder = tmp_path / "private"
        self.folder.mkdir(exist_ok=True)
        self.codes_file = self.folder / "codes.txt"
        self.proc = subprocess.Popen([sys.executable, "-m", "kum_widget.serve", str(tmp_path / "class.toml"), "--port", "0",
                                      "--folder", str(self.folder), *more], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.out: list[str] = []
        self._lines: queue.Queue[str] = queue.Queue()
        stdout = self.proc.stdout
        assert stdout is not None
        self._reader = threading.Thread(target=self._read, args=(stdout,), daemon=True)
        self._reader.start()
        try:
            self._started()
        except BaseException:
            self.kill()
            raise

    def _read(self, stdout: object) -> None:
        for line in iter(stdout.readline, ""):  # type: ignore[attr-defined]
            self._lines.put(line)
        self._lines.put("")  # its output ended

    def _started(self) -> None:
        deadline = time.monotonic() + DEADLINE
        while not (self.out and self.out[-1].startswith("serving at")):  # its start ends with the address
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the referee did not start within {DEADLINE:.0f} s: {''.join(self.out)}") from None
            if not line:
                raise AssertionError(f"the referee stopped as it started: {''.join(self.out)}")
            self.out.append(line)
        self.url = re.search(r"(wss?://\S+)", self.out[-1]).group(1)  # type: ignore[union-attr]
        self.codes: dict[tuple[str, int | str], str] = {}
        for row in self.codes_file.read_text().splitlines():
            table, seat, code = row.split("\t")
            self.codes[(table, TEACHER if seat == "teacher" else int(seat.split()[1]))] = code

    def _drain(self) -> None:
        self._reader.join(DEADLINE)  # it ends at the output's end
        while not self._lines.empty():
            line = self._lines.get()
            if line:
                self.out.append(line)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=DEADLINE)
        self._drain()
        assert self.proc.returncode == 0, "".join(self.out)
        assert self.out[-1].rstrip() == "referee stopped", "".join(self.out)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=DEADLINE)
        self._drain()

    @property
    def output_ended(self) -> bool:
        """Every process holding the referee's output is gone (its workers too)."""
        return not self._reader.is_alive()


@contextmanager
def referee(tmp_path: Path, *more: str, classfile: str = CLASS) -> Iterator[tuple[str, dict[tuple[str, int | str], str], list[str]]]:
    """A referee process: its url, the codes from its file by (table, seat), and its output."""
    process = RefereeProcess(tmp_path, *more, classfile=classfile)
    try:
        yield process.url, process.codes, process.out
    finally:
        if process.proc.poll() is None:
            process.stop()
        else:
            process._drain()
