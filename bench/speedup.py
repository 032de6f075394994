"""The speed issue's goals estimated through the speed-up: the code of a base revision (the
issue's baseline) and today's code measured alternately on this machine, and each goal read
as the issue's baseline figure times the speed-up.

    make bench-speedup                     # about 2 minutes
    .venv/bin/python bench/speedup.py [--base REV] [--rounds 3] [--seconds 2] [--decisions 20]

Absolute figures move with the machine, and OpenSpiel's C++ (bench/peer.py) moves less
than our Python from one VM to another: on a VM that runs Python relatively slowly the
ratios fall too. The issue's own baseline figures, though, were measured on the code of
its day, so the same code measured here says how fast this machine is for exactly this
work: ``today's figure on the issue's machine ~ issue baseline x (today / base)``, each
measured here in the same minute. That assumes a speed-up carries from one machine to the
other, which holds better than a ratio to a C++ engine (the same kind of work on both
sides) but is still an estimate. Rounds alternate base and today (each in a process of
its own, importing its own package) so that a drifting VM moves both alike; each round
gives its own speed-up, and a goal is called met only when every round's estimate meets it.

The ISMCTS rows time each day's default budget (1000 iterations then; the games' own,
steered budgets now): a smaller search is part of that speed-up, not only faster code.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASE = "d1fe168"  # where the speed issue was filed (issue 10 landed; before the court): the code it measured
# The issue's baseline figures (its "Why"), the goals (its "Goals"), and which way is better.
Baseline = float | tuple[float, float] | None  # a figure, or the range the issue gave
FIGURES: dict[str, tuple[str, Baseline, float | None, bool]] = {  # key: (label, the issue's baseline, goal, higher is better)
    "greedy": ("greedy vs greedy, KUM 2p, games/s", 21.0, 100.0, True),
    "random_bots": ("RandomBots through bot_move, games/s", 62.0, 250.0, True),
    "api": ("public API random play, actions/s", 87_000.0, 150_000.0, True),
    "api_ids": ("  the same through ids, actions/s", None, None, True),
    "ismcts_kum": ("ISMCTS default budget, KUM, s/decision", (0.24, 0.39), 0.1, False),  # the issue gave a range
    "ismcts_court": ("ISMCTS default budget, court, s/decision", None, 0.1, False),
    "court_rules": ("court random games/s on the rules", None, 1000.0, True),
}
# A figure the base cannot give (it had no court) borrows the machine's factor from the
# nearest kind of work it can: this machine's base against the issue's baseline.
LIKE = {"ismcts_court": "ismcts_kum", "court_rules": "api"}


# -- the measuring child: only what both revisions have --------------------------------------

def measure(seconds: float, decisions: int) -> dict[str, float]:
    from workloads import Rate, bots_step, decision_seconds, rules_step, session_step  # bench/ is on the path

    import kum_widget as kum
    from kum_widget.bots import GreedyBot, RandomBot

    def rate(step: Any) -> Rate:
        r = Rate(step)
        r.run(seconds)
        return r

    out = {
        "greedy": rate(bots_step(GreedyBot)).games_per_s,
        "random_bots": rate(bots_step(RandomBot)).games_per_s,
        "api": rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0))).actions_per_s,
        "api_ids": rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0), ids=True)).actions_per_s,
        "ismcts_kum": statistics.median(decision_seconds(lambda i: kum.Game(2, seed=i), decisions, 9)),
    }
    try:
        from kum_widget.games.court import CourtOfTheThreeClans
    except ModuleNotFoundError as exc:  # a base from before the court (a broken import in it still raises)
        if exc.name != "kum_widget.games.court":
            raise
        return out
    out["court_rules"] = rate(rules_step(CourtOfTheThreeClans(), 1, random.Random(0))).games_per_s
    out["ismcts_court"] = statistics.median(decision_seconds(lambda i: kum.Court(seed=i), decisions, 2))
    return out


# -- the parent: unpack the base, alternate the two, read the goals ----------------------------

def unpack(rev: str, into: Path) -> Path:
    """``rev``'s kum_widget/ (a git archive, no work tree touched)."""
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}^{{commit}}"], capture_output=True)
    if known.returncode:
        raise SystemExit(f"the base revision {rev} is not in this clone (a shallow one?): `git fetch --unshallow`, or --base REV")
    archive = into / "base.tar"
    with archive.open("wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "kum_widget"], stdout=f, check=True)
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4+: refuse links and paths out of the folder
            tar.extractall(into / "base", filter="data")
        else:  # our own repository's archive
            tar.extractall(into / "base")
    return into / "base"


def run(root: Path, seconds: float, decisions: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, __file__, "--measure", "--seconds", str(seconds), "--decisions", str(decisions)]
    done = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"measuring {root} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def show(x: float | tuple[float, float]) -> str:
    if isinstance(x, tuple):
        return f"{show(x[0])}-{show(x[1])}"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def verdict(estimates: list[float], goal: float, higher: bool) -> str:
    """Met only when every estimate (each round's speed-up, each end of a baseline range)
    meets the goal; missed when none does; else not settled by this run."""
    ok = [x >= goal if higher else x <= goal for x in estimates]
    return "met" if all(ok) else "missed" if not any(ok) else "not settled"


def ends(issue: float | tuple[float, float]) -> tuple[float, float]:
    return issue if isinstance(issue, tuple) else (issue, issue)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=BASE, help=f"the base revision (default {BASE})")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0, help="per rate, per round")
    ap.add_argument("--decisions", type=int, default=20, help="ISMCTS decisions timed per game, per round")
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the child
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.seconds, args.decisions)))
        return
    wall = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        base = unpack(args.base, Path(tmp))
        runs: dict[str, list[dict[str, float]]] = {"base": [], "today": []}
        for r in range(args.rounds):
            for name, root in (("base", base), ("today", ROOT)) if r % 2 == 0 else (("today", ROOT), ("base", base)):
                runs[name].append(run(root, args.seconds, args.decisions))
                print(f"  round {r + 1}: {name} measured", file=sys.stderr, flush=True)
    print(f"speed-up against {args.base} (the issue's code), {args.rounds} alternating rounds: medians, and the "
          f"speed-up's spread over the rounds; Python {sys.version.split()[0]}; one core")
    print(f"{'figure':<42} {'base':>9} {'today':>9} {'x (rounds)':>19} {'issue base':>12} {'-> there':>13} {'goal':>8}  verdict")
    rounds = range(args.rounds)
    for key, (label, issue, goal, higher) in FIGURES.items():
        today = [runs["today"][r][key] for r in rounds]
        t = statistics.median(today)
        if key not in runs["base"][0]:  # the base had no court: today's figure, moved by a like figure's machine factor
            like = LIKE[key]
            issue_like = FIGURES[like][1]
            assert issue_like is not None and goal is not None
            # today's here times the issue's machine against this one for that work (each round, each end of a range)
            estimates = [today[r] * e / runs["base"][r][like] for r in rounds for e in ends(issue_like)]
            print(f"{label:<42} {'-':>9} {show(t):>9} {'':>19} {'(' + like + ')':>12} "
                  f"{show((min(estimates), max(estimates))):>13} {show(goal):>8}  {verdict(estimates, goal, higher)}")
            continue
        base = [runs["base"][r][key] for r in rounds]
        speedups = [tr / br if higher else br / tr for tr, br in zip(today, base, strict=True)]
        x = statistics.median(speedups)
        spread = f"{x:.2f} ({min(speedups):.2f}-{max(speedups):.2f})"
        there, said = "", ""
        if issue is not None and goal is not None:
            estimates = [e * sp if higher else e / sp for e in ends(issue) for sp in speedups]
            at_median = [e * x if higher else e / x for e in ends(issue)]
            there = show((min(at_median), max(at_median)) if isinstance(issue, tuple) else at_median[0])
            said = verdict(estimates, goal, higher)
        elif goal is not None:
            said = f"here: {verdict(today, goal, higher)}"
        print(f"{label:<42} {show(statistics.median(base)):>9} {show(t):>9} {spread:>19} {'' if issue is None else show(issue):>12} "
              f"{there:>13} {'' if goal is None else show(goal):>8}  {said}")
    print("('-> there': the issue's baseline times the median speed-up, an estimate of today's code on the issue's machine; a\n"
          " figure the base lacks is today's here times the issue's machine factor for the work in brackets. 'met' only when\n"
          " every round's speed-up, at both ends of a baseline range, meets the goal; 'not settled' when some do and some do not.\n"
          f" The ISMCTS rows compare each day's default budget: 1000 iterations then, the games' own budgets now) wall {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
