"""What wins, by experiment: restricted play (Jaffe, Miller, Andersen, Liu, Karlin and
Popović, "Evaluating competitive game balance with restricted play", AIIDE 2012).

For each kind of action (the game's ``CardGame.action_kind``), the reference bot plays
itself on the very same deals with the same bot seeds, once as it likes and once with one
seat that never takes that kind when it has another choice (:func:`restricted`); the
change in that seat's result, game by game, is what the kind is worth to a player who
takes it when the bot would. A mirror group of kinds (``CardGame.mirror_kinds``) is one
question: each game restricts one of its members in turn. A kind is named only when its
interval, adjusted for the number of kinds compared (Holm, 1979), leaves out zero.

>>> import kum_widget as kum
>>> r = kum.lab.what_wins("bust", games=40, progress=False)
>>> sorted(r.table["what"])
['draw', 'play']
>>> bot = kum.lab.restricted("greedy", never="draw")
>>> bot.label
"greedy, never 'draw'"
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from ..core.game import declares_kinds
from ..core.kinds import kind_groups
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
from .trace import TraceSpec
from .workers import pool_for, refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from ..bots.base import Bot

__all__ = ["restricted", "Restricted", "what_wins", "RestrictedSpec", "ALPHA", "holm"]

WHERE = "what_wins"
ALPHA = 0.05
"""The error rate the experiment allows over all the kinds it compares (Holm's procedure)."""

DEFAULT_GAMES = 200
"""Games a kind (the same deals for every kind)."""

MAX_KINDS = 12
"""The most kinds (or mirror groups) compared: the ones the bot chose most often."""


class Restricted:
    """``restricted(bot, never=...)``: a bot factory for the lab (``f(seed) -> bot``) making
    ``bot`` restricted never to take the ``never`` kinds when it has another choice. It
    pickles, so it goes to worker processes; ``label`` names it in tables."""

    def __init__(self, bot: BotSpec, never: frozenset[str]) -> None:
        self.bot, self.never = bot, never

    @property
    def label(self) -> str:
        return f"{bot_label(self.bot)}, never {', '.join(map(repr, sorted(self.never)))}"

    def __call__(self, seed: int) -> Bot:
        from ..bots.restricted import RestrictedBot

        return RestrictedBot(bot_of(self.bot, seed), self.never)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Restricted) and (other.bot, other.never) == (self.bot, self.never)

    def __hash__(self) -> int:
        return hash(("Restricted", bot_label(self.bot), self.never))

    def __repr__(self) -> str:
        return f"restricted({self.bot!r}, never={sorted(self.never)!r})"


def restricted(bot: BotSpec = "greedy", *, never: str | Iterable[str]) -> Restricted:
    """``bot`` (a name or a factory ``f(seed) -> bot``) that never takes an action of a
    kind in ``never`` (one kind, or several; the game's ``CardGame.action_kind`` names
    them) when it has another choice: ask "what if nobody ever does X?" in one line,
    ``kum.simulate(bots=kum.lab.restricted("greedy", never="draw deck"))``."""
    from ..bots.restricted import kinds_of

    if not isinstance(bot, str) and not callable(bot):
        raise GameError(f"restricted: bot must be a bot name or a factory f(seed) -> bot, got {shown(bot)}")
    return Restricted(bot, kinds_of(never, "restricted"))


