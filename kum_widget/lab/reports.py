"""``kum.lab.report``: every question a designer asks of a game, answered in one call.

>>> import kum_widget as kum
>>> r = kum.lab.report("bust", games=40, ladder=False, progress=False)
>>> [s.key for s in r.sections]
['balance', 'length', 'decisions', 'luck', 'drama', 'what_wins', 'associations']
>>> r["balance"].reading.startswith("The first player wins")
True
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from .associations import associations
from .checks import default_players, whole
from .design import balance, decisions, length, target_of
from .design_map import real_share
from .drama import drama
from .hand_in import HandIn
from .ladder import BATCH, DEFAULT_GAMES, plan, rungs_of, skill_ladder
from .luck import luck
from .measure import MEAN_LINE, players_of, traced
from .play import DEFAULT_MAX_ACTIONS, bot_label, changed_options, the_game, title_of, with_rules
from .restricted import what_wins
from .result import LabResult
from .stats import mean_interval
from .sweep import HEADLINES, headline, sweep
from .trace import evaluator_of
from .workers import pool_for, refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Report", "Section", "report", "SECTIONS"]

SECTIONS = {
    "balance": "Who wins, and does moving first matter?",
    "length": "How long is a game?",
    "decisions": "How much is there to decide, and does it matter?",
    "luck": "How much does chance decide?",
    "skill": "Does the better player win?",
    "drama": "Does the lead change, and how early is the winner settled?",
    "what_wins": "What wins? (an experiment)",
    "associations": "Which plays go with winning? (associations, not causes)",
    "sweep": "What does one rule change do?",
    "pooled": "How do our own games compare with the bots'?",
}
"""Each part of the report, by key, and the question it answers."""

SOLITAIRE_SECTIONS = {
    "balance": "How do scores spread, and how often is each result reached?",
    "luck": "How much does the deal decide the score?",
    "skill": "Does a better player score more on the same deal?",
    "what_wins": "What raises the score? (an experiment)",
    "associations": "Which plays go with a higher score? (associations, not causes)",
}
"""The questions a solitaire's report answers where they differ."""

