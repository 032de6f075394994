"""The skill ladder: does the better player win, or the luckier one? For any game on the shell.

A ladder is a list of bots from the weakest to the strongest (default: random, greedy, then
ISMCTS at doubling budgets). Each rung plays the stronger of two neighbours against the
weaker, seats rotating, and counts how often the stronger wins; the skill score sums the
ladder up from 0 (pure luck: the stronger wins no more than an even share) to 1 (the
stronger always wins). After TAG's ``SkillLadder`` and Browne & Maire's (2010) self-play
criteria of a game's depth.

>>> import kum_widget as kum
>>> r = kum.lab.skill_ladder("bust", rungs=("random", "greedy"), games=20, progress=False)
>>> r.table[["stronger", "weaker", "games"]].values.tolist()
[['greedy', 'random', 20]]
>>> 0 <= r.table.attrs["skill"] <= 1
True
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from .checks import check as _check
from .checks import whole
from .play import DEFAULT_MAX_ACTIONS, BotSpec, Spec, _derive, bot_label, the_game
from .result import LabResult, axes_of, check_axes
from .simulate import _bar, _describe, run_spec
from .stats import wilson
from .workers import pool_for, refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from ..bots.base import Bot

__all__ = ["skill_ladder", "ISMCTSAt", "DEFAULT_BUDGETS", "default_rungs", "verdict", "COLUMNS"]

WHERE = "skill_ladder"

DEFAULT_BUDGETS = (25, 50)
"""The ISMCTS budgets (iterations a decision) of the default ladder. Measured on Kings Under
Mountains, 2 players, 40 games a rung, on one core: the default ladder takes 65-72 s of CPU
(greedy vs random 1.5 s, ISMCTS 25 vs greedy 17 s, ISMCTS 50 vs ISMCTS 25 47 s). There 10
iterations play no better than the greedy bot (an even share), which would break the
ladder's order; in the court solitaire even 25 play below the greedy bot (the reading says
when a rung is out of order)."""

COLUMNS = ("stronger", "weaker", "games", "stronger won", "weaker won", "draws", "stronger's share", "low", "high", "edge")
"""The table's columns: one row per rung."""

VERDICTS = ((0.15, "mostly luck"), (0.4, "luck and skill both count"), (0.7, "a game of skill with some luck"),
            (math.inf, "skill decides"))
"""The verdict of a skill score: the first whose bound the score is below."""


class ISMCTSAt:
    """A bot factory for the lab: ``ISMCTSAt(50)(seed)`` is ``ISMCTSBot(iterations=50,
    seed=seed)`` (the game's other search hints apply), labelled ``"ISMCTS 50"`` in tables.
    It pickles, so it goes to worker processes."""

    def __init__(self, iterations: int) -> None:
        whole("iterations", iterations, 1, where="ISMCTSAt")
        self.iterations = iterations

    @property
    def label(self) -> str:
        return f"ISMCTS {self.iterations}"

    def __call__(self, seed: int) -> Bot:
        from ..bots import ISMCTSBot  # the bots load on first use

        return ISMCTSBot(iterations=self.iterations, seed=seed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ISMCTSAt) and other.iterations == self.iterations

    def __hash__(self) -> int:
        return hash(("ISMCTSAt", self.iterations))

    def __repr__(self) -> str:
        return f"ISMCTSAt({self.iterations})"


def default_rungs() -> tuple[BotSpec, ...]:
    """The default ladder, weakest first: random, greedy, ISMCTS at :data:`DEFAULT_BUDGETS`."""
    return ("random", "greedy", *(ISMCTSAt(n) for n in DEFAULT_BUDGETS))


def verdict(skill: float) -> str:
    """A skill score in words (:data:`VERDICTS`)."""
    if skill != skill:
        return "not measured"
    return next(words for bound, words in VERDICTS if skill < bound)


