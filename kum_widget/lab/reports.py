"""``kum.lab.report``: every question a designer asks of a game, answered in one call.

>>> import kum_widget as kum
>>> r = kum.lab.report("bust", games=40, ladder=False, progress=False)
>>> [s.key for s in r.sections]
['balance', 'length', 'decisions', 'drama', 'what_wins']
>>> r["balance"].reading.startswith("The first player wins")
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from .checks import default_players
from .design import balance, decisions, length, players_of, traced
from .drama import drama, what_wins
from .play import DEFAULT_MAX_ACTIONS, bot_label, changed_options, the_game, title_of, with_rules
from .result import LabResult
from .sweep import HEADLINES, class_games, headline, sweep
from .trace import evaluator_of
from .workers import pool_for, refuse_in_starting_worker

DEFAULT_LADDER_GAMES = 40
"""Games per rung of the report's skill ladder (``ladder_games``'s default)."""

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Report", "Section", "report", "SECTIONS"]

SECTIONS = {
    "balance": "Who wins, and does moving first matter?",
    "length": "How long is a game?",
    "decisions": "How much is there to decide, and when?",
    "skill": "Does the better player win, or the luckier one?",
    "drama": "Does the lead change, and how early is the winner settled?",
    "what_wins": "Which plays go with winning?",
    "sweep": "What does one rule change do?",
    "pooled": "How do our own games compare with the bots'?",
}
"""Each part of the report, by key, and the question it answers."""

SOLITAIRE_SECTIONS = {
    "balance": "How do scores spread, and how often is each result reached?",
    "skill": "Does a better player score more on the same deal?",
    "what_wins": "Which plays go with a higher score?",
}
"""The questions a solitaire's report answers where they differ."""


@dataclass
class Section:
    """One part of a report: its ``key`` (of :data:`SECTIONS`), ``title``, the ``question``
    it answers, its ``result`` (a LabResult: ``.reading``, ``.table``, ``.figure``), and the
    ``seconds`` it took."""

    key: str
    title: str
    question: str
    result: LabResult
    seconds: float = 0.0


@dataclass
class Report:
    """A design report: ``sections`` (``report["balance"]`` is a section's LabResult),
    ``settings`` (how it was made), ``timings`` (seconds per part). In a notebook it shows
    itself; ``save("report.html")`` writes one offline HTML file to hand out."""

    title: str
    subtitle: str
    sections: list[Section]
    settings: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    tables: dict[str, Any] = field(default_factory=dict, repr=False)

    def __getitem__(self, key: str) -> LabResult:
        for s in self.sections:
            if s.key == key:
                return s.result
        raise GameError(f"report: no section {shown(key)} (sections: {', '.join(s.key for s in self.sections)})")

    def readings(self) -> dict[str, str]:
        """Each section's one-line answer, by key."""
        return {s.key: s.result.reading for s in self.sections}

    def html(self) -> str:
        """The report as one standalone HTML document (no network, plots embedded)."""
        from .report_html import page

        return str(page(self))

    def save(self, path: str | Path) -> Path:
        """Write :meth:`html` to ``path`` (a ``.html`` file) and return the path."""
        from ..core.files import write_text_file

        if not isinstance(path, (str, Path)) or Path(path).suffix.lower() not in (".html", ".htm"):
            raise GameError(f"report.save: the file must end in .html, got {shown(path)}")
        return write_text_file(path, self.html(), example="report.html")

    def _repr_html_(self) -> str:
        from .report_html import fragment

        return str(fragment(self))

    def __repr__(self) -> str:
        return f"<Report {self.title!r}: {', '.join(s.key for s in self.sections)}>"


