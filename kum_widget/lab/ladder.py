"""The skill ladder: does the better player win? For any game on the shell.

A ladder is a list of bots from the weakest to the strongest (default: random play; the
greedy bot playing a random move half the time; the greedy bot). Each match plays the
stronger of two bots against the weaker (neighbours, and the strongest against the
weakest), seats rotating, and counts how often the stronger wins. The skill reading is the
strongest against the weakest: how far above an even share the better player ends (after
TAG's ``SkillLadder`` and Browne & Maire's (2010) self-play criteria). It says nothing
about luck: the luck reading measures the game's chance itself (``kum.lab.luck``).

A match is group-sequential: it is played in batches of ``batch`` games in seed order, and
after each batch it stops when its repeated 95% interval (Jennison & Turnbull 2000, ch. 9:
Clopper & Pearson's exact interval at the level of Pocock's constant for the number of
looks, in place of 1.96) leaves out the even share
(one bot is stronger), or lies within ``margin`` of it (no difference that large: a
futility stop), or at ``games``. The intervals hold whatever look a match stops at, and
the same seed stops every executor at the same game.

>>> import kum_widget as kum
>>> r = kum.lab.skill_ladder("bust", rungs=("random", "greedy"), games=40, progress=False)
>>> r.table[["stronger", "weaker"]].values.tolist()
[['greedy', 'random']]
>>> 0 <= r.table.attrs["skill"] <= 1
True
"""

from __future__ import annotations

import functools
import math
import numbers
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from ..core.game import game_type
from .checks import check as _check
from .checks import whole
from .play import DEFAULT_MAX_ACTIONS, BotSpec, Spec, bot_label, bot_of, stable_number, the_game
from .result import LabResult, axes_of, check_axes
from .runs import executor_words, progress_bar, run_spec
from .stats import clopper_pearson
from .workers import pool_for, refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from ..bots.base import Bot

__all__ = ["skill_ladder", "ISMCTSAt", "Noisy", "default_rungs", "plan", "pocock", "rungs_of", "pocock_integral", "POCOCK", "COLUMNS", "DEFAULT_GAMES", "BATCH", "MARGIN"]

WHERE = "skill_ladder"

DEFAULT_GAMES = 200
"""The most games a match plays (``games``)."""

BATCH = 20
"""Games between two looks at a match (``batch``)."""

MARGIN = 0.15
"""A match stops for futility when its interval lies within this much of the even share:
no difference that large between the two bots (``margin``)."""

COLUMNS = ("stronger", "weaker", "match", "games", "stronger won", "weaker won", "draws", "stronger's share", "low", "high",
           "edge", "looks", "stopped")
"""The table's columns: one row per match."""

STOPS = {"stronger": "the stronger bot is stronger", "out of order": "the weaker bot is stronger",
         "equal": "no difference beyond the margin", "undecided": "no clear difference at the most games"}
"""Why a match stopped (the ``stopped`` column), in words."""


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


class Noisy:
    """A bot factory for the lab: ``Noisy("greedy", 0.5)(seed)`` is the greedy bot playing a
    random legal action half the time (``kum.bots.NoisyBot``), labelled ``"greedy, 50%
    random"``: a rung as cheap as random play and the greedy bot, between the two. It pickles."""

    def __init__(self, bot: BotSpec = "greedy", share: float = 0.5) -> None:
        if not isinstance(bot, str) and not callable(bot):
            raise GameError(f"Noisy: bot must be a bot name or a factory f(seed) -> bot, got {shown(bot)}")
        if isinstance(share, bool) or not isinstance(share, (int, float, numbers.Real)) or not 0 < share < 1:
            raise GameError(f"Noisy: share must be a number between 0 and 1 (exclusive), got {shown(share)}")
        self.bot, self.share = bot, float(share)

    @property
    def label(self) -> str:
        return f"{bot_label(self.bot)}, {100 * self.share:.0f}% random"

    def __call__(self, seed: int) -> Bot:
        from ..bots.noisy import NoisyBot

        return NoisyBot(bot_of(self.bot, seed), self.share, seed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Noisy) and (other.bot, other.share) == (self.bot, self.share)

    def __hash__(self) -> int:
        return hash(("Noisy", bot_label(self.bot), self.share))

    def __repr__(self) -> str:
        return f"Noisy({self.bot!r}, {self.share!r})"


