"""The lab in a browser's Python (Pyodide, the course site of `make site`): in process only,
and without pandas (the site offline) a run says so before playing; playing one game needs no
pandas. Pyodide is stood in for by its sys.platform here; tests/site plays the site itself."""

from __future__ import annotations

import sys

import pandas  # imported before sys.platform is Pyodide's (its import would not be a plain one then)
import pytest

import kum_widget as kum
from kum_widget.core import GameError


@pytest.fixture()
def in_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    assert pandas.__name__ == "pandas"
    monkeypatch.setattr(sys, "platform", "emscripten")


@pytest.mark.parametrize("executor", [2, "dask"])
def test_other_executors_refuse_saying_why(in_browser: None, executor: object) -> None:
    with pytest.raises(GameError, match=r"simulate: in a browser \(Pyodide\) the lab plays in this process only.*executor=None"):
        kum.simulate(3, executor=executor, progress=False)


def test_worker_pool_refuses_saying_why(in_browser: None) -> None:
    with pytest.raises(GameError, match=r"worker_pool: in a browser \(Pyodide\) the lab plays in this process only"):
        kum.lab.worker_pool(2)


def test_in_process_runs(in_browser: None) -> None:
    assert len(kum.simulate(3, progress=False)) == 3


def test_without_pandas_a_run_says_where_pandas_comes_from(in_browser: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas fails, as in the site offline
    with pytest.raises(GameError, match=r"simulate: the lab's tables need pandas.*Pyodide's own distribution online"):
        kum.simulate(3, progress=False)
    assert kum.lab.play_game(0, seed=1).is_over  # one game, no table: no pandas needed