def _rungs(rungs: Any) -> list[BotSpec]:
    if rungs is None:
        return list(default_rungs())
    if isinstance(rungs, (str, bytes, Mapping)) or not isinstance(rungs, Sequence):
        raise GameError(f"{WHERE}: rungs must list two or more bots, weakest first (names or factories f(seed) -> bot), "
                        f"got {shown(rungs)}")
    specs = list(rungs)
    if len(specs) < 2:
        raise GameError(f"{WHERE}: rungs must list two or more bots, weakest first, got {len(specs)}: {shown(specs)}")
    for spec in specs:
        if not isinstance(spec, str) and not callable(spec):
            raise GameError(f"{WHERE}: a rung is a bot name or a factory f(seed) -> bot (such as a bot class), got "
                            f"{shown(spec)}")
    labels = [bot_label(s) for s in specs]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise GameError(f"{WHERE}: rungs must be different bots, got {', '.join(map(repr, twice))} more than once "
                        "(give a factory a .label to tell it apart)")
    return specs


def _players(game: Any, players: Any) -> int:
    if players is None:
        return 2 if game.min_players <= 2 <= game.max_players else int(game.min_players)
    whole("players", players, game.min_players, game.max_players, where=WHERE)
    return int(players)


def skill_ladder(game: Any = None, *, players: int | None = None, rungs: Sequence[BotSpec] | None = None, games: int = 40,
                 seed: int | None = 0, executor: Any = None, progress: bool = True,
                 max_actions: int | None = DEFAULT_MAX_ACTIONS, ax: Axes | None = None) -> LabResult:
    """The skill ladder of ``game`` (a name, a CardGame or its class; None: the default game).

    ``rungs``: the bots from the weakest to the strongest, each a name or a factory
    ``f(seed) -> bot`` (:class:`ISMCTSAt` is one); default random, greedy, and ISMCTS at
    :data:`DEFAULT_BUDGETS`. Each rung plays ``games`` games of the stronger of two
    neighbours in one seat against ``players - 1`` copies of the weaker, seats rotating
    (``simulate(rotate=True)``); a solitaire plays both bots on the same deals and
    compares their scores. Rung ``r`` is dealt with its own seed, derived from ``seed``
    and ``r``: the rungs are independent samples, and the same seed gives the same
    ladder on every executor (None: this process; a number of worker processes, made
    once for every rung; a ``concurrent.futures.Executor``; a dask ``Client``).

    ``progress``: one bar for the whole ladder. ``max_actions``: as ``simulate`` takes it.

    Returns a LabResult: ``table`` (one row per rung: :data:`COLUMNS`; ``draws`` are the
    games whose win the stronger shared, or that nobody won), the stronger's
    share per rung with its 95% interval as ``figure``, ``reading`` and ``about``;
    ``table.attrs`` holds ``skill``, ``skill_low``, ``skill_high`` (the skill score and its
    95% interval), ``upsets`` (the share of games the weaker side won), ``seconds`` (by
    rung) and each rung's ``seeds``; ``data`` holds every game played, with its ``rung``.
    A game past ``max_actions`` actions is left out (with a warning) and not counted.
    """
    refuse_in_starting_worker()  # a script without its __main__ guard, run again in a worker
    the = the_game(game, WHERE)
    specs = _rungs(rungs)
    n = _players(the, players)
    whole("games", games, 1, where=WHERE)
    if seed is None:
        seed = secrets.randbelow(2**31)
    check_axes(ax, 1, WHERE)
    pairs = [(specs[i + 1], specs[i]) for i in range(len(specs) - 1)]
    plans: list[list[Spec]] = []
    for r, (strong, weak) in enumerate(pairs):
        sides = [(strong,), (weak,)] if n == 1 else [(strong, *(weak,) * (n - 1))]
        plans.append([_check(games, n, bots, None, _rung_seed(seed, r) if type(seed) is int else seed, executor, progress,
                             None, True, None, the, max_actions, "skip", where=WHERE) for bots in sides])
    import pandas as pd

    frames: list[pd.DataFrame] = []
    rows: list[dict[str, Any]] = []
    seconds: dict[str, float] = {}
    interrupted = False
    bar = _bar(games * sum(len(p) for p in plans), "skill ladder") if progress else None
    try:
        with pool_for(executor, WHERE) as pool:
            for (strong, weak), plan in zip(pairs, plans, strict=True):
                label = f"{bot_label(strong)} vs {bot_label(weak)}"
                t0 = time.perf_counter()
                runs: list[pd.DataFrame] = []
                try:
                    for spec in plan:
                        runs.append(run_spec(spec, games, pool, None, bar if bar is not None else False, desc=WHERE,
                                             stacklevel=4))
                        if runs[-1].attrs.get("interrupted"):
                            break
                except KeyboardInterrupt:  # before any game of this run ended
                    runs = []
                interrupted = len(runs) < len(plan) or any(df.attrs.get("interrupted") for df in runs)
                if len(runs) == len(plan):  # a rung stopped part way still counts the games it finished
                    seconds[label] = time.perf_counter() - t0
                    rows.append(_count(runs, n, bot_label(strong), bot_label(weak)))
                    frames.extend(df.assign(rung=label) for df in runs)
                if interrupted:
                    if not rows:
                        raise KeyboardInterrupt(f"{WHERE}: stopped before any rung had a game")
                    break
    finally:
        if bar is not None:
            bar.close()
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    table = table.astype({c: "int64" for c in ("games", "stronger won", "weaker won", "draws")})
    return _result(table, pd.concat(frames, ignore_index=True), n, ax, attrs={
        "players": n, "seed": seed, "seeds": [p[0].seed for p in plans[:len(rows)]], "seconds": seconds,
        "executor": _describe(executor), "interrupted": interrupted, "game": the.name,
        "unfinished": sum(len(df.attrs.get("unfinished", ())) for df in frames),
    })