def default_rungs() -> tuple[BotSpec, ...]:
    """The default ladder, weakest first: random, the greedy bot half at random, the greedy
    bot. Cheap rungs (a game's report takes seconds); add ``ISMCTSAt(n)`` rungs for stronger
    play, which cost far more."""
    return ("random", Noisy("greedy", 0.5), "greedy")


POCOCK = {1: 1.96, 2: 2.1771, 3: 2.289, 4: 2.361, 5: 2.4128, 6: 2.4529, 7: 2.485, 8: 2.5118, 9: 2.535, 10: 2.5549,
          11: 2.572, 12: 2.588, 13: 2.6013, 14: 2.6145, 15: 2.626, 16: 2.6363, 17: 2.6461, 18: 2.6554, 19: 2.6639,
          20: 2.6718}
"""Pocock's constants for 1 to 20 looks at a 5% two-sided error rate, as :func:`pocock_integral`
computes them (Jennison & Turnbull 2000, table 2.1, give the same to 3 decimals)."""


def pocock(looks: int) -> float:
    """Pocock's constant for ``looks`` equally spaced looks at a 5% error rate in all: the
    table :data:`POCOCK`, or :func:`pocock_integral` beyond it.

    >>> [pocock(k) for k in (1, 2, 5, 10)]
    [1.96, 2.1771, 2.4128, 2.5549]
    """
    return POCOCK[looks] if looks in POCOCK else pocock_integral(looks)


@functools.lru_cache(maxsize=64)
def pocock_integral(looks: int, alpha: float = 0.05) -> float:
    """Pocock's constant: the ``z`` that makes ``looks`` equally spaced looks at a normal
    statistic keep a two-sided error rate of ``alpha`` in all (Pocock 1977; by numerical
    integration of the running sum's density, as Armitage, McPherson and Rowe 1969 do; a
    second or so for 10 looks)."""
    import numpy as np

    whole("looks", looks, 1, 100, where="pocock")
    if looks == 1:
        from statistics import NormalDist

        return NormalDist().inv_cdf(1 - alpha / 2)
    step = 0.004  # the grid of the running sum S_k (increments N(0, 1))
    kernel_x = np.arange(-8.0, 8.0 + step / 2, step)
    kernel = np.exp(-kernel_x**2 / 2) / math.sqrt(2 * math.pi) * step

    def inside(c: float) -> float:
        bound = c  # look 1: S_1 within +-c
        x = np.arange(-bound, bound + step / 2, step)
        density = np.exp(-x**2 / 2) / math.sqrt(2 * math.pi)
        for k in range(2, looks + 1):
            spread = np.convolve(density * step, kernel / step)  # S_k = S_(k-1) + N(0, 1)
            grid = np.arange(len(spread)) * step + (x[0] + kernel_x[0])
            keep = np.abs(grid) <= c * math.sqrt(k)
            x, density = grid[keep], spread[keep]
        return float(density.sum() * step)

    lo, hi = 1.9, 4.0
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if inside(mid) > 1 - alpha else (mid, hi)
    return (lo + hi) / 2


def plan(games: int) -> tuple[int, int]:
    """A ladder for at most about ``games`` games a match: (games, batch), the batch
    ``games / 10`` rounded up and the games rounded up to a whole number of batches, so a
    match looks ten times at most.

    >>> plan(200), plan(30), plan(7)
    ((200, 20), (30, 3), (7, 1))
    """
    whole("games", games, 1, where=WHERE)
    batch = math.ceil(games / 10)
    return batch * math.ceil(games / batch), batch


def rungs_of(rungs: Any) -> list[BotSpec]:
    """``rungs=`` checked: two or more different bots, weakest first (None: the default)."""
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
        lo, hi = game_type(game).players
        return 2 if lo <= 2 <= hi else lo
    whole("players", players, *game_type(game).players, where=WHERE)
    return int(players)


