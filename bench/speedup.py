"""The speed issue's goals estimated through the speed-up: the code of a base revision (the
issue's baseline) and today's code measured alternately on this machine, and each goal read
as the issue's baseline figure times the speed-up.

    make bench-speedup                     # about 2 minutes
    .venv/bin/python bench/speedup.py [--base REV] [--rounds 3] [--seconds 2] [--decisions 20] [--slices 10]

Absolute figures move with the machine, and OpenSpiel's C++ (bench/peer.py) moves less
than our Python from one VM to another: on a VM that runs Python relatively slowly the
ratios fall too. The issue's own baseline figures, though, were measured on the code of
its day, so the same code measured here says how fast this machine is for exactly this
work: ``today's figure on the issue's machine ~ issue baseline x (today / base)``, each
measured here in the same minute. That assumes a speed-up carries from one machine to the
other, which holds better than a ratio to a C++ engine (the same kind of work on both
sides) but is still an estimate.

Base and today each run in a process of their own (importing its own package), kept for
the whole run, and take turns in short slices (``--slices`` a round: a fifth of a second
of a rate, two ISMCTS decisions), so that a VM whose speed drifts from one second to the
next moves both sides alike; the games and decisions go on from slice to slice. Each
round gives its own speed-up, and a goal is called met only when every round's estimate
meets it.

The ISMCTS rows time each day's default budget (1000 iterations then; the games' own,
steered budgets now): a smaller search is part of that speed-up, not only faster code.
They are what a player waits, and like the rates one process on one core: the bot grows
its trees one after the other.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from checkout import ROOT, importing, worktree  # bench/ is the script's folder

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


# -- the measuring child: slices of work, only what both revisions have ---------------------

def serve() -> None:
    """Answer the parent's requests, one JSON line each, until stdin closes: a slice of a
    rate (``{"key": k, "seconds": s}`` -> the games, actions and seconds it played) or of
    ISMCTS decisions (``{"key": k, "decisions": n}`` -> their times). The first line out
    names the work this revision has."""
    sys.stdout = sys.stderr  # a stray print in either revision must not break the answers' lines
    from workloads import Rate, bots_step, decision_times, rules_step, session_step  # bench/ is on the path

    import kum_widget as kum
    from kum_widget.bots import GreedyBot, RandomBot

    rates = {
        "greedy": Rate(bots_step(GreedyBot)),
        "random_bots": Rate(bots_step(RandomBot)),
        "api": Rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0))),
        "api_ids": Rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0), ids=True)),
    }
    thinking = {"ismcts_kum": decision_times(lambda i: kum.Game(2, seed=i), 9)}
    try:
        from kum_widget.games.court import CourtOfTheThreeClans
    except ModuleNotFoundError as exc:  # a base from before the court (a broken import in it still raises)
        if exc.name != "kum_widget.games.court":
            raise
    else:
        rates["court_rules"] = Rate(rules_step(CourtOfTheThreeClans(), 1, random.Random(0)))
        thinking["ismcts_court"] = decision_times(lambda i: kum.Court(seed=i), 2)
    for gen in thinking.values():
        next(gen)  # warm-up, untimed: the first deal, the first search
    answer(sorted([*rates, *thinking]))
    for line in sys.stdin:
        ask = json.loads(line)
        key = ask["key"]
        if key in rates:
            r = rates[key]
            games, actions, seconds = r.games, r.actions, r.seconds
            r.run(ask["seconds"])
            out: dict[str, Any] = {"games": r.games - games, "actions": r.actions - actions, "seconds": r.seconds - seconds}
        else:
            out = {"times": [next(thinking[key]) for _ in range(ask["decisions"])]}
        answer(out)


_PROTOCOL = sys.stdout  # the answers; anything else either revision prints goes to stderr


def answer(value: Any) -> None:
    _PROTOCOL.write(json.dumps(value) + "\n")
    _PROTOCOL.flush()


# -- the parent: check the base out, alternate the two, read the goals ---------------------------

class Side:
    """One revision's measuring child, importing the ``kum_widget`` under ``root``."""

    def __init__(self, root: Path) -> None:
        env = importing(root)
        self.root = root
        # stderr is ours (not a pipe that nobody reads while the child runs, which a chatty
        # child would fill and block on): its warnings and a traceback show as they come
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve"], env=env, cwd=root,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.keys: list[str] = self._read()

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            raise SystemExit(f"measuring {self.root} failed (exit status {self.proc.returncode}; its error is above)")
        return json.loads(line)

    def ask(self, **request: Any) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def measure_round(sides: dict[str, Side], seconds: float, decisions: int, slices: int, first: int) -> dict[str, dict[str, float]]:
    """One round: every figure of each side, the sides taking turns slice by slice (the
    first to go alternating, from ``first``: 0 or 1), so drift within the round falls on
    both alike. The ``decisions`` are spread over the slices as evenly as they go."""
    out: dict[str, dict[str, float]] = {name: {} for name in sides}
    keys = sorted({k for side in sides.values() for k in side.keys})
    for key in keys:
        have = [name for name in sides if key in sides[name].keys]
        totals = {name: [0, 0, 0.0] for name in have}
        times: dict[str, list[float]] = {name: [] for name in have}
        for i in range(slices):
            share = decisions * (i + 1) // slices - decisions * i // slices
            for name in have if (i + first) % 2 == 0 else have[::-1]:
                if key.startswith("ismcts"):
                    if share:
                        times[name] += sides[name].ask(key=key, decisions=share)["times"]
                else:
                    got = sides[name].ask(key=key, seconds=seconds / slices)
                    t = totals[name]
                    t[0], t[1], t[2] = t[0] + got["games"], t[1] + got["actions"], t[2] + got["seconds"]
        for name in have:
            if key.startswith("ismcts"):
                out[name][key] = statistics.median(times[name])
            else:
                games, actions, secs = totals[name]
                out[name][key] = (actions if key.startswith("api") else games) / secs
    return out


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
    ap.add_argument("--slices", type=int, default=10, help="turns each side takes per figure per round")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the child
    args = ap.parse_args()
    if args.serve:
        serve()
        return
    for name in ("rounds", "decisions", "slices"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if not args.seconds > 0:
        ap.error(f"--seconds must be more than 0, got {args.seconds}")
    wall = time.perf_counter()
    with worktree(args.base, prefix="kum-speedup-") as base:
        sides: dict[str, Side] = {}
        try:
            sides["base"] = Side(base)
            sides["today"] = Side(ROOT)
            runs: dict[str, list[dict[str, float]]] = {"base": [], "today": []}
            for r in range(args.rounds):
                got = measure_round(sides, args.seconds, args.decisions, args.slices, r % 2)
                for name in runs:
                    runs[name].append(got[name])
                print(f"  round {r + 1} measured", file=sys.stderr, flush=True)
        finally:
            for side in sides.values():
                side.close()
    print(f"speed-up against {args.base} (the issue's code), {args.rounds} rounds of {args.slices} alternating slices: medians, "
          f"and the speed-up's spread over the rounds; Python {sys.version.split()[0]}; one process on one core each side")
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
