"""The other notebook hosts, for real: Voila serving a notebook as a page, and a marimo app
under ``marimo run``; each on a free localhost port, with its own config and runtime
folders, stopped (and its kernels with it) on exit. JupyterLab and Notebook 7 are
``labserver.LabServer``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from labserver import PORT_TRIES, START_S, free_port

__all__ = ["MarimoServer", "VoilaServer"]


class _Server:
    name = "server"

    def __init__(self) -> None:
        self.port = free_port()
        self.token = os.urandom(16).hex()
        self.tmp = Path(tempfile.mkdtemp(prefix=f"kum-{self.name}-"))
        self.log_path = self.tmp / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "JUPYTER_CONFIG_DIR": str(self.tmp / "config"),
            "JUPYTER_RUNTIME_DIR": str(self.tmp / "runtime"),
            "JUPYTER_DATA_DIR": str(self.tmp / "data"),
            "IPYTHONDIR": str(self.tmp / "ipython"),
            "XDG_CONFIG_HOME": str(self.tmp / "xdg-config"),
            "XDG_CACHE_HOME": str(self.tmp / "xdg-cache"),
            "XDG_STATE_HOME": str(self.tmp / "xdg-state"),
            "MARIMO_SKIP_UPDATE_CHECK": "1",
        }

    def start(self, cmd: Callable[[int], list[str]], ready: str, cwd: Path) -> None:
        """Start ``cmd(port)`` and wait until GET ``ready`` answers (any HTTP status); on
        another free port if the one found was taken first (a parallel worker's server)."""
        for attempt in range(PORT_TRIES):
            if attempt:
                self.port = free_port()
            if self._started(cmd(self.port), ready, cwd):
                return
        raise RuntimeError(f"{self.name} found no free port in {PORT_TRIES} tries: {self.log()[-3000:]}")

    def _started(self, cmd: list[str], ready: str, cwd: Path) -> bool:
        log = self.log_path.open("wb")
        # A process group of its own: the kernels it starts stop with it.
        self.proc = subprocess.Popen(cmd, env=self.env(), stdout=log, stderr=subprocess.STDOUT, cwd=cwd, start_new_session=True)
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if "already in use" in self.log():
                    return False
                raise RuntimeError(f"{self.name} exited: {self.log()[-3000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{ready}", timeout=10):
                    return True
            except urllib.error.HTTPError:
                return True  # it answers: it is up
            except OSError:
                time.sleep(0.3)  # (polling, within the deadline)
        log = self.log()[-3000:]
        self.__exit__(None, None, None)
        raise RuntimeError(f"{self.name} did not answer {ready} within {START_S} s: {log}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        shutil.rmtree(self.tmp, ignore_errors=True)


class VoilaServer(_Server):
    """``voila NB.ipynb``: the notebook as a page, code cells stripped, as a class sees it."""

    name = "voila"

    def __init__(self, notebook: dict[str, Any], file_name: str = "board.ipynb") -> None:
        super().__init__()
        self.notebook, self.file_name = notebook, file_name

    def __enter__(self) -> VoilaServer:
        root = self.tmp / "notebooks"
        root.mkdir()
        (root / self.file_name).write_text(json.dumps(self.notebook))
        def cmd(port: int) -> list[str]:
            return [
                sys.executable, "-m", "voila", self.file_name, "--no-browser", f"--port={port}",
                "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", f"--token={self.token}", "--show_tracebacks=True",
            ]
        # /voila/static/ answers without running the notebook (every GET of / starts a kernel).
        self.start(cmd, "/voila/static/", root)
        return self

    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"


class MarimoServer(_Server):
    """``marimo run APP.py``: an app, read-only, one kernel per browser session
    (``mode="edit"``: ``marimo edit APP.py``, the notebook with its code)."""

    name = "marimo"

    def __init__(self, app: Path, mode: str = "run") -> None:
        super().__init__()
        if mode not in ("run", "edit"):
            raise ValueError(f"mode is 'run' or 'edit', got {mode!r}")
        self.app, self.mode = app, mode

    def __enter__(self) -> MarimoServer:
        target = self.tmp / self.app.name
        shutil.copy(self.app, target)
        def cmd(port: int) -> list[str]:
            return [
                sys.executable, "-m", "marimo", "-q", self.mode, str(target), "--headless", "--host", "127.0.0.1",
                "--port", str(port), "--token-password", self.token,
            ]
        self.start(cmd, "/health", self.tmp)
        return self

    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?access_token={self.token}"