def report(game: Any = None, *, players: int | None = None, games: int = 400, bots: Any = "greedy", rules: Any = None,
           seed: int = 0, executor: Any = None, progress: bool = True, target: tuple[float, float] | None = None,
           ladder: bool | Sequence[Any] = True, ladder_games: int | None = None, sweep_option: str | None = None,
           sweep_values: Sequence[Any] | None = None, sweep_games: int = 200, evaluator: Any = "auto",
           kinds: Any = None, pooled: Sequence[Any] | None = None,
           max_actions: int | None = DEFAULT_MAX_ACTIONS) -> Report:
    """The design report of ``game`` (a name, a CardGame or its class; None: the default):
    ``games`` games between ``bots`` (as ``simulate`` takes them; same seeds, same games
    on every executor) answer balance, length (against ``target``, a range of turns),
    decisions, drama (from ``evaluator``, see :func:`~kum_widget.lab.traced`) and what
    wins (``kinds``: how actions are grouped); the skill ladder (``ladder``: True for the
    default rungs, a list of bots weakest first, or False) plays ``ladder_games`` games a
    rung; ``sweep_option`` over ``sweep_values`` adds a sweep of ``sweep_games`` games a
    value; ``pooled`` (finished sessions or records of games people played) adds their
    games beside the bots'. A solitaire's report has no drama.
    """
    refuse_in_starting_worker()  # a script without its __main__ guard, run again in a worker
    start = time.perf_counter()
    the = with_rules(the_game(game, "report"), rules, "report") if rules is not None else the_game(game, "report")
    if not isinstance(ladder, bool) and (isinstance(ladder, str) or not isinstance(ladder, Sequence)):
        raise GameError(f"report: ladder must be True, False or a list of bots weakest first, got {shown(ladder)}")
    if (sweep_option is None) != (sweep_values is None):
        raise GameError("report: a sweep needs both sweep_option (a rule option) and sweep_values (its values)")
    evaluator_of(the, evaluator, 8, "report")  # refused before a game is played, a solitaire's too
    if sweep_option is not None and (not isinstance(sweep_option, str) or sweep_option not in the.options()):
        raise GameError(f"report: sweep_option must be one of {title_of(the)}'s rule options "
                        f"({', '.join(sorted(the.options())) or 'none'}), got {shown(sweep_option)}")
    if kinds is not None and not callable(kinds):
        raise GameError(f"report: kinds must be None or a function from an action's text to its kind, got {shown(kinds)}")
    sections: list[Section] = []
    timings: dict[str, float] = {}
    n = 0
    tables: dict[str, Any] = {}

    def add(key: str, make: Any) -> None:
        t0 = time.perf_counter()
        result = make()
        timings[key] = time.perf_counter() - t0
        question = SOLITAIRE_SECTIONS.get(key, SECTIONS[key]) if n == 1 else SECTIONS[key]
        sections.append(Section(key, result.title, question, result, timings[key]))

    with pool_for(executor, "report") as pool:
        t0 = time.perf_counter()
        solitaire = (default_players(bots, the) if players is None else players) == 1  # a bad value: traced names it
        t = traced(the, games, players=players, bots=bots, seed=seed, executor=pool, progress=progress,
                   evaluator="none" if solitaire else evaluator, max_actions=max_actions)
        timings["playing the games"] = time.perf_counter() - t0
        tables["games"] = t
        if not len(t):
            raise GameError(f"report: none of the {games} games ended within max_actions={max_actions} actions "
                            "(raise max_actions, or check the game with core.check_game)")
        n = players_of(t)
        add("balance", lambda: balance(t))
        add("length", lambda: length(t, target=target))
        add("decisions", lambda: decisions(t))
        if ladder is not False:
            from .ladder import skill_ladder

            rungs = None if ladder is True else list(ladder)
            rung_games = DEFAULT_LADDER_GAMES if ladder_games is None else ladder_games
            add("skill", lambda: skill_ladder(the, players=n, rungs=rungs, games=rung_games, seed=seed, executor=pool,
                                              progress=progress, max_actions=max_actions))
        if n > 1 and evaluator != "none":
            add("drama", lambda: drama(t))
        add("what_wins", lambda: what_wins(t, kinds=kinds))
        if sweep_option is not None:
            add("sweep", lambda: sweep(sweep_option, sweep_values or (), the, games=sweep_games, players=n, bots=bots,
                                       seed=seed, executor=pool, progress=progress))
        if pooled is not None:
            add("pooled", lambda: _pooled(t, class_games(pooled, game=the)))
    bots_text = ", ".join(sorted(set(t.attrs.get("bots", ())))) or bot_label(bots) if isinstance(bots, str) else str(bots)
    settings = {
        "game": title_of(the), "rules": ", ".join(f"{k}={v}" for k, v in changed_options(the).items()) or "standard rules",
        "players": str(n), "games": f"{len(t)} ({bots_text})", "seed": str(seed),
        "position evaluator": str(t.attrs.get("evaluator", "none")), "executor": str(t.attrs.get("executor", "")),
        "seconds": f"{time.perf_counter() - start:.1f}",
    }
    subtitle = f"{title_of(the)}, {n} player{'s' if n > 1 else ''}: {len(t)} games of {bots_text}, seed {seed}"
    return Report(f"Design report: {title_of(the)}", subtitle, sections, settings, timings, tables)


def _pooled(bots_table: pd.DataFrame, people: pd.DataFrame) -> LabResult:
    """The headline measures of the bots' games and of people's games, side by side."""
    import pandas as pd

    from .result import axes_of

    if players_of(people) != players_of(bots_table):
        raise GameError(f"report: the pooled games have {players_of(people)} players, the bots' {players_of(bots_table)}")
    label = str(people.attrs.get("source", "class"))
    rows = []
    for source, t in (("bots", bots_table), (label, people)):
        for name, (m, lo, hi) in headline(t).items():
            rows.append({"measure": name, "games of": source, "value": m, "low": lo, "high": hi, "games": len(t)})
    table = pd.DataFrame(rows).astype({"games": "int64"})
    table.attrs["percent_rows"] = [i for i, m in enumerate(table["measure"]) if m not in ("turns", "mean score")]
    fig, a = axes_of(None)
    names = list(dict.fromkeys(table["measure"]))
    shares = [m for m in names if m != "turns" and m != "mean score"]
    for k, (source, colour) in enumerate((("bots", "#2e86c1"), (label, "#e67e22"))):
        part = table[(table["games of"] == source) & table["measure"].isin(shares)]
        xs = [i + (k - 0.5) * 0.35 for i in range(len(part))]
        a.bar(xs, part["value"], 0.35, yerr=[(part["value"] - part["low"]).fillna(0), (part["high"] - part["value"]).fillna(0)],
              capsize=3, color=colour, label=f"{source} ({int(part['games'].iloc[0]) if len(part) else 0} games)")
    a.set_xticks(range(len(shares)), shares)
    a.set_ylim(0, 1)
    a.legend()
    a.set_title("Our games and the bots'")
    turns = table[table["measure"] == "turns"].set_index("games of")["value"]
    reading = (f"{len(people)} games played by people last {turns.get(label, float('nan')):.0f} turns against "
               f"{turns.get('bots', float('nan')):.0f} for the bots; compare the shares side by side below.")
    about = "People's games (from boards or records) measured exactly as the bots' are. " + "; ".join(
        f"{k}: {v}" for k, v in HEADLINES.items() if k in names) + "."
    return LabResult(table, fig, a, "Our games beside the bots'", reading=reading, about=about)
