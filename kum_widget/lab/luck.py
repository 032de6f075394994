"""How much does chance decide? Measured, never guessed from how the bots did.

First, whether a game has chance at all (``core.chance.measure_chance``: deals from
different seeds differ, or the same actions replayed with the generator re-seeded
diverge). A game without chance has no luck: every difference between its games comes
from the players' choices. For a game with chance, each of ``games`` deals is played
``replays`` times by the same bots with other bot seeds; the deal's share of the
outcome's variance is the between-deal variance component of a one-way random-effects
analysis of variance (the intraclass correlation, ICC(1)), with a bootstrap interval
over the deals.

>>> import kum_widget as kum
>>> r = kum.lab.luck("bust", games=40, progress=False)
>>> r.table.attrs["has_chance"], 0 <= r.table.attrs["luck"] <= 1
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from .checks import check as _check
from .checks import whole
from .play import (
    DEFAULT_MAX_ACTIONS,
    BotSpec,
    Spec,
    Unfinished,
    bot_label,
    bot_of,
    finished_row,
    limit_error,
    seating,
    stable_number,
)
from .play import new_session as _session_of
from .result import LabResult, axes_of, check_axes
from .runs import run_spec
from .tables import game_of, need_results
from .words import percent, share_words, span
from .workers import pool_for, refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["luck", "deal_share", "ReplaySpec", "BOOTSTRAP"]

WHERE = "luck"
BOOTSTRAP = 1000
"""Resamples of the deals for the interval of the deal's share."""


@dataclass(frozen=True)
class ReplaySpec(Spec):
    """The games of a run dealt again, their bots seeded otherwise (``salt`` > 0): the same
    deals, other play."""

    salt: int = 1

    def play(self, game: int) -> dict[str, Any]:
        from ..bots import bot_move

        gs = stable_number("kum-lab/game", self.seed, game)
        specs = seating(self.bots, game, self.rotate)
        seated = [bot_of(b, stable_number("kum-lab/bot-again", gs, seat, self.salt)) for seat, b in enumerate(specs)]
        g = _session_of(self.game, self.players, gs)
        while not g.is_over:
            if self.max_actions is not None and g.move_number >= self.max_actions:
                if self.unfinished == "skip":
                    return Unfinished(game=game, seed=gs, actions=self.max_actions)
                raise limit_error(self, game, gs)
            g.apply(bot_move(g, seated[g.current_player]))
        return finished_row(g, game, specs)


def deal_share(outcomes: list[list[float]]) -> tuple[float, float, float]:
    """The between-deal share of the variance of ``outcomes`` (one list per deal, the same
    number of plays each): the one-way random-effects variance components, clipped at 0.
    Returns (share, between-deal variance, within-deal variance); NaN when nothing varies.

    >>> deal_share([[1, 1], [0, 0], [1, 1], [0, 0]])[0]
    1.0
    >>> deal_share([[1, 0], [0, 1], [1, 0], [0, 1]])[0]
    0.0
    """
    d, r = len(outcomes), len(outcomes[0]) if outcomes else 0
    if d < 2 or r < 2:
        return math.nan, math.nan, math.nan
    means = [sum(o) / r for o in outcomes]
    grand = sum(means) / d
    msb = r * sum((m - grand) ** 2 for m in means) / (d - 1)
    msw = sum((x - m) ** 2 for o, m in zip(outcomes, means, strict=True) for x in o) / (d * (r - 1))
    between = max(0.0, (msb - msw) / r)
    total = between + msw
    return (between / total if total > 0 else math.nan), between, msw