def skill_ladder(game: Any = None, *, players: int | None = None, rungs: Sequence[BotSpec] | None = None,
                 games: int = DEFAULT_GAMES, batch: int = BATCH, margin: float = MARGIN, seed: int | None = 0,
                 executor: Any = None, progress: bool = True, max_actions: int | None = DEFAULT_MAX_ACTIONS,
                 ax: Axes | None = None) -> LabResult:
    """The skill ladder of ``game`` (a name, a CardGame or its class; None: the default game).

    ``rungs``: the bots from the weakest to the strongest, each a name or a factory
    ``f(seed) -> bot`` (:class:`ISMCTSAt` and :class:`Noisy` are such); default
    :func:`default_rungs`. Each match (neighbouring rungs, and the strongest against the
    weakest) plays the stronger in one seat against ``players - 1`` copies of the weaker,
    seats rotating; a solitaire plays both bots on the same deals and compares their
    scores. A match plays at most ``games`` games, looking after every ``batch`` (``games``
    a multiple of ``batch``): see the module for when it stops. Match ``r`` is dealt with
    its own seed, derived from ``seed`` and ``r``, so the same seed gives the same ladder
    on every executor (None: this process; a number of worker processes, made once for
    every match; a ``concurrent.futures.Executor``; a dask ``Client``).

    Returns a LabResult: ``table`` (one row per match: :data:`COLUMNS`; ``low`` and
    ``high`` are the match's repeated 95% interval; ``draws`` the games whose win the
    stronger shared or nobody won; ``stopped`` a key of :data:`STOPS`), ``reading``,
    ``about`` and the figure; ``table.attrs`` holds ``skill``, ``skill_low``,
    ``skill_high`` (the strongest's edge over the weakest: 0 at an even share, 1 when it
    always wins), ``ordered`` (every neighbour match found the stronger stronger),
    ``pocock`` and ``seconds`` (by match); ``data`` holds every game played, with its ``match``.
    A game past ``max_actions`` actions is left out (with a warning) and not counted.
    """
    refuse_in_starting_worker()  # a script without its __main__ guard, run again in a worker
    the = the_game(game, WHERE)
    specs = rungs_of(rungs)
    n = _players(the, players)
    whole("games", games, 1, where=WHERE)
    whole("batch", batch, 1, where=WHERE)
    batch = min(batch, games)
    if games % batch:
        raise GameError(f"{WHERE}: games ({games}) must be a multiple of batch ({batch}): the looks are equally spaced")
    if games // batch > len(POCOCK):
        raise GameError(f"{WHERE}: at most {len(POCOCK)} looks a match, got games={games} in batches of {batch}: "
                        f"raise batch (kum.lab.ladder.plan({games}) gives a batch that fits)")
    if type(margin) not in (int, float) or not 0 < margin < 0.5:
        raise GameError(f"{WHERE}: margin must be a number between 0 and 0.5, got {shown(margin)}")
    if seed is None:
        seed = secrets.randbelow(2**31)
    check_axes(ax, 1, WHERE)
    pairs = [(specs[i + 1], specs[i], "neighbours") for i in range(len(specs) - 1)]
    if len(specs) > 2:
        pairs.append((specs[-1], specs[0], "strongest against weakest"))
    else:
        pairs = [(specs[1], specs[0], "strongest against weakest")]
    plans: list[list[Spec]] = []
    for r, (strong, weak, _) in enumerate(pairs):
        sides = [(strong,), (weak,)] if n == 1 else [(strong, *(weak,) * (n - 1))]
        plans.append([_check(batch, n, bots, None, _rung_seed(seed, r) if type(seed) is int else seed, executor, progress,
                             True, None, the, max_actions, "skip", where=WHERE) for bots in sides])
    import pandas as pd

    looks = games // batch
    z = pocock(looks)
    fair = 0.5 if n == 1 else 1 / n
    frames: list[pd.DataFrame] = []
    rows: list[dict[str, Any]] = []
    seconds: dict[str, float] = {}
    interrupted = False
    bar = progress_bar(games * sum(len(p) for p in plans), "skill ladder") if progress else None
    try:
        with pool_for(executor, WHERE) as pool:
            for (strong, weak, kind), plan in zip(pairs, plans, strict=True):
                label = f"{bot_label(strong)} vs {bot_label(weak)}"
                t0 = time.perf_counter()
                runs: list[list[pd.DataFrame]] = [[] for _ in plan]
                row: dict[str, Any] | None = None
                for look in range(looks):
                    try:
                        for side, spec in enumerate(plan):
                            runs[side].append(run_spec(spec, batch, pool, None, bar if bar is not None else False,
                                                       desc=WHERE, stacklevel=4, start=look * batch))
                    except KeyboardInterrupt:  # before any game of this batch ended
                        interrupted = True
                    interrupted = interrupted or any(df.attrs.get("interrupted") for side in runs for df in side)
                    if interrupted or any(len(side) < look + 1 for side in runs):
                        break
                    joined = [pd.concat(side, ignore_index=True) for side in runs]
                    row = _count(joined, n, bot_label(strong), bot_label(weak), z)
                    row.update(match=kind, looks=look + 1, stopped=_stop(row, fair, margin, look + 1 == looks))
                    if row["stopped"] is not None:
                        if bar is not None:
                            bar.update(batch * len(plan) * (looks - look - 1))
                        break
                if row is not None:
                    seconds[label] = time.perf_counter() - t0
                    row["stopped"] = row["stopped"] or "undecided"  # (interrupted part way: as far as it got)
                    rows.append(row)
                    frames.extend(pd.concat(side, ignore_index=True).assign(match=label) for side in runs if side)
                if interrupted:
                    if not rows:
                        raise KeyboardInterrupt(f"{WHERE}: stopped before any match had a game")
                    break
    finally:
        if bar is not None:
            bar.close()
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    table = table.astype({c: "int64" for c in ("games", "stronger won", "weaker won", "draws", "looks")})
    return _result(table, pd.concat(frames, ignore_index=True), n, ax, attrs={
        "players": n, "seed": seed, "seeds": [p[0].seed for p in plans[:len(rows)]], "seconds": seconds,
        "executor": executor_words(executor), "interrupted": interrupted, "game": the.name, "margin": float(margin),
        "pocock": z, "batch": batch, "max_games": games,
        "unfinished": sum(len(df.attrs.get("unfinished", ())) for df in frames),
    })