PROBE_GAMES = 10
"""The report plays its first games in a batch of this many: when half of them or more run
past ``max_actions``, the game does not end and the report says so at once."""


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
           kinds: Any = None, pooled: HandIn | Sequence[Any] | None = None, what_wins_games: int = 200, luck_games: int = 200,
           max_actions: int | None = DEFAULT_MAX_ACTIONS, time_limit: float | None = 1800.0) -> Report:
    """The design report of ``game`` (a name, a CardGame or its class; None: the default):
    ``games`` games between ``bots`` (as ``simulate`` takes them; same seeds, same games
    on every executor) answer balance, length (against ``target``, a range of turns),
    decisions, drama (from ``evaluator``, see :func:`~kum_widget.lab.traced`) and the
    associations of plays with winning (``kinds``: how actions are grouped); luck replays
    ``luck_games`` of those deals with other bot seeds (:func:`~kum_widget.lab.luck`);
    what wins is an experiment on ``what_wins_games`` of the deals
    (:func:`~kum_widget.lab.what_wins`, the reference bot being ``bots``, or its first
    bot); the skill ladder (``ladder``: True for the default rungs, a list of bots weakest
    first, or False) plays at most ``ladder_games`` games a match (sequentially: it stops
    when the answer is clear); ``sweep_option`` over ``sweep_values`` adds a sweep of
    ``sweep_games`` games a value; ``pooled`` (the games people played, of this game under
    these rules: what :func:`~kum_widget.lab.load` read from a folder of handed-in files, or
    a list of finished sessions or their records) adds their games beside the bots'; what
    cannot be measured on games known by their outcome alone (a seat's replay) is named,
    not computed. A solitaire's report has no drama.

    Games past ``max_actions`` are left out, counted and named in the report (when half
    of the first :data:`PROBE_GAMES` run past it, the game does not end: a GameError says
    so at once). ``time_limit`` (seconds; None: none) is a safety stop only, looked at
    before each part (a part already running finishes): the parts left when it runs out
    are not played, and the report says which (every estimate has a step budget, so the
    same seed gives the same report on every executor).
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
    whole("games", games, 2, where="report")
    whole("what_wins_games", what_wins_games, 2, where="report")
    whole("luck_games", luck_games, 2, where="report")
    if time_limit is not None and (type(time_limit) not in (int, float) or not 0 < time_limit < math.inf):
        raise GameError(f"report: time_limit must be a number of seconds above 0, or None, got {shown(time_limit)}")
    if not isinstance(progress, bool):
        raise GameError(f"report: progress must be True or False, got {shown(progress)}")
    most, batch = (DEFAULT_GAMES, BATCH) if ladder_games is None else _ladder_plan(ladder_games)
    if ladder is not True and ladder is not False:
        rungs_of(ladder)
    target_of(target)
    if sweep_option is not None:
        _check_sweep(the, sweep_option, sweep_values, sweep_games)
    people = _people(pooled, the) if pooled is not None else None  # refused before a game is played
    if people is not None:
        seats = default_players(bots, the) if players is None else players
        if people.players != seats:
            raise GameError(f"report: the pooled games have {people.players} players, the report's {seats}")
    sections: list[Section] = []
    timings: dict[str, float] = {}
    skipped: list[str] = []
    n = 0
    tables: dict[str, Any] = {}

    def late() -> bool:
        return time_limit is not None and time.perf_counter() - start > time_limit

    def add(key: str, make: Any) -> None:
        if late():
            skipped.append(key)
            return
        t0 = time.perf_counter()
        result = make()
        timings[key] = time.perf_counter() - t0
        question = SOLITAIRE_SECTIONS.get(key, SECTIONS[key]) if n == 1 else SECTIONS[key]
        sections.append(Section(key, result.title, question, result, timings[key]))

    with pool_for(executor, "report") as pool:
        t0 = time.perf_counter()
        solitaire = (default_players(bots, the) if players is None else players) == 1  # a bad value: traced names it
        run = dict(players=players, bots=bots, seed=seed, executor=pool, evaluator="none" if solitaire else evaluator,
                   max_actions=max_actions, options=True)
        probe = min(PROBE_GAMES, games)
        with warnings.catch_warnings(record=True) as said:  # a game that does not end is refused, not also warned of
            warnings.simplefilter("always")
            first = traced(the, probe, progress=False, **run)
        lost = len(first.attrs.get("unfinished", ()))
        if 2 * lost >= probe:
            raise GameError(f"report: {title_of(the)} does not end: {lost} of its first {probe} games ran past "
                            f"max_actions={max_actions} actions (check it with core.check_game, or raise max_actions)")
        for w in said:
            warnings.warn(w.message, w.category, stacklevel=2)
        t = first if games == probe else _joined(first, traced(the, games - probe, progress=progress, start=probe, **run))
        timings["playing the games"] = time.perf_counter() - t0
        tables["games"] = t
        n = players_of(t)
        unfinished = tuple(t.attrs.get("unfinished", ()))
        add("balance", lambda: balance(t))
        add("length", lambda: length(t, target=target))
        add("decisions", lambda: decisions(t))
        proven = bool(sections[-1].result.table.attrs.get("proven_none")) if sections else False
        single = isinstance(bots, str) or callable(bots)
        reference = bots if single else next(iter(bots))
        if single:
            add("luck", lambda: luck(t, games=min(luck_games, len(t)), progress=progress, executor=pool))
        else:  # luck compares plays of a deal by one bot at every seat
            add("luck", lambda: luck(the, games=luck_games, bots=reference, players=n, seed=seed, progress=progress,
                                     executor=pool, max_actions=max_actions))
        if ladder is not False:
            rungs = None if ladder is True else list(ladder)
            add("skill", lambda: _no_decision(sections) if proven else skill_ladder(
                the, players=n, rungs=rungs, seed=seed, executor=pool, progress=progress, max_actions=max_actions,
                games=most, batch=batch))
        if n > 1 and evaluator != "none":
            add("drama", lambda: drama(t))
        if single:
            add("what_wins", lambda: what_wins(t, games=min(what_wins_games, len(t)), executor=pool, progress=progress))
        else:
            add("what_wins", lambda: what_wins(the, games=what_wins_games, bots=reference, players=n, seed=seed,
                                               executor=pool, progress=progress, max_actions=max_actions))
        add("associations", lambda: associations(t, kinds=kinds))
        if sweep_option is not None:
            add("sweep", lambda: sweep(sweep_option, sweep_values or (), the, games=sweep_games, players=n, bots=bots,
                                       seed=seed, executor=pool, progress=progress, max_actions=max_actions))
        if people is not None:
            add("pooled", lambda: _pooled(t, people))
    bots_text = ", ".join(sorted(set(t.attrs.get("bots", ())))) or bot_label(bots) if isinstance(bots, str) else str(bots)
    settings = {
        "game": title_of(the), "rules": ", ".join(f"{k}={v}" for k, v in changed_options(the).items()) or "standard rules",
        "players": str(n), "games": f"{len(t)} ({bots_text})", "seed": str(seed),
        "position evaluator": str(t.attrs.get("evaluator", "none")), "executor": str(t.attrs.get("executor", "")),
        "games past the action limit": _listed(unfinished, max_actions),
        **({"pooled games": people.describe()} if people is not None else {}),
        "seconds": f"{time.perf_counter() - start:.1f}",
    }
    if skipped:
        settings["cut short"] = (f"the time limit ({time_limit:g} s) ran out before {', '.join(skipped)}: "
                                 "those parts were not played")
    subtitle = f"{title_of(the)}, {n} player{'s' if n > 1 else ''}: {len(t)} games of {bots_text}, seed {seed}"
    if unfinished:
        subtitle += f" ({len(unfinished)} more ran past {max_actions} actions and are left out)"
    out = Report(f"Design report: {title_of(the)}", subtitle, sections, settings, timings, tables)
    return out


def _ladder_plan(ladder_games: Any) -> tuple[int, int]:
    if type(ladder_games) is not int or ladder_games < 2:
        raise GameError(f"report: ladder_games must be a whole number >= 2 (the most games a match plays), got "
                        f"{shown(ladder_games)}")
    return plan(ladder_games)


def _check_sweep(the: Any, option: str, values: Any, games: Any) -> None:
    """A sweep's values and games, refused before anything is played."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not 1 <= len(values) <= 10:
        raise GameError(f"report: sweep_values must list 1 to 10 values of {option}, got {shown(values)}")
    for value in values:
        try:
            the.with_options({option: value})
        except Exception as exc:  # the game's own words
            raise GameError(f"report: {title_of(the)} refuses {option}={shown(value)} ({exc})") from None
    whole("sweep_games", games, 1, where="report")