def luck(source: Any = None, *, games: int = 200, bots: BotSpec | Any = "greedy", players: int | None = None,
         rules: Any = None, seed: int = 0, executor: Any = None, progress: bool = True, replays: int = 2,
         max_actions: int | None = DEFAULT_MAX_ACTIONS, ax: Axes | None = None) -> LabResult:
    """How much chance decides, for ``source``: a game (a name, a CardGame or its class;
    None: the default game) or a table from ``simulate`` or
    :func:`~kum_widget.lab.traced` (its first ``games`` games are the first play of each
    deal). Each deal is played ``replays`` times (at least 2) by ``bots`` with other bot
    seeds. The outcome: seat 0's share of the win (a solitaire: its score).

    Returns a LabResult whose ``table.attrs`` hold ``has_chance``, ``chance`` (the
    finding in words), ``luck``, ``luck_low``, ``luck_high`` (the deal's share of the
    variance and its 95% bootstrap interval; exactly 0 without chance)."""
    refuse_in_starting_worker()
    whole("replays", replays, 2, 20, where=WHERE)
    if not isinstance(progress, bool):
        raise GameError(f"{WHERE}: progress must be True or False, got {shown(progress)}")
    check_axes(ax, 1, WHERE)
    import pandas as pd

    from ..core.chance import measure_chance

    with pool_for(executor, WHERE) as pool:
        first, spec = _first(source, games, bots, players, rules, seed, pool, progress, max_actions)
        n = spec.players
        if len({bot_label(b) for b in spec.bots}) > 1:  # seating follows the game's number: both plays of a deal share it
            raise GameError(f"{WHERE}: luck compares plays of one deal by the same bot at every seat; with different bots "
                            f"({', '.join(bot_label(b) for b in spec.bots)}) which seat each sits at would read as luck: "
                            "pass one bot (bots='greedy')")
        if len(first) < 2:
            raise GameError(f"{WHERE}: {len(first)} of the games ended within max_actions: too few deals to compare")
        chance = measure_chance(spec.game, n, seed=spec.seed, max_actions=spec.max_actions or 2000)
        plays = [first]
        if chance.has_chance:
            for salt in range(1, replays):
                rspec = ReplaySpec(**{f: getattr(spec, f) for f in Spec.__dataclass_fields__}, salt=salt)
                plays.append(run_spec(rspec, len(first), pool, None, progress, desc=f"{WHERE}: play {salt + 1}", stacklevel=3))
    by_game = [{int(r["game"]): _outcome(r, n) for _, r in df.iterrows()} for df in plays]
    common = sorted(set.intersection(*(set(b) for b in by_game)))
    outcomes = [[b[g] for b in by_game] for g in common]
    if not chance.has_chance:
        share, lo, hi, between, within = 0.0, 0.0, 0.0, 0.0, math.nan
    else:
        share, between, within = deal_share(outcomes)
        lo, hi = _bootstrap(outcomes, spec.seed)
    rows = [{"measure": "deal's share of the variance", "value": share, "low": lo, "high": hi, "deals": len(common)},
            {"measure": "variance between deals", "value": between, "low": math.nan, "high": math.nan, "deals": len(common)},
            {"measure": "variance within a deal (the players' choices)", "value": within, "low": math.nan, "high": math.nan,
             "deals": len(common)}]
    table = pd.DataFrame(rows).astype({"deals": "int64"})
    who = f"{', '.join(sorted({bot_label(b) for b in spec.bots}))} bots"
    what = "score" if n == 1 else "who wins"
    table.attrs.update(has_chance=chance.has_chance, chance=chance.words, at_setup=chance.at_setup,
                       during_play=chance.during_play, luck=share, luck_low=lo, luck_high=hi, replays=len(plays),
                       deals=len(common), game=spec.game.name, players=n, percent_rows=[0])
    deal = "the deal" if not chance.during_play else "the game's chance (its deal and what it draws during play)"
    found = f"{chance.words[:1].upper()}{chance.words[1:]}"
    if not chance.has_chance:
        reading = (f"No luck: {chance.words} (measured over {chance.games} deals and {chance.actions} actions), so "
                   "every difference between games comes from the players' choices.")
    elif share != share:
        reading = (f"{found}, but every game of the {who} ended alike: there is no variation for {deal} to explain.")
    elif within == 0:
        lo, hi = math.nan, 1.0
        table.loc[0, ["low", "high"]] = [lo, hi]
        table.attrs.update(luck_low=lo, luck_high=hi)
        reading = (f"{found}: every one of the {len(common)} deals ended the same way every time it was played "
                   f"({_times(len(plays))}), so between {who} {deal} decided every game; players who choose more "
                   "variously would leave it less to decide.")
    else:
        reading = (f"{found}: between {who}, {deal} accounts for {percent(share)} "
                   f"{span(lo, hi)} of the variance of {what} ({share_words(share, lo, hi)}), the players' choices for "
                   f"the rest ({len(common)} deals, each played {_times(len(plays))} with other bot seeds).")
    fig, a = axes_of(ax, height=2.2)
    a.barh([0], [share if share == share else 0.0], color="#8e44ad", label="the deal")
    a.barh([0], [1 - share if share == share else 1.0], left=[share if share == share else 0.0], color="#95a5a6",
           label="the players' choices")
    if chance.has_chance and lo == lo:
        a.errorbar([share], [0], xerr=[[share - lo], [hi - share]], color="black", capsize=5)
    a.set_xlim(0, 1)
    a.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    a.set_yticks([])
    a.set_xlabel(f"share of the variance of {what}")
    a.set_title("Luck: how much the deal decides")
    a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.45), ncol=2, frameon=False)
    about = ("Whether the game has chance is measured, not assumed: deals from different seeds are compared, and the "
             "same actions are replayed with the game's generator re-seeded (core.chance.measure_chance); a game must "
             "draw all its chance from the generator setup() is handed (check_game checks it). With chance, every deal "
             f"is played {_times(len(plays))} by the same bots with other bot seeds, and the outcome ({what}"
             f"{', seat 0' if n > 1 else ''}) is split into the variance between deals and within a deal (a one-way "
             "random-effects analysis of variance; the share is the intraclass correlation ICC(1)). The 95% interval "
             f"comes from {BOOTSTRAP} bootstrap resamples of the deals. It is measured between these bots: players who "
             "choose more differently leave the deal less to decide.")
    return LabResult(table, fig, a, "Luck: the game's chance, measured", reading=reading, about=about,
                     shown=("measure", "value", "low", "high", "deals"), percent=())