def _stop(row: dict[str, Any], fair: float, margin: float, last: bool) -> str | None:
    """Why a match stops after this look (a key of :data:`STOPS`), or None to play on."""
    if row["games"] == 0:
        return "undecided" if last else None
    if row["low"] > fair:
        return "stronger"
    if row["high"] < fair:
        return "out of order"
    if fair - margin <= row["low"] and row["high"] <= fair + margin:
        return "equal"
    return "undecided" if last else None


def _rung_seed(seed: int, rung: int) -> int:
    """The seed of match ``rung``: its own deals, independent of the other matches' (the
    same deals in every match would repeat one sample's luck)."""
    return seed if rung == 0 else stable_number("kum-lab/ladder", seed, rung)


def _count(runs: list[pd.DataFrame], n: int, strong: str, weak: str, z: float) -> dict[str, Any]:
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
    lo, hi = clopper_pearson(share, played, z)
    return {"stronger": strong, "weaker": weak, "games": played, "stronger won": int(won), "weaker won": int(lost),
            "draws": int(drawn), "stronger's share": p, "low": lo, "high": hi, "edge": _edge(p, fair)}


def _edge(p: float, fair: float) -> float:
    """A share as the normalised edge: 0 at the even share, 1 when the stronger always wins."""
    return (p - fair) / (1 - fair)


