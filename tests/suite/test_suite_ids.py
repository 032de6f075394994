"""No test is lost when the suite is regrouped: every test id collected before (tests/ids/
before.txt) is still collected, or moved, or explained in tests/ids/moved.txt."""

from __future__ import annotations

import subprocess
import sys

import pytest
from _paths import ROOT


@pytest.mark.soak  # collects the whole suite in a second pytest (about 35 s): an audit of the regrouping
def test_every_old_test_is_accounted_for() -> None:
    out = subprocess.run([sys.executable, "tests/ids/where.py"], cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    lost = [line for line in out.stdout.splitlines() if "UNACCOUNTED" in line]
    assert out.returncode == 0 and not lost, f"{out.stdout[-4000:]}\n{out.stderr[-2000:]}"
    assert "browser tests: " in out.stdout  # the counts of the kinds that must never be lost, printed
