"""bench/referee.py at a tiny size, through its main function, so it cannot rot: a real referee
process and a separate process of raw websocket clients on 127.0.0.1, one table, a few acts in
each arrangement (every seat a person; two seats the referee's bots). It asserts that the figures
are printed, never what they are (the bench measures; a test does not time)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from types import ModuleType

import pytest
from _paths import ROOT


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_referee", ROOT / "bench" / "referee.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_referee_bench_prints_its_round_trips_with_and_without_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench().main(["--tables", "1", "--moves", "5", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for arrangement in ("people: 4 people at 1 table, no bot seats", "bots: 2 people at 1 table, bots at seats 1 (random), 3 (greedy)"):
        assert arrangement in out, out
    assert out.count("round trip, act to every client's new frame (ms): median ") == 2, out
    assert out.count("p95 < 50 ms: ") == 2 and "a bot's move" in out, out
    summary = json.loads(out.strip().splitlines()[-1])
    people, bots = summary["runs"]
    assert (people["acts"], people["bot_acts"], bots["acts"]) == (5, 0, 5) and bots["bot_acts"] >= 1, summary
    for run in (people, bots):
        assert all(math.isfinite(run[k]) and run[k] >= 0 for k in ("median_ms", "p95_ms", "p99_ms", "max_ms")), run
        assert run["median_ms"] <= run["p95_ms"] <= run["p99_ms"] <= run["max_ms"], run


def test_the_p95_interval_is_the_order_statistics_around_it() -> None:
    b = bench()
    xs = [float(i) for i in range(1, 1001)]  # the 95th percentile of 1..1000 is about 950
    low, high = b.quantile_interval(xs, 0.95)
    assert low is not None and high is not None and low < b.percentile(xs, 0.95) < high
    assert 930 <= low <= 950 <= high <= 970, (low, high)
    assert b.quantile_interval(xs[:10], 0.95)[1] is None  # 10 draws cannot bound a 95th percentile from above


def test_bad_bot_seats_are_refused_by_name() -> None:
    b = bench()
    assert b.parse_bots("1=random, 3=greedy") == {1: "random", 3: "greedy"}
    for bad, says in (("4=greedy", "seats 0 to 3"), ("one=greedy", "seat=bot pairs"), ("0=a,1=b,2=c,3=d", "at least one seat")):
        with pytest.raises(Exception, match=says):
            b.parse_bots(bad)