def _result(table: pd.DataFrame, data: pd.DataFrame, n: int, ax: Any, attrs: dict[str, Any]) -> LabResult:
    fair = 0.5 if n == 1 else 1 / n
    top = table[table["match"] == "strongest against weakest"]
    if len(top) and int(top["games"].iloc[0]):
        t = top.iloc[0]
        skill, lo, hi = (_clip(_edge(float(t[c]), fair)) for c in ("stronger's share", "low", "high"))
    else:
        t, skill, lo, hi = None, math.nan, math.nan, math.nan
    near = table[table["match"] == "neighbours"]
    backwards = [f"{s} did worse than {w}" for s, w, x in zip(near["stronger"], near["weaker"], near["stopped"], strict=True)
                 if x == "out of order"]
    level = [f"{s} did no better than {w}" for s, w, x in zip(near["stronger"], near["weaker"], near["stopped"], strict=True)
             if x in ("equal", "undecided")]
    table.attrs.update(attrs, skill=skill, skill_low=lo, skill_high=hi, fair=fair, ordered=not backwards and not level,
                       out_of_order=backwards, not_ordered=level)
    reading = _reading(t, n, fair, skill, lo, hi, attrs["margin"]) if t is not None else \
        "No skill reading: no game of the strongest against the weakest ended within max_actions."
    if t is not None and len(near):
        if backwards or level:
            reading += f" Careful: the rungs are not all in order ({'; '.join(backwards + level)})."
        else:
            reading += " Each rung beats the one below it."
    about = (
        "A match is the stronger of two bots against the weaker (the other seats taken by copies of the weaker, seats "
        "rotating, a win shared by k players counting 1/k; a solitaire: both on the same deals, the higher score "
        "winning, an equal one counting half). The skill reading is the strongest rung against the weakest: edge = "
        "(stronger's share - even share) / (1 - even share), 0 when the stronger does no better than even, 1 when it "
        "always wins (TAG's SkillLadder; Browne & Maire 2010's self-play criteria). It measures what the ladder's "
        "bots can do, nothing about luck, which the luck reading measures from the game's own chance.\n"
        f"Each match is group-sequential: after every {attrs['batch']} games, in seed order, it looks at its repeated 95% "
        f"interval (Clopper & Pearson's exact interval, at the level of Pocock's constant {attrs['pocock']:.3f} for "
        f"{attrs['max_games'] // attrs['batch']} looks in place of 1.96: Jennison & Turnbull 2000), and stops when the interval leaves out the even share, or lies "
        f"within {100 * attrs['margin']:.0f} points of it (a futility stop: no difference that large), or at "
        f"{attrs['max_games']} games. The intervals hold whatever look a match stops at, and every executor stops at "
        "the same game."
    )
    fig, a = axes_of(ax, width=max(6.0, 2.4 * len(table)))
    xs = list(range(len(table)))
    p = [float(x) for x in table["stronger's share"]]
    below = [max(0.0, v - float(low)) if v == v else 0.0 for v, low in zip(p, table["low"], strict=True)]
    above = [max(0.0, float(high) - v) if v == v else 0.0 for v, high in zip(p, table["high"], strict=True)]
    colours = ["#8e44ad" if m == "strongest against weakest" else "#2e86c1" for m in table["match"]]
    a.bar(xs, p, yerr=[below, above], capsize=4, color=colours)
    a.axhline(fair, ls="--", color="grey", label=f"even share ({_pc(fair)})")
    a.set_xticks(xs, [f"{s}\nvs {w}" for s, w in zip(table["stronger"], table["weaker"], strict=True)])
    a.set_ylim(0, 1.16)  # room above a share of 100% for the legend
    a.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    a.set_ylabel("stronger bot's share of games" if n > 1 else "stronger bot's share (higher score, same deal)")
    a.set_title("Skill ladder (repeated 95% intervals)")
    a.legend(loc="upper right")
    return LabResult(table, fig, a, "Skill: does the better player win?", data, reading=reading, about=about,
                     shown=("stronger", "weaker", "games", "stronger's share", "low", "high", "stopped"),
                     percent=("stronger's share", "low", "high"))


def _reading(t: Any, n: int, fair: float, skill: float, lo: float, hi: float, margin: float) -> str:
    s, w, share = t["stronger"], t["weaker"], float(t["stronger's share"])
    interval = f"{_pc(share)} [{_pc(float(t['low']))}, {_pc(float(t['high']))}]"
    if n == 1:
        told = (f"the strongest bot ({s}) takes {interval} of the points over {int(t['games'])} deals against the weakest "
                f"({w}) (a higher score on the same deal is a point, a tie half)")
    else:
        told = (f"the strongest bot ({s}) takes {interval} of the wins in {int(t['games'])} games against the weakest "
                f"({w}) (a shared win counts its share)")
    even = f"an even share: {_pc(fair)}"
    if t["stopped"] == "stronger":
        return (f"The better player wins: {told} ({even}), a skill edge of {skill:.2f} [{lo:.2f}, {hi:.2f}] on a "
                "scale from 0 (no better than even) to 1 (always).")
    if t["stopped"] == "out of order":
        return (f"The ladder is upside down: {told} ({even}): pick rungs that really are stronger, one after the other.")
    reach = max(fair - float(t["low"]), float(t["high"]) - fair)
    return (f"No skill effect found (within ±{100 * reach:.0f} points of an even share): {told}, an interval that "
            f"includes the even share ({_pc(fair)}).")


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def _pc(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:.0f}%"