def _joined(first: pd.DataFrame, rest: pd.DataFrame) -> pd.DataFrame:
    """Two traced runs of one game, numbered one after the other, as one table."""
    import pandas as pd

    t = pd.concat([first, rest], ignore_index=True)
    t.attrs = dict(first.attrs)
    t.attrs.update(games=first.attrs["games"] + rest.attrs["games"], finished=len(t),
                   unfinished=tuple(first.attrs.get("unfinished", ())) + tuple(rest.attrs.get("unfinished", ())),
                   seconds=first.attrs.get("seconds", 0.0) + rest.attrs.get("seconds", 0.0),
                   interrupted=bool(rest.attrs.get("interrupted")))
    return t


def _listed(unfinished: tuple[int, ...], limit: Any) -> str:
    if not unfinished:
        return "none"
    shown_ = ", ".join(map(str, unfinished[:10])) + (f" and {len(unfinished) - 10} more" if len(unfinished) > 10 else "")
    return f"{len(unfinished)} (games {shown_}), past {limit} actions: left out of every part"


def _no_decision(sections: list[Section]) -> LabResult:
    """The skill section of a game whose decisions are proven not to matter: no ladder to play."""
    import pandas as pd

    from .result import axes_of

    fig, a = axes_of(None, height=1.6)
    a.axis("off")
    a.text(0.5, 0.5, "No decision matters: nothing for skill to act on", ha="center", va="center")
    table = pd.DataFrame([{"measure": "skill", "value": 0.0}])
    table.attrs.update(skill=0.0, skill_low=0.0, skill_high=0.0, proven_none=True)
    return LabResult(table, fig, a, "Skill: does the better player win?",
                     reading=("No decision matters: in every game played, every option of every decision led to the "
                              "same position, so no player can play better than another (proven on these games; no "
                              "ladder was played)."),
                     about="Proven from the decisions section: every legal action of every decision was played on a "
                           "copy of the position and all led to one position (or the move was forced).")