def _times(k: int) -> str:
    return {2: "twice", 3: "three times"}.get(k, f"{k} times")


def _outcome(row: Any, n: int) -> float:
    if n == 1:
        return float(row["score_0"])
    winners = tuple(row["winners"])
    if not winners:
        return 1.0 / n
    return 1.0 / len(winners) if 0 in winners else 0.0


def _bootstrap(outcomes: list[list[float]], seed: int) -> tuple[float, float]:
    import numpy as np

    d = len(outcomes)
    if d < 2:
        return math.nan, math.nan
    rng = np.random.default_rng(stable_number("kum-lab/luck", seed))
    values = []
    for _ in range(BOOTSTRAP):
        pick = rng.integers(0, d, size=d)
        x = deal_share([outcomes[i] for i in pick])[0]
        if x == x:
            values.append(x)
    if not values:
        return math.nan, math.nan
    values.sort()
    return values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))]


def _first(source: Any, games: int, bots: Any, players: Any, rules: Any, seed: Any, pool: Any, progress: bool,
           max_actions: Any) -> tuple[pd.DataFrame, Spec]:
    """The first play of each deal: the given table's first ``games`` games, or ``games``
    games played here; and the run's spec."""
    import pandas as pd

    whole("games", games, 2, where=WHERE)
    if isinstance(source, pd.DataFrame):
        need_results(source, WHERE, game_level=("n_winners", "winners", "game"), games=False)
        a = source.attrs
        if not all(k in a for k in ("seed", "players", "bot_specs", "rotate")):
            raise GameError(f"{WHERE}: this table has lost the attrs of its run (seed, players, bot_specs, rotate): "
                            "pass the game instead")
        spec = _check(games, a["players"], tuple(a["bot_specs"]), None, a["seed"], pool, False, a["rotate"], None,
                      game_of(source, WHERE), a.get("max_actions"), "skip", where=WHERE)
        return source[source["game"] < games].reset_index(drop=True), spec
    if bots is None or isinstance(bots, dict):
        raise GameError(f"{WHERE}: bots must be a bot name, a factory f(seed) -> bot, or one per seat, got {shown(bots)}")
    spec = _check(games, players, bots, rules, seed, pool, False, True, None, source, max_actions, "skip", where=WHERE)
    return run_spec(spec, games, pool, None, progress, desc=f"{WHERE}: play 1", stacklevel=4), spec