def _rung_seed(seed: int, rung: int) -> int:
    """The seed of rung ``rung``: its own deals, independent of the other rungs' (the same
    deals on every rung would repeat one sample's luck, and in a game decided by the deal
    every rung would agree)."""
    return seed if rung == 0 else _derive("kum-lab/ladder", seed, rung)


def _count(runs: list[pd.DataFrame], n: int, strong: str, weak: str) -> dict[str, Any]:
    """One rung's row: the stronger's wins (a shared win counts 1/k), the weaker side's, draws."""
    won = lost = drawn = 0
    share = 0.0
    if n == 1:  # the same deals (the same game numbers): the scores side by side
        a, b = (df.set_index("game")["score_0"] for df in runs)
        both = a.index.intersection(b.index)
        for x, y in zip(a[both], b[both], strict=True):
            won, lost, drawn = won + (x > y), lost + (x < y), drawn + (x == y)
        share = won + 0.5 * drawn
    else:
        for game, winners in zip(runs[0]["game"], runs[0]["winners"], strict=True):
            seat = int(game) % n  # rotate=True: bots[0], the stronger, sits at seat game % n
            if seat in winners:
                won, drawn = won + (len(winners) == 1), drawn + (len(winners) > 1)
                share += 1 / len(winners)
            elif len(winners):
                lost += 1
            else:  # no winner at all: everyone tied
                drawn += 1
                share += 1 / n
    played = won + lost + drawn
    fair = 0.5 if n == 1 else 1 / n
    p = share / played if played else math.nan
    lo, hi = wilson(share, played)
    return {"stronger": strong, "weaker": weak, "games": played, "stronger won": int(won), "weaker won": int(lost),
            "draws": int(drawn), "stronger's share": p, "low": lo, "high": hi, "edge": _edge(p, fair)}


def _edge(p: float, fair: float) -> float:
    """A share as the normalised edge: 0 at the even share, 1 when the stronger always wins."""
    return (p - fair) / (1 - fair)