def _people(pooled: Any, the: Any) -> HandIn:
    """``pooled=`` checked before any game is played: finished games of this game under these
    rules, as :func:`~kum_widget.lab.load` read them, or listed (each a session or its record,
    text or dict)."""
    from ..core.session import Session

    if isinstance(pooled, HandIn):
        if type(pooled.game) is not type(the):  # (a subclass may change any rule: the same name is not the same game)
            named = title_of(pooled.game) if title_of(pooled.game) != title_of(the) else type(pooled.game).__name__
            raise GameError(f"report: the pooled games are games of {named}, not of {title_of(the)} ({type(the).__name__})")
        _same_rules("the pooled games were", pooled.game, the)
        return pooled
    if isinstance(pooled, (str, bytes, dict)) or not isinstance(pooled, Sequence) or not pooled:
        raise GameError(f"report: pooled must list finished games (sessions or records), or be the games kum.lab.load "
                        f"read, got {shown(pooled)}")
    out = []
    for i, item in enumerate(pooled):
        if isinstance(item, Session):
            s = item
        elif isinstance(item, (str, dict)):
            try:
                s = Session.from_record(item, game=the) if isinstance(item, str) else Session.from_dict(item, game=the)
            except GameError as exc:
                raise GameError(f"report: pooled game {i} is not a record of {title_of(the)} ({exc})") from None
        else:
            raise GameError(f"report: pooled game {i} must be a session or its record, got {shown(item)}")
        if type(s.game) is not type(the):  # (a subclass may change any rule: the same name is not the same game)
            named = title_of(s.game) if title_of(s.game) != title_of(the) else f"{type(s.game).__name__}"
            raise GameError(f"report: pooled game {i} is a game of {named}, not of {title_of(the)} "
                            f"({type(the).__name__})")
        _same_rules(f"pooled game {i} was", s.game, the)
        if not s.is_over:
            raise GameError(f"report: pooled game {i} has not ended ({s.move_number} actions played)")
        out.append(s)
    if len({s.num_players for s in out}) > 1:
        raise GameError(f"report: the pooled games must have one number of players, got {sorted({s.num_players for s in out})}")
    return HandIn(the, tuple(out))


def _same_rules(what: str, game: Any, the: Any) -> None:
    theirs, ours = game.options(), the.options()
    if theirs != ours:
        diff = [k for k in sorted(set(theirs) | set(ours)) if theirs.get(k) != ours.get(k)]
        told = ", ".join(f"{k}={shown(theirs.get(k), 40)} (the report's: {shown(ours.get(k), 40)})" for k in diff[:4])
        raise GameError(f"report: {what} played under other rules: {told}")


NOT_FROM_OUTCOMES = {"real decisions": "it needs each decision's options, and a seat's replay holds only the outcome"}
"""The pooled measures a game known by its outcome alone cannot give, and why."""