@dataclass(frozen=True)
class RestrictedSpec(Spec):
    """A run of restricted games: game ``i`` restricts the bot at seat ``i % players`` from
    one kind of ``group`` (its members in turn), every other seat and every seed as in the
    unrestricted run. Its rows add ``restricted_seat``, ``restricted_kind``, ``bites``
    (the restricted seat's decisions where a kind of the group was open with another
    choice) and ``seat_decisions``."""

    group: tuple[str, ...] = ()
    bitten: frozenset[int] | None = None  # the games the restriction can change (None: all); the others are not played

    def play(self, game: int) -> dict[str, Any]:
        from ..bots import bot_move

        gs = stable_number("kum-lab/game", self.seed, game)
        n = self.players
        seat, kind = game % n, self.group[(game // n) % len(self.group)]
        if self.bitten is not None and game not in self.bitten:  # the seat never chose between this kind and another
            return {"game": game, "restricted_seat": seat, "restricted_kind": kind, "bites": 0, "seat_decisions": 0,
                    "unchanged": True}
        specs = seating(self.bots, game, self.rotate)
        seated = [bot_of(b, stable_number("kum-lab/bot", gs, s)) for s, b in enumerate(specs)]
        seated[seat] = Restricted(specs[seat], frozenset((kind,)))(stable_number("kum-lab/bot", gs, seat))
        g = _session_of(self.game, n, gs)
        bites = decisions = 0
        while not g.is_over:
            if self.max_actions is not None and g.move_number >= self.max_actions:
                if self.unfinished == "skip":
                    return Unfinished(game=game, seed=gs, actions=self.max_actions)
                raise limit_error(self, game, gs)
            mover = g.current_player
            if mover != seat:
                g.apply(bot_move(g, seated[mover]))
                continue
            decisions += 1
            kinds = g.action_kinds()
            bites += kind in kinds and any(k != kind for k in kinds)
            g.apply(bot_move(g, seated[mover], kinds=kinds))
        row = finished_row(g, game, specs)
        row.update(restricted_seat=seat, restricted_kind=kind, bites=bites, seat_decisions=decisions, unchanged=False)
        return row


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> tuple[list[bool], list[float]]:
    """Holm's step-down procedure: which hypotheses are rejected at family error ``alpha``,
    and the level each was tested at (``alpha / (k - j)`` for the ``j``-th smallest p, and
    for those after the first that is kept, the level of that one), so that an interval
    at that level leaves out zero exactly when its hypothesis is rejected.

    >>> holm([0.01, 0.04, 0.03])
    ([True, False, False], [0.016666666666666666, 0.025, 0.025])
    >>> holm([float("nan"), 0.001, 0.002])[0]
    [False, True, True]
    """
    k = len(p_values)
    order = sorted(range(k), key=lambda i: p_values[i] if p_values[i] == p_values[i] else math.inf)  # NaN: nothing shown, last
    rejected, levels = [False] * k, [alpha] * k
    stopped: float | None = None
    for j, i in enumerate(order):
        level = alpha / (k - j) if stopped is None else stopped
        levels[i] = level
        if stopped is None and p_values[i] == p_values[i] and p_values[i] <= level:
            rejected[i] = True
        elif stopped is None:
            stopped = level
    return rejected, levels


def what_wins(source: Any = None, *, games: int = DEFAULT_GAMES, bots: BotSpec = "greedy", players: int | None = None,
              rules: Any = None, seed: int = 0, executor: Any = None, progress: bool = True,
              max_actions: int | None = DEFAULT_MAX_ACTIONS, max_kinds: int = MAX_KINDS,
              ax: Axes | None = None) -> LabResult:
    """What wins, by experiment: for each kind of action (or mirror group of kinds) the
    reference bot ``bots`` (one bot, playing every seat) chose in ``games`` games of
    ``source``, the same games again with one seat (each in turn) never taking that kind
    when it had another choice; the change in that seat's share of wins (a solitaire: its
    score), game by game, with its interval adjusted for the kinds compared (Holm).

    ``source``: a game (a name, a CardGame or its class; None: the default game), or a
    table from :func:`~kum_widget.lab.traced` (the report's games) whose bots are one bot
    at every seat: its first ``games`` games are the unrestricted ones. ``max_kinds``: the
    most kinds compared, those chosen most often (the others are listed, not played).

    Returns a LabResult: ``table`` one row per kind compared (``what``, ``kinds``,
    ``games``, ``restricted`` and ``unrestricted`` (the restricted seat's mean result with
    and without the restriction), ``difference``, ``low``, ``high`` (the adjusted
    interval), ``level`` (the error rate Holm tested it at), ``p``, ``named``, ``bites``
    (the share of the seat's decisions the restriction changed what was open to it),
    ``changed`` (the share of games whose result changed)); ``data`` holds every game.
    """
    refuse_in_starting_worker()
    whole("max_kinds", max_kinds, 1, where=WHERE)
    if not isinstance(progress, bool):
        raise GameError(f"{WHERE}: progress must be True or False, got {shown(progress)}")
    check_axes(ax, 1, WHERE)
    import pandas as pd

    with pool_for(executor, WHERE) as pool:
        base, spec = _baseline(source, games, bots, players, rules, seed, pool, progress, max_actions)
        n = spec.players
        counts: dict[str, int] = {}
        for ks in base["trace_kinds"]:
            for k in ks:
                if k:
                    counts[k] = counts.get(k, 0) + 1
        chosen = sorted(counts, key=lambda k: -counts[k])
        contested = {k for seats in base["trace_contested"] for kinds in seats for k in kinds}
        groups = kind_groups(spec.game, [k for k in chosen if k in contested])
        tested, left = groups[:max_kinds], groups[max_kinds:]
        frames = []
        if tested:
            for group in tested:
                bitten = _bitten(base, group, n)
                rspec = RestrictedSpec(**{f: getattr(spec, f) for f in Spec.__dataclass_fields__}, group=group,
                                       bitten=bitten)
                df = run_spec(rspec, len(base), pool, None, progress, desc=f"{WHERE}: never {_name(group)}", stacklevel=3)
                frames.append(df.assign(what=_name(group)))
    rows = [_row_of(group, base, df, n) for group, df in zip(tested, frames, strict=True)]
    table = pd.DataFrame(rows, columns=COLUMNS)
    if len(table):
        named, levels = holm(list(table["p"]))
        table["named"], table["level"] = named, levels
        for i, level in enumerate(levels):
            z = statistics.NormalDist().inv_cdf(1 - level / 2)
            d, se = table.at[i, "difference"], table.at[i, "se"]
            lo, hi = d - z * se, d + z * se
            if not named[i]:  # few changed games: the exact test keeps 0, so does the interval
                lo, hi = min(lo, 0.0), max(hi, 0.0)
            table.at[i, "low"], table.at[i, "high"] = lo, hi
    table = table.astype({"games": "int64", "named": bool})
    table.attrs.update(game=spec.game.name, players=n, bot=bot_label(spec.bots[0]), seed=spec.seed, games=len(base),
                       kept_from_ending={_name(g): list(df.attrs.get("unfinished", ())) for g, df in zip(tested, frames, strict=True)
                                         if df.attrs.get("unfinished")},
                       compared=len(table), not_compared=[_name(g) for g in left], declared=declares_kinds(spec.game),
                       no_choice=[k for k in chosen if k not in contested], kinds_chosen=chosen,
                       unfinished=len(base.attrs.get("unfinished", ())))
    data = pd.concat(frames, ignore_index=True) if frames else None
    return _result(table, n, ax, data)


COLUMNS = ["what", "kinds", "games", "restricted", "unrestricted", "difference", "low", "high", "se", "p", "level",
           "named", "bites", "changed"]


def _name(group: Sequence[str]) -> str:
    """A kind's name, or a mirror group's: the words its members share, then what differs
    ("draw camp orc / dwarf / goblin / giant (mirror images)")."""
    if len(group) == 1:
        return group[0]
    words = [g.split() for g in group]
    shared = 0
    while all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
        shared += 1
    head = " ".join(words[0][:shared])
    return f"{head + ' ' if head else ''}{' / '.join(' '.join(w[shared:]) for w in words)} (mirror images)"


def _baseline(source: Any, games: int, bots: Any, players: Any, rules: Any, seed: Any, pool: Any, progress: bool,
              max_actions: Any) -> tuple[pd.DataFrame, Spec]:
    """The unrestricted games (with their kinds) and the run's spec: the given table's first
    ``games`` games, or ``games`` games of the reference bot played here."""
    import pandas as pd

    whole("games", games, 2, where=WHERE)
    if isinstance(source, pd.DataFrame):
        need_results(source, WHERE, games=False)
        a = source.attrs
        specs = tuple(a.get("bot_specs", ()))
        if "trace_kinds" not in source.columns or "trace_contested" not in source.columns or not specs \
                or a.get("kinds") != "game" or "seed" not in a or "players" not in a:
            raise GameError(f"{WHERE}: the table must come from kum.lab.traced with the game's own kinds (no kinds=), "
                            "or pass the game")
        if len({bot_label(b) for b in specs}) != 1 or not a.get("rotate", True):
            raise GameError(f"{WHERE}: restricted play compares a bot with itself: the table's games must have one bot "
                            f"at every seat, got {', '.join(bot_label(b) for b in specs)}")
        spec = _check(games, a["players"], specs, None, a["seed"], pool, False, True, None, game_of(source, WHERE),
                      a.get("max_actions"), "skip", where=WHERE)
        if int(a.get("games", len(source))) < games:
            raise GameError(f"{WHERE}: the table has {a.get('games', len(source))} games, fewer than games={games}")
        base = source[source["game"] < games].reset_index(drop=True)  # (those that ended: the others are not played)
        if len(base) < 2:
            raise GameError(f"{WHERE}: {len(base)} of the table's first {games} games ended: too few to compare")
        return base, spec
    if not isinstance(bots, str) and not callable(bots):
        raise GameError(f"{WHERE}: bots is the one reference bot every seat plays (a name or a factory f(seed) -> bot), "
                        f"got {shown(bots)}")
    spec = _check(games, players, bots, rules, seed, pool, False, True, None, source, max_actions, "skip", where=WHERE)
    tspec = TraceSpec.of(spec, evaluator="none")
    base = run_spec(tspec, games, pool, None, progress, desc=f"{WHERE}: as it likes", stacklevel=4)
    if 2 * len(base.attrs.get("unfinished", ())) >= games:
        raise GameError(f"{WHERE}: {len(base.attrs['unfinished'])} of {games} games did not end within "
                        f"max_actions={max_actions}: check the game with core.check_game")
    return base, spec


def _bitten(base: pd.DataFrame, group: tuple[str, ...], n: int) -> frozenset[int]:
    """The games whose restricted seat had, at some decision, to choose between the kind it
    is kept from and another: in the others the restricted game is the unrestricted one,
    move for move (the bot is handed the same actions at every decision). Games that did
    not end unrestricted are not among them: there is nothing to pair them with."""
    if "trace_contested" not in base.columns:
        return frozenset(int(g) for g in base["game"])
    out = set()
    for g, contested in zip(base["game"], base["trace_contested"], strict=True):
        g = int(g)
        seat, kind = g % n, group[(g // n) % len(group)]
        if kind in contested[seat]:
            out.add(g)
    return frozenset(out)


EXACT_UP_TO = 16
"""With at most this many games changed, the p-value is the exact sign-flip one."""


def _paired_p(diffs: Sequence[float]) -> float:
    """The two-sided p-value of "the restriction changes nothing" from the paired changes:
    under it each change is as likely to go either way, so with few changed games every
    sign pattern is counted (an exact sign-flip test), with more the normal approximation.

    >>> round(_paired_p([-1.0] * 4 + [0.0] * 196), 3)  # four games lost, none won: not yet clear
    0.125
    """
    changed = [x for x in diffs if x != 0]
    if not changed:
        return 1.0
    if len(changed) <= EXACT_UP_TO:
        seen = abs(sum(changed))
        flips = [abs(sum(x if (mask >> i) & 1 else -x for i, x in enumerate(changed))) for mask in range(2 ** len(changed))]
        return sum(1 for f in flips if f >= seen - 1e-12) / len(flips)
    k = len(diffs)
    se = statistics.stdev(diffs) / math.sqrt(k)
    d = statistics.fmean(diffs)
    return 1.0 if se == 0 and d == 0 else 0.0 if se == 0 else 2 * (1 - statistics.NormalDist().cdf(abs(d) / se))


def _outcome(row: Any, seat: int, n: int) -> float:
    """A seat's result: its share of the win (a tie shares it; no winner: 1/n), a solitaire's score."""
    if n == 1:
        return float(row["score_0"])
    winners = tuple(row["winners"])
    if not winners:
        return 1.0 / n
    return 1.0 / len(winners) if seat in winners else 0.0


def _row_of(group: tuple[str, ...], base: pd.DataFrame, df: pd.DataFrame, n: int) -> dict[str, Any]:
    before = {int(r["game"]): r for _, r in base.iterrows()}
    diffs, mine, theirs, bites, decisions, changed = [], [], [], 0, 0, 0
    for _, r in df.iterrows():
        g = int(r["game"])
        if g not in before:
            continue
        seat = int(r["restricted_seat"])
        b = _outcome(before[g], seat, n)
        a = b if r["unchanged"] else _outcome(r, seat, n)
        diffs.append(a - b)
        mine.append(a)
        theirs.append(b)
        bites += int(r["bites"])
        decisions += int(r["seat_decisions"])
        changed += a != b
    k = len(diffs)
    d = statistics.fmean(diffs) if diffs else math.nan
    se = statistics.stdev(diffs) / math.sqrt(k) if k > 1 else math.nan
    p = _paired_p(diffs)
    return {"what": _name(group), "kinds": group, "games": k, "restricted": statistics.fmean(mine) if k else math.nan,
            "unrestricted": statistics.fmean(theirs) if k else math.nan, "difference": d, "low": math.nan,
            "high": math.nan, "se": se, "p": p, "level": ALPHA, "named": False,
            "bites": bites / decisions if decisions else 0.0, "changed": changed / k if k else math.nan}


def _result(table: pd.DataFrame, n: int, ax: Any, data: Any) -> LabResult:
    a = table.attrs
    solitaire = n == 1
    fig, axes = axes_of(ax, height=max(2.5, 0.4 * len(table) + 1.2))
    unit = 1.0 if solitaire else 100.0
    if len(table):
        ys = list(range(len(table)))[::-1]
        d, lo, hi = table["difference"] * unit, table["low"] * unit, table["high"] * unit
        colours = ["#27ae60" if x > 0 else "#c0392b" if y < 0 else "#95a5a6" for x, y in zip(lo, hi, strict=True)]
        axes.barh(ys, d, xerr=[(d - lo).clip(lower=0).fillna(0), (hi - d).clip(lower=0).fillna(0)], color=colours, capsize=3)
        axes.set_yticks(ys, [str(w) for w in table["what"]])
        reach = max(10.0 if not solitaire else 1.0, float(max(lo.abs().max(), hi.abs().max(), d.abs().max())) * 1.1)
        axes.set_xlim(-reach, reach)
    axes.axvline(0, color="grey")
    axes.set_xlabel("change in the restricted seat's score" if solitaire else
                    "change in the restricted seat's share of wins (percentage points)")
    axes.set_title("What wins: never taking a kind of action")
    reading = _reading(table, n)
    about = (f"Restricted play (Jaffe et al. 2012): the {a.get('bot')} bot plays itself on {a.get('games')} deals, then "
             "the same deals again, with the same seeds for every bot, with one seat (each seat in turn) that never "
             "takes the kind when it has another choice. The difference is that seat's result with the restriction "
             "minus without, game by game: it is caused by the restriction, since nothing else changed. "
             + ("A mirror group (kinds the game declares mirror images) is one question: each game restricts one of "
                "its members in turn. " if any(len(k) > 1 for k in table["kinds"]) else "")
             + f"Intervals are adjusted for the {len(table)} kinds compared (Holm's step-down procedure, a 5% chance "
             "in all of naming a kind that changes nothing): a kind is named only when its interval leaves out 0. "
             f"With {EXACT_UP_TO} changed games or fewer, the test is the exact sign-flip one (every way the changes "
             "could have gone counted), and an interval it does not support is widened to 0. "
             "'Bites' is the share of the seat's decisions where the restriction took a choice away.")
    if not a.get("declared"):
        about += (" This game declares no action kinds (CardGame.action_kind), so its actions are grouped by the "
                  "words of their text before the first number.")
    if a.get("not_compared"):
        about += f" Not compared (chosen least often): {', '.join(a['not_compared'])}."
    if a.get("kept_from_ending"):
        about += (" Restricted games that ran past the action limit are left out of their kind's pairs: "
                  + "; ".join(f"{k}: games {', '.join(map(str, v[:8]))}" for k, v in a["kept_from_ending"].items()) + ".")
    if a.get("unfinished"):
        about += f" {a['unfinished']} unrestricted games ran past the action limit and have no pair."
    if a.get("no_choice"):
        about += (f" Never a choice between kinds (nothing to restrict): {', '.join(a['no_choice'])}.")
    table.attrs.update(best=next((str(w) for w, k in zip(table["what"], table["named"], strict=True) if k), None))
    shown_ = ("what", "games", "restricted", "unrestricted", "difference", "low", "high", "bites", "changed")
    words = {"restricted": "with the restriction", "unrestricted": "without", "difference": "with minus without",
             "bites": "decisions it changed", "changed": "games it changed"}
    return LabResult(table, fig, axes, "What wins? (an experiment)", data, reading=reading, about=about, labels=words,
                     shown=shown_, percent=("bites", "changed") if solitaire else
                     ("restricted", "unrestricted", "difference", "low", "high", "bites", "changed"))


def _reading(table: pd.DataFrame, n: int) -> str:
    a = table.attrs
    if not len(table):
        kinds = a.get("kinds_chosen") or []
        only = f" (every action it chose is “{kinds[0]}”)" if len(kinds) == 1 else ""
        return (f"There is nothing to compare: the {a.get('bot')} bot never had to choose between two kinds of action"
                f"{only}, so no player can be kept from a kind while another choice is left.")
    k = len(table)
    solitaire = n == 1

    def size(row: Any) -> str:
        d, lo, hi = (abs(row[c]) for c in ("difference", "low", "high"))
        lo, hi = min(lo, hi), max(lo, hi)
        if solitaire:
            return f"{d:.1f} points [{lo:.1f}, {hi:.1f}]"
        return f"{100 * d:.0f} points [{100 * lo:.0f}, {100 * hi:.0f}]"

    def change(row: Any) -> str:
        what = "the score" if solitaire else "the player's share of wins"
        return f"{'lowers' if row['difference'] < 0 else 'raises'} {what} by {size(row)}"

    named = table[table["named"]]
    compared = f"{k} kind{'s' if k > 1 else ''} compared, intervals adjusted for them" if k > 1 else "1 kind compared"
    if not (table["changed"] > 0).any():
        which = f"any one of the {k} kinds compared" if k > 1 else f"“{table['what'].iloc[0]}”"
        return f"No difference found: never taking {which} changed the result of a single game."
    if not len(named):
        far = table.loc[(table["difference"].abs()).idxmax()]
        scale, unit = (1.0, "points of score") if solitaire else (100.0, "points of win share")
        signed = (f"{scale * far['difference']:+.{1 if solitaire else 0}f} {unit} [{scale * far['low']:+.{1 if solitaire else 0}f}, "
                  f"{scale * far['high']:+.{1 if solitaire else 0}f}]")
        which = f"any one of the {k} kinds" if k > 1 else f"“{far['what']}”"
        return (f"No difference found: never taking {which} changed the result clearly ({compared}; the largest "
                f"change, never “{far['what']}”, {signed}, an interval that includes 0).")
    parts = []
    for _, row in named.sort_values("difference").iterrows():
        parts.append(f"never taking “{row['what']}” {change(row)}")
    rest = k - len(named)
    tail = f"; no difference found for the other {rest}" if rest else ""
    text = "; ".join(parts)
    return f"{text[:1].upper()}{text[1:]} ({compared}){tail}."
