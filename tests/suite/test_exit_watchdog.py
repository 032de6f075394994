"""A test run that has printed its verdict ends, even when something left behind would
hold the interpreter's exit forever (tests/conftest.py's exit watchdog)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from _paths import TESTS


@pytest.mark.parametrize("outcome, status", [("pass", 0), ("fail", 1)])
def test_a_run_stuck_at_exit_ends_with_its_verdict_and_says_what_was_stuck(tmp_path: Path, outcome: str, status: int) -> None:
    (tmp_path / "test_stuck.py").write_text(textwrap.dedent(f"""
        import threading, time

        def test_leaves_a_thread_that_never_ends():
            # a non-daemon thread: the interpreter's exit waits for it
            threading.Thread(target=time.sleep, args=(3600,), name="never-ends").start()
            assert {outcome == "pass"}
    """))
    env = {**os.environ, "KUM_EXIT_GRACE": "2", "PYTHONPATH": str(TESTS)}
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest", "test_stuck.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert time.monotonic() - started < 60
    assert out.returncode == status, out.stdout[-2000:] + out.stderr[-2000:]
    assert f"verdict (exit status {status})" in out.stderr
    assert "never-ends (not daemon" in out.stderr, out.stderr[-3000:]


def test_a_run_that_exits_by_itself_is_not_held(tmp_path: Path) -> None:
    (tmp_path / "test_fine.py").write_text("def test_fine():\n    assert True\n")
    env = {**os.environ, "KUM_EXIT_GRACE": "30", "PYTHONPATH": str(TESTS)}
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest", "test_fine.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0 and time.monotonic() - started < 25, out.stdout + out.stderr
    assert "verdict" not in out.stderr
