"""Peer benchmark: our engine beside OpenSpiel's C++ crazy_eights, in one process.

    make bench-peer                   # syncs the `bench` dependency group (open_spiel), runs this
    .venv/bin/python bench/peer.py [--quick] [--seconds 4] [--rounds 3] [--decisions 20] [--json]

OpenSpiel's random crazy_eights games a second measure the machine; every figure of ours
is also given as a ratio to its OpenSpiel counterpart, which moves much less than the
absolute figure from one machine (or one busy hour) to another. The rates are measured in
interleaved rounds (OpenSpiel, then each of ours, then again) so that a drifting VM moves
both sides alike; the ISMCTS decisions take turns with short runs of OpenSpiel, which
give their rows a reference of their own from the same seconds. Everything runs in one
process on one core: ISMCTS is timed as a player waits for it, the default bot growing
its trees one after the other. Random choices are seeded, so runs replay.
Needs the bench group: `uv sync --locked --all-extras --group bench` (make test never installs it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workloads import Rate, Step, bots_step, decision_times, rules_step, session_step  # bench/ is on the path

import kum_widget as kum
from kum_widget.bots import GreedyBot, ISMCTSBot, RandomBot
from kum_widget.games.court import CourtOfTheThreeClans

try:
    import pyspiel
except ImportError:  # the bench group is not installed by `uv sync` alone
    sys.exit("bench/peer.py needs OpenSpiel: `make bench-peer`, or `uv sync --locked --all-extras --group bench`")

def sample(outcomes: list[tuple[int, float]], r: float) -> int:
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]  # rounding left r >= 0


def openspiel_step(game: Any, rng: random.Random) -> Step:
    """A random crazy_eights playout; chance nodes sampled from chance_outcomes(), not counted."""

    def step(i: int) -> int:
        s = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample(s.chance_outcomes(), rng.random()))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                n += 1
        return n

    return step


def example_step(game: Any, seed: int) -> Step:
    """OpenSpiel's own example loop (``open_spiel/python/examples/example.py`` without its
    printing): chance outcomes by ``np.random.choice(actions, p=probabilities)``, moves by
    ``random.choice(state.legal_actions(player))``. Numpy's sampling makes it some 3.5x
    slower than :func:`openspiel_step`: a reference measured "the usual way" reads far
    fewer games a second, which is why a games/s figure is only comparable to one from
    the same loop."""
    import numpy as np  # open_spiel's own dependency

    draw = np.random.RandomState(seed).choice  # what np.random.choice runs, seeded
    rng = random.Random(seed)

    def step(i: int) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action_list, prob_list = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(draw(action_list, p=prob_list))
            else:
                state.apply_action(rng.choice(state.legal_actions(state.current_player())))
                n += 1
        return n

    return step


def budget(game: type) -> str:
    """The ISMCTS settings a game is searched with (its hints, else the bot's defaults)."""
    s = ISMCTSBot().settings(game())
    return f"{s['iterations']}/{s['prior']:g}/{s['exploration']:g}/{s['breadth'] or 'all'}/{s['trees']}"


def show(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a few seconds: --seconds 0.3 --rounds 1 --decisions 3")
    ap.add_argument("--seconds", type=float, default=4.0, help="time per rate, split over the rounds")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of all the rates")
    ap.add_argument("--decisions", type=int, default=20, help="ISMCTS decisions timed, on each of the two games")
    ap.add_argument("--peer", default="crazy_eights", help="the OpenSpiel game string, e.g. crazy_eights(players=2)")
    ap.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.rounds, args.decisions = 0.3, 1, 3
    wall = time.perf_counter()
    peer = pyspiel.load_game(args.peer)
    rates = {
        "openspiel": Rate(openspiel_step(peer, random.Random(0))),
        "openspiel_example": Rate(example_step(peer, 0)),
        "greedy": Rate(bots_step(GreedyBot)),
        "random_bots": Rate(bots_step(RandomBot)),
        "kum_api": Rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0))),
        "kum_api_ids": Rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0), ids=True)),
        "kum_core": Rate(rules_step(kum.KingsUnderMountains(), 2, random.Random(0))),
        "court_rules": Rate(rules_step(CourtOfTheThreeClans(), 1, random.Random(0))),
        "court_api": Rate(session_step(lambda i: kum.Court(seed=i), random.Random(0))),
    }
    for _ in range(args.rounds):
        for rate in rates.values():
            rate.run(args.seconds / args.rounds)
    # ISMCTS decisions taking turns with short runs of OpenSpiel, which gives these rows their
    # own reference from the same seconds (a VM that drifts between the rates and here would
    # move the ratio)
    near = Rate(openspiel_step(peer, random.Random(1)))
    thinking = {"kum": decision_times(lambda i: kum.Game(2, seed=i), 9), "court": decision_times(lambda i: kum.Court(seed=i), 2)}
    times: dict[str, list[float]] = {key: [] for key in thinking}
    for _ in range(args.decisions):
        for key, decisions in thinking.items():
            near.run(0.1)
            times[key].append(next(decisions))
    kum_times, court_times = times["kum"], times["court"]

    os_ = rates["openspiel"]
    ref_g, ref_a = os_.games_per_s, os_.actions_per_s
    near_g = near.games_per_s  # the reference of the ISMCTS rows
    kum_s, court_s = statistics.median(kum_times), statistics.median(court_times)
    # (figure, ours, OpenSpiel's counterpart, actions per game or spread); ratio = ours / OpenSpiel
    rows: list[tuple[str, float | None, float, str]] = [
        ("1  crazy_eights random, games/s (the machine)", None, ref_g, f"{os_.per_game:.0f}"),
        ("   crazy_eights random, decisions/s", None, ref_a, ""),
        ("   the same, example.py's loop, games/s", None, rates["openspiel_example"].games_per_s, ""),
        ("2  KUM 2p, 2 GreedyBots (bot_move), games/s", rates["greedy"].games_per_s, ref_g, f"{rates['greedy'].per_game:.0f}"),
        ("3  KUM 2p, 2 RandomBots (bot_move), games/s", rates["random_bots"].games_per_s, ref_g, f"{rates['random_bots'].per_game:.0f}"),
        ("4  KUM Game.apply random, actions/s", rates["kum_api"].actions_per_s, ref_a, f"{rates['kum_api'].per_game:.0f}"),
        ("   KUM Game.apply(id) random, actions/s", rates["kum_api_ids"].actions_per_s, ref_a, f"{rates['kum_api_ids'].per_game:.0f}"),
        ("   KUM core rules.apply(id) random, actions/s", rates["kum_core"].actions_per_s, ref_a, f"{rates['kum_core'].per_game:.0f}"),
        ("   crazy_eights games/s among the ISMCTS rows", None, near_g, ""),
        ("5  ISMCTS s/decision, KUM 2p (vs s/OS game)", kum_s, 1 / near_g, f"{min(kum_times):.2f}-{max(kum_times):.2f}"),
        ("   ISMCTS s/decision, court (vs s/OS game)", court_s, 1 / near_g, f"{min(court_times):.2f}-{max(court_times):.2f}"),
        ("6  court rules random, games/s", rates["court_rules"].games_per_s, ref_g, f"{rates['court_rules'].per_game:.0f}"),
        ("   kum.Court API random, games/s", rates["court_api"].games_per_s, ref_g, f"{rates['court_api'].per_game:.0f}"),
    ]
    print(
        f"peer benchmark: Python {sys.version.split()[0]}, open_spiel {version('open_spiel')}, {peer} "
        f"({peer.num_players()} players); {args.rounds} round(s) x {args.seconds / args.rounds:.2g} s per rate, "
        f"ISMCTS median of {args.decisions} decisions (the default bot: iterations/prior/exploration/breadth/trees the game's, "
        f"KUM {budget(kum.KingsUnderMountains)}, court {budget(CourtOfTheThreeClans)}); one process on one core"
    )
    print(f"{'figure':<46} {'ours':>10} {'OpenSpiel':>10} {'ours/OS':>9}  {'actions/game; s range'}")
    for label, ours, theirs, extra in rows:
        mine = "" if ours is None else show(ours)
        ratio = "reference" if ours is None else show(ours / theirs)
        print(f"{label:<46} {mine:>10} {show(theirs):>10} {ratio:>9}  {extra}")
    print(f"(ratios: rates ours/OpenSpiel; ISMCTS rows: OpenSpiel random games in one decision) wall {time.perf_counter() - wall:.0f} s")
    if args.json:
        out = {name: {"games_per_s": round(r.games_per_s, 2), "actions_per_s": round(r.actions_per_s), "actions_per_game": round(r.per_game, 1)}
               for name, r in rates.items()}
        out["openspiel_games_per_s_among_ismcts"] = round(near_g, 2)
        out["ismcts_s_per_decision_median"] = {"kum": round(kum_s, 4), "court": round(court_s, 4)}
        out["meta"] = {"open_spiel": version("open_spiel"), "peer": str(peer), "python": sys.version.split()[0], "rounds": args.rounds, "seconds": args.seconds}
        print(json.dumps(out))


if __name__ == "__main__":
    main()