def _pooled(bots_table: pd.DataFrame, hand: HandIn) -> LabResult:
    """The headline measures of the bots' games and of people's games, side by side: each of
    people's measured on every game it can be (the real decisions on the games read whole)."""
    import pandas as pd

    from .result import axes_of

    if hand.players != players_of(bots_table):
        raise GameError(f"report: the pooled games have {hand.players} players, the bots' {players_of(bots_table)}")
    label = "class"
    results = hand.results(label=label)
    whole = hand.traced(label=label) if hand.sessions else None
    ours: dict[str, tuple[float, float, float, int]] = {}
    b = balance(results).table.set_index("measure")
    if hand.players > 1:
        names = {"first player's share": "first player's share of decisive games", "draws and shared wins": "draws and shared wins"}
    else:
        names = {"mean score": "mean score", "games won": "games won"}
    for name, row in names.items():
        ours[name] = (float(b.loc[row, "value"]), float(b.loc[row, "low"]), float(b.loc[row, "high"]), len(results))
    ours["turns"] = (*mean_interval([int(x) for x in results["trace_turns"]]), len(results))
    ours["real decisions"] = (*real_share(decisions(whole)), len(whole)) if whole is not None else (math.nan,) * 3 + (0,)
    rows = []
    for name, (m, lo, hi) in headline(bots_table).items():
        rows.append({"measure": name, "games of": "bots", "value": m, "low": lo, "high": hi, "games": len(bots_table)})
    for name, (m, lo, hi, games) in ours.items():
        rows.append({"measure": name, "games of": label, "value": m, "low": lo, "high": hi, "games": games})
    table = pd.DataFrame(rows).astype({"games": "int64"})
    table.attrs["percent_rows"] = [i for i, m in enumerate(table["measure"]) if m not in ("turns", "mean score")]
    table.attrs["outcome_only"] = len(hand.outcomes)
    table.attrs["not_computed"] = dict(NOT_FROM_OUTCOMES) if hand.outcomes else {}
    fig, a = axes_of(None)
    shown_names = list(dict.fromkeys(table["measure"]))
    shares = [m for m in shown_names if m != "turns" and m != "mean score"]
    for k, (source, colour) in enumerate((("bots", "#2e86c1"), (label, "#e67e22"))):
        part = table[(table["games of"] == source) & table["measure"].isin(shares)]
        xs = [i + (k - 0.5) * 0.35 for i in range(len(part))]
        a.bar(xs, part["value"].fillna(0), 0.35, yerr=[(part["value"] - part["low"]).fillna(0), (part["high"] - part["value"]).fillna(0)],
              capsize=3, color=colour, label=f"{source} ({int(part['games'].max()) if len(part) else 0} games)")
    a.set_xticks(range(len(shares)), shares)
    a.set_ylim(0, 1)
    a.legend()
    a.set_title("Our games and the bots'")
    turns = table[table["measure"] == "turns"].set_index("games of")["value"]
    one = len(hand) == 1
    reading = (f"{len(hand)} game{'' if one else 's'} played by people last{'s' if one else ''} {turns.get(label, float('nan')):.0f} turns against "
               f"{turns.get('bots', float('nan')):.0f} for the bots; compare the shares side by side below.")
    if hand.outcomes:
        cannot = ", ".join(NOT_FROM_OUTCOMES)
        reading += (f" {len(hand.outcomes)} of them are known by their outcome alone (a seat's replay), which cannot give "
                    f"{cannot}: " + (f"it is measured on the {len(hand.sessions)} games read whole." if hand.sessions else
                                     "with no game read whole, it is not computed."))
    about = ("People's games (handed in as records, saved games or replays, or from boards) measured exactly as the bots' "
             "are. A game known by its outcome alone (a replay drawn for one seat, which holds only what that seat saw) "
             "gives who won, who moved first and its length, not " + ", ".join(NOT_FROM_OUTCOMES) + " ("
             + "; ".join(NOT_FROM_OUTCOMES.values()) + "). " + "; ".join(
                 f"{k}: {v}" for k, v in HEADLINES.items() if k in shown_names) + ". " + MEAN_LINE)
    return LabResult(table, fig, a, "Our games beside the bots'", reading=reading, about=about)
