"""``kum.simulate``: many bot-vs-bot games of any game, in this process or on any executor;
``play_game`` and ``replay``: one game of a run, back as its session.

pandas and tqdm load inside the functions, so importing this module stays light.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import GameError, shown
from ..core.game import CardGame
from .checks import check as _check
from .checks import in_browser_tables, need_frame
from .play import DEFAULT_MAX_ACTIONS, BotSpec, integer, play_spec
from .runs import run_spec
from .tables import game_of
from .workers import refuse_in_starting_worker, worker_pool

if TYPE_CHECKING:
    import pandas as pd

    from ..core.session import Session

__all__ = ["simulate", "play_game", "replay", "worker_pool"]


def simulate(
    games: int = 1000,
    players: int | None = None,
    bots: BotSpec | Sequence[BotSpec] = "greedy",
    rules: Any = None,
    seed: int | None = 0,
    executor: int | Executor | Any | None = None,
    progress: bool = True,
    *,
    rotate: bool = True,
    chunksize: int | None = None,
    game: Any = None,
    max_actions: int | None = DEFAULT_MAX_ACTIONS,
    unfinished: Literal["raise", "skip"] = "raise",
) -> pd.DataFrame:
    """Play ``games`` games between bots and return one row per game (a DataFrame).

    Arguments:

    - ``game``: the game: a registered or installed name (``"bust"``), a ``core.CardGame``
      (its rule options as given) or its class; default ``core.registry.default_game()``
      (Kings Under Mountains).
    - ``players``: how many seats (2-4 for Kings Under Mountains, 1 for a solitaire such
      as ``"court"``; the game says). Default: one per bot when ``bots`` lists them, else
      2 (or the game's only number). ``bots``: one bot for every seat (``"greedy"``) or one per seat (``("greedy",
      "random")``). A bot is a name (``"random"``, ``"greedy"``, any name
      ``kum.bots.make_bot`` knows) or a factory ``f(seed) -> bot`` such as a bot class;
      every game gets fresh bots, seeded from the game.
    - ``rules``: the options to change, through the game's ``with_options``: a dict of
      them (``{"limit": 25}``), a rules object with an ``options()`` method giving that
      dict (``kum.CourtRules(price="printed")`` for ``game="court"``), or for Kings Under
      Mountains also a ``kum.Rules``. Its Kings are a rule option too:
      ``rules={"races": "giant,orc"}``.
    - ``seed``: game ``i`` is dealt with ``kum.lab.game_seed(seed, i)`` and the bot at
      ``seat`` is seeded with ``kum.lab.bot_seed(that, seat)``: the same seed gives the
      identical table whatever the executor and the number of workers. ``None`` draws a
      seed (kept in ``df.attrs["seed"]``).
    - ``rotate`` (default True): the bot list turns one seat per game, so ``bots[0]``
      sits at seat ``i % players`` in game ``i`` and every bot plays every seat equally
      often. With ``rotate=False`` seat ``s`` always has ``bots[s]``.
    - ``executor``: ``None`` plays in this process; an int starts that many worker
      processes; any ``concurrent.futures.Executor`` is used as it is (for a cluster:
      ``dask.distributed.Client(...).get_executor()``, or the ``Client`` itself). Games
      go out in chunks of ``chunksize`` (default: up to 50, about 8 chunks per worker), a
      few per worker at a time: memory holds the rows, not the run, whatever ``games``
      is. Worker processes run a script again to start: in a script, call ``simulate``
      with workers under ``if __name__ == "__main__":`` (without it, a ``RuntimeError``
      says so).
    - ``progress``: a progress bar (``tqdm.auto``: a widget in Jupyter).
    - ``max_actions`` (default 10,000, :data:`~kum_widget.lab.play.DEFAULT_MAX_ACTIONS`):
      the most actions a game may take, far more than a card game needs; ``None``: no
      limit. A game still going at the limit never ends, most likely (a bug in the game,
      or a bot that keeps it going: ``core.check_game`` finds out), and by default
      (``unfinished="raise"``) it stops the run with a
      :class:`~kum_widget.lab.play.ActionLimitError` naming the game, its number and its
      seed, on every executor. ``unfinished="skip"`` leaves such games out of the table
      instead, with a warning: their numbers are in ``df.attrs["unfinished"]`` (the
      table then holds only the games that ended, which may bias it).

    Ctrl-C (KeyboardInterrupt, the notebook's stop button) stops the run at once and
    returns the games finished so far, with ``df.attrs["interrupted"] = True`` and a
    warning; before any game finished there is nothing to return, and the
    KeyboardInterrupt goes on (a script stops there). Chunks not started are cancelled
    (or never sent). Worker processes that ``simulate`` started itself (``executor=n``)
    are terminated at once, games running on them dropped, so a script ends promptly
    even if a game there never would; on a pool or cluster of yours, chunks already
    running finish in the background (within ``max_actions``) and are dropped.

    Columns of every game: ``game`` (number in the run, the table is sorted by it),
    ``seed`` (the game's own seed: the game's ``new_session(players, seed=...)`` deals
    it again), ``players``, ``actions``, ``n_winners``, ``winners`` (tuple of seats; a
    tie shares the win) and per seat ``s``: ``bot_s``, ``score_s``, ``win_s`` (also when
    shared). The game's ``summary()`` adds its own (a column per seat ends in ``_s``),
    in the order of its ``columns()`` hook if it has one.

    Kings Under Mountains adds: ``first_player``, ``turns`` (completed), and totals over
    seats of ``claims``, ``developments``, ``claims_by_other``, ``stuck``, ``discards``;
    per seat ``race_s`` (its King), ``developed_s`` and ``undeveloped_s`` (points of
    developed mines, of claimed but undeveloped ones: ``score_s`` is their difference),
    ``claims_s`` (mines claimed for seat s), ``developments_s``, ``claims_by_other_s``
    and ``claims_by_other_points_s`` (mines seat s got through another player's card: a
    ``Claimed`` event with ``seat == s != by``), ``claims_for_other_s`` (mines seat s's
    cards won for someone else), ``stuck_s`` (turns with no legal play, D3) and
    ``discards_s`` (cards discarded when stuck).

    :func:`per_seat` gives the long form. ``df.attrs`` keeps the run's arguments: ``game``
    (its name), ``game_class``, ``rules`` (the game's ``options()``), ``rules_changed``
    (the options that differ from the defaults, as the game names them), ``max_actions``;
    and ``finished`` (the games in the table), ``unfinished`` (the numbers of the games
    left out at ``max_actions``), ``interrupted``.
    """
    refuse_in_starting_worker()  # a worker running a script again, that has no __main__ guard
    in_browser_tables("simulate")
    spec = _check(games, players, bots, rules, seed, executor, progress, rotate, chunksize, game, max_actions,
                  unfinished)
    return run_spec(spec, games, executor, chunksize, progress, stacklevel=3)


def play_game(
    game: int,
    *,
    seed: int = 0,
    players: int = 2,
    bots: Sequence[BotSpec] = ("greedy", "greedy"),
    rules: Any = None,
    rotate: bool = True,
    rules_of: CardGame | None = None,
    max_actions: int | None = DEFAULT_MAX_ACTIONS,
) -> Session:
    """Play game number ``game`` of a run to its end and return it: the session the
    game's ``new_session`` makes (a ``kum.Game`` for Kings Under Mountains, a
    ``core.Session`` for most games), history included: open it on a board, read its
    ``log`` or ``record()``.

    ``rules_of`` is the game (a CardGame, default Kings Under Mountains), ``rules``
    changes its options (see :func:`with_rules`); Kings Under Mountains' Kings are a
    rule option: ``rules={"races": "giant,orc"}``. ``bots`` gives one bot per seat before rotation;
    see :func:`seat_bots`. A game that has not ended after ``max_actions`` actions
    raises :class:`ActionLimitError` (``None``: no limit).
    """
    spec = _check(1, players, bots, rules, seed, None, False, rotate, None, rules_of, max_actions, "raise",
                 where="play_game")
    return play_spec(spec, integer("game", game, "play_game"))


def replay(results: pd.DataFrame, game: int, *, bots: Sequence[BotSpec] | None = None) -> Session:
    """Play game number ``game`` of a ``simulate`` run again and return its session (a
    ``kum.Game`` for Kings Under Mountains, a ``core.Session`` for another game; history
    and log included: put it on a board with ``kum.GameWidget(session)``). ``bots``
    overrides the bot specs kept in ``results.attrs``. The game is played within the
    run's ``max_actions``."""
    need_frame(results, "replay")
    a = results.attrs
    kept = ("seed", "rules", "games", "players", "bot_specs", "rotate")
    if any(k not in a for k in kept) or type(a["games"]) is not int:
        raise GameError(f"replay: this table has lost the attrs of its kum.simulate run (it needs {', '.join(kept)})")
    if type(game) is not int or not 0 <= game < a["games"]:
        raise GameError(f"replay: game must be a game number 0..{a['games'] - 1}, got {shown(game)}")
    if bots is not None and (isinstance(bots, (str, Mapping)) or not isinstance(bots, Sequence)):
        raise GameError(f"replay: bots must list one bot per seat, got {shown(bots)}")
    spec = _check(1, a["players"], tuple(bots or a["bot_specs"]), None, a["seed"], None, False, a["rotate"], None, game_of(results), a.get("max_actions", DEFAULT_MAX_ACTIONS), "raise", where="replay")
    return play_spec(spec, game)
