"""The game-design lab: simulate many bot games under rule variants, then measure.

>>> import kum_widget as kum
>>> df = kum.simulate(4, bots=("random", "greedy"), seed=3, progress=False)
>>> len(df), list(df["game"])
(4, [0, 1, 2, 3])
>>> bool((df["score_0"] == df["developed_0"] - df["undeveloped_0"]).all())
True
>>> bust = kum.simulate(4, game="bust", bots=("random", "greedy"), progress=False)
>>> kum.lab.win_rate(bust, by="bot").table["games"].tolist()
[4, 4]

The lab plays any game on the core (``kum.simulate(game="bust")``; default Kings Under
Mountains) and knows none: it reaches a game through the registry and its hooks, and
its helpers read the columns the game's ``summary`` gives.

- :func:`simulate` (also ``kum.simulate``): one row per game; :func:`per_seat`: one
  row per (game, seat); :func:`replay`: a game of a run, played again as a session;
  :func:`worker_pool`: worker processes to reuse across runs. A game still going after
  ``max_actions`` actions (default :data:`DEFAULT_MAX_ACTIONS`) raises
  :class:`ActionLimitError`, naming the game and its seed.
- :func:`win_rate`, :func:`score_distribution`, :func:`game_length`, :func:`matchup`,
  :func:`compare`, :func:`score_by_feature`: a table and a plot each (a :class:`LabResult`).
- :func:`report`: the design report, every question at once (a :class:`Report`: shown in
  a notebook, ``save("report.html")`` for one offline file); its parts on their own:
  :func:`balance`, :func:`length`, :func:`decisions`, :func:`luck`, :func:`skill_ladder`
  (with the cheap rung :class:`Noisy` and :class:`ISMCTSAt`), :func:`drama`,
  :func:`what_wins` (an experiment: restricted play, each kind of action in turn),
  :func:`associations` (which plays go with winning, adjusted, labelled as associations),
  :func:`sweep`; :func:`restricted` makes a bot that never takes a kind of action;
  :func:`traced` plays games keeping their course.
- :func:`load`: a class's games handed in (a folder of records, saved games and replays),
  read into a :class:`HandIn` that ``report(..., pooled=...)`` sets beside the bots' games.
- :func:`design_map`: one measure as a heat map over two rule options (up to 10 x 10 rule
  variants, the same deals in every cell).
- Tables a game adds (entry points of the group ``kum_widget.tables``, see :mod:`.game_tables`):
  ``kum.lab.<name>(...)`` as a DataFrame; Kings Under Mountains adds ``deck_table`` and
  ``face_table`` (to write a CSV for ``kum.Deck.from_csv``).
- :func:`wilson`, :func:`clopper_pearson`, :func:`newcombe`, :func:`newcombe_paired`,
  :func:`mean_interval`, :func:`mean_difference`: the intervals used; :mod:`.words`: figures
  in words ("about half", "almost never"), read off their intervals, for readings and notebooks.

Importing this package is light: pandas, matplotlib, tqdm and dask load on first use.
"""

from .analysis import game_length, matchup, rate_table, score_distribution, win_rate
from .associations import associations
from .compare import compare
from .design import balance, decisions, length
from .design_map import design_map
from .drama import drama
from .features import count_columns, score_by_feature
from .hand_in import HandIn, Outcome, load
from .ladder import ISMCTSAt, Noisy, skill_ladder
from .luck import luck
from .measure import traced
from .play import DEFAULT_MAX_ACTIONS, ActionLimitError, bot_seed, columns, game_row, game_seed, seat_bots
from .reports import Report, report
from .restricted import restricted, what_wins
from .result import LabResult
from .simulate import play_game, replay, simulate, worker_pool
from .stats import clopper_pearson, mean_difference, mean_interval, newcombe, newcombe_paired, wilson
from .sweep import sweep
from .tables import per_seat

__all__ = [
    "ISMCTSAt", "Noisy", "associations", "luck", "restricted",
    "Report", "balance", "decisions", "drama", "length", "report", "sweep", "traced", "what_wins",
    "HandIn", "Outcome", "load",
    "skill_ladder",
    "design_map",
    "DEFAULT_MAX_ACTIONS", "ActionLimitError", "LabResult", "bot_seed", "columns", "compare", "count_columns",
    "game_length", "game_row", "game_seed", "matchup", "mean_difference", "mean_interval",
    "clopper_pearson", "newcombe", "newcombe_paired", "per_seat", "play_game", "rate_table", "replay", "score_by_feature",
    "score_distribution", "seat_bots", "simulate", "wilson", "win_rate", "worker_pool",
]


def __getattr__(name: str) -> object:
    # a table a game adds (kum_widget/lab/game_tables.py): found in the installed games' entry points
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .game_tables import game_table

    return game_table(name)


def __dir__() -> list[str]:
    from .game_tables import table_names

    return sorted({*globals(), *table_names()})
