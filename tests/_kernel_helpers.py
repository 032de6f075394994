"""Real Jupyter kernels for the tests: this environment's python3 kernel started by
jupyter_client's KernelManager (as a notebook server starts one), on loopback, each in a
folder of the test's, its cells run and read back through the kernel's own messages. Every
wait has a deadline."""

from __future__ import annotations

import os
import queue
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["DEADLINE", "Kernel", "kernels"]

DEADLINE = 120.0  # seconds for a kernel to start, or a short cell to run, on a loaded 2-core machine
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Kernel:
    """``Kernel(folder, name)``: a python3 kernel working in ``folder`` (its connection file
    there too), listening on 127.0.0.1. ``run(code)`` runs a cell and returns what it printed;
    ``start(code)`` and ``finish(cell)`` do it in two steps, so several kernels run at once."""

    def __init__(self, folder: Path, name: str) -> None:
        from jupyter_client.manager import KernelManager

        folder.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.manager = KernelManager(kernel_name="python3", connection_file=str(folder / f"{name}.json"), ip="127.0.0.1",
                                     transport="tcp")
        self.manager.start_kernel(cwd=str(folder), env={**os.environ, "IPYTHONDIR": str(folder / "ipython")})
        self.client: Any = self.manager.blocking_client()
        self.client.start_channels()

    def ready(self, timeout: float = DEADLINE) -> None:
        """Wait until the kernel answers (within ``timeout`` s)."""
        self.client.wait_for_ready(timeout=timeout)

    def start(self, code: str) -> str:
        """Send ``code`` as a cell; the id to ``finish`` it by."""
        return str(self.client.execute(code, store_history=False, allow_stdin=False))

    def finish(self, cell: str, timeout: float = DEADLINE) -> str:
        """What the cell ``cell`` printed, once it has run (within ``timeout`` s); an error in
        it fails the test with its traceback."""
        deadline = time.monotonic() + timeout
        printed: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: the cell did not finish within {timeout:.0f} s; it printed {''.join(printed)[-2000:]!r}")
            try:
                msg = self.client.get_iopub_msg(timeout=min(left, 5.0))
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != cell:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                printed.append(content["text"])
            elif kind == "error":
                trace = ANSI.sub("", "\n".join(content["traceback"]))
                raise AssertionError(f"{self.name}: {content['ename']}: {content['evalue']}\n{trace[-4000:]}\nit printed {''.join(printed)[-2000:]!r}")
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(printed)

    def run(self, code: str, timeout: float = DEADLINE) -> str:
        """Run ``code`` as a cell; what it printed."""
        return self.finish(self.start(code), timeout)

    def close(self) -> None:
        """Stop the kernel (its process ends, with whatever connections it held)."""
        try:
            self.client.stop_channels()
        finally:
            self.manager.shutdown_kernel(now=True)


@contextmanager
def kernels(folder: Path, count: int) -> Iterator[list[Kernel]]:
    """``count`` kernels, started together and each ready; stopped on the way out."""
    started: list[Kernel] = []
    try:
        for k in range(count):
            started.append(Kernel(folder, f"kernel-{k}"))
        for kernel in started:  # (they start at once: the later ones are ready, or nearly, by their turn)
            kernel.ready()
        yield started
    finally:
        for kernel in started:
            kernel.close()
