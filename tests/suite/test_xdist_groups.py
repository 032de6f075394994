"""``--dist loadgroup`` keeps each ``xdist_group`` on one worker (tests/conftest.py,
``_GroupsNamed``): what makes a notebook run once for all its checks, and a module's
fixture be built once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _paths import TESTS

SUITE = r'''
import os
import pytest

GROUPS = [pytest.param(i, marks=pytest.mark.xdist_group(f"notebook {i}.ipynb")) for i in range(4)]


@pytest.mark.parametrize("i", GROUPS)
@pytest.mark.parametrize("check", ["runs", "warns", "private"])
def test_where(i, check, request):
    with open(os.environ["KUM_RAN"], "a") as ran:  # (a worker's output is not shown)
        ran.write(f"{i}\t{os.environ['PYTEST_XDIST_WORKER']}\t{request.node.nodeid}\n")
'''


def test_each_group_is_named_in_the_ids_and_runs_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_groups.py").write_text(SUITE)
    env = {**os.environ, "PYTHONPATH": str(TESTS), "KUM_RAN": str(tmp_path / "ran.txt")}
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "xdist_groups",
                          "-n", "2", "--dist", "loadgroup", "-q", "test_groups.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    ran = [line.split("\t") for line in (tmp_path / "ran.txt").read_text().splitlines()]
    assert len(ran) == 12
    # The id carries the group, as pytest-xdist's scheduler reads it (without the plug-in it does not)...
    assert all(nodeid.endswith(f"]@notebook {i}.ipynb") for i, _, nodeid in ran), ran
    # ... so each group's tests ran on one worker.
    workers: dict[str, set[str]] = {}
    for i, worker, _ in ran:
        workers.setdefault(i, set()).add(worker)
    assert all(len(w) == 1 for w in workers.values()), workers