def _skill(table: pd.DataFrame, fair: float) -> tuple[float, float, float]:
    """The mean of the rungs' edges with its 95% interval, each clipped to [0, 1]. The interval
    adds the rungs' (independent) interval widths in quadrature (Zou & Donner's MOVER, as
    Newcombe's interval of a difference does)."""
    played = table[table["games"] > 0]  # a rung whose every game ran past max_actions says nothing
    e = [float(x) for x in played["edge"]]
    lows = [_edge(float(x), fair) for x in played["low"]]
    highs = [_edge(float(x), fair) for x in played["high"]]
    if not e:
        return math.nan, math.nan, math.nan
    k = len(e)
    mean = sum(e) / k
    lo = mean - math.sqrt(sum((x - a) ** 2 for x, a in zip(e, lows, strict=True))) / k
    hi = mean + math.sqrt(sum((b - x) ** 2 for x, b in zip(e, highs, strict=True))) / k
    return _clip(mean), _clip(lo), _clip(hi)


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def _result(table: pd.DataFrame, data: pd.DataFrame, n: int, ax: Any, attrs: dict[str, Any]) -> LabResult:
    fair = 0.5 if n == 1 else 1 / n
    skill, lo, hi = _skill(table, fair)
    total = int(table["games"].sum())
    strong = int(table["stronger won"].sum()) / total if total else math.nan
    upsets = int(table["weaker won"].sum()) / total if total else math.nan
    table.attrs.update(attrs, skill=skill, skill_low=lo, skill_high=hi, upsets=upsets, fair=fair)
    if n == 1:
        said = (f"the stronger bot scores more than the weaker on the same deal in {_pc(strong)} of games; "
                + (f"the weaker still scores more in {_pc(upsets)}" if upsets else "the weaker never scores more"))
    else:
        even = "" if n == 2 else f" (an even share: {_pc(fair)})"
        said = (f"the stronger bot wins {_pc(strong)} of its games{even}; "
                + (f"the weaker side still wins {_pc(upsets)}" if upsets else "the weaker side never wins"))
    backwards = [f"{s} did worse than {w}" for s, w, h in zip(table["stronger"], table["weaker"], table["high"], strict=True)
                 if h < fair]  # the interval below the even share: this rung is out of order
    table.attrs["out_of_order"] = backwards
    careful = f"; careful: {' and '.join(backwards)}, which pulls the score down" if backwards else ""
    reading = (f"Skill score {skill:.2f} [{lo:.2f}, {hi:.2f}]: {said} ({verdict(skill)}){careful}." if total else
               "No skill score: no game of the ladder ended within max_actions.")
    about = (
        "A rung is the stronger of two neighbouring bots against the weaker (the other seats taken by copies of the "
        "weaker, seats rotating, a win shared by k players counting 1/k; a solitaire: both on the same deals, the "
        "higher score winning, an equal one counting half).\n"
        "Edge = (stronger's share - even share) / (1 - even share): 0 when the stronger does no better than even, 1 when "
        "it always wins; the skill score is the mean edge of the rungs, clipped to 0..1 (TAG's SkillLadder; Browne & "
        "Maire 2010's self-play criteria).\n"
        "Each share's 95% interval is Wilson's, which stays within 0..100%; the skill score's interval combines the "
        "rungs' intervals, mapped the same way (Zou & Donner's MOVER: their widths added in quadrature)."
    )
    fig, a = axes_of(ax, width=max(6.0, 2.2 * len(table)))  # room for each rung's "ISMCTS 50 vs ISMCTS 25"
    xs = list(range(len(table)))
    p = [float(x) for x in table["stronger's share"]]
    below = [max(0.0, v - float(low)) for v, low in zip(p, table["low"], strict=True)]
    above = [max(0.0, float(high) - v) for v, high in zip(p, table["high"], strict=True)]
    a.bar(xs, p, yerr=[below, above], capsize=4, color="#2e86c1")
    a.axhline(fair, ls="--", color="grey", label=f"even share ({_pc(fair)})")
    a.set_xticks(xs, [f"{s} vs {w}" for s, w in zip(table["stronger"], table["weaker"], strict=True)])
    a.set_ylim(0, 1.16)  # room above a share of 100% for the legend
    a.set_ylabel("stronger bot's share of games" if n > 1 else "stronger bot's share (higher score, same deal)")
    a.set_title(f"Skill ladder ({int(table['games'].max()) if len(table) else 0} games a rung, 95% intervals)")
    a.legend(loc="upper right")
    return LabResult(table, fig, a, "Skill: does the better player win?", data, reading=reading, about=about,
                     percent=("stronger's share", "low", "high"))


def _pc(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:.0f}%"
