"""``kum.simulate``: many bot-vs-bot games, in this process or on any executor.

pandas and tqdm load inside the functions, so importing this module stays light.
"""

from __future__ import annotations

import math
import pickle
import re
import secrets
import signal
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any

from ..core.errors import shown
from ..games.kum import Game, KumError, Rules
from .play import GAME_COLUMNS, PER_SEAT, BotSpec, Spec, bot_label, columns, play_game, run_chunk

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["simulate", "per_seat", "replay", "worker_pool"]

MAX_CHUNK = 50


def simulate(
    games: int = 1000,
    players: int = 2,
    bots: BotSpec | Sequence[BotSpec] = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int | None = 0,
    executor: int | Executor | Any | None = None,
    progress: bool = True,
    *,
    races: Sequence[str] | None = None,
    rotate: bool = True,
    chunksize: int | None = None,
    game: Any = None,
) -> pd.DataFrame:
    """Play ``games`` games between bots and return one row per game (a DataFrame).

    Arguments:

    - ``game``: the game: a registered name (``"bust"``), a ``core.CardGame`` (its rule
      options as given) or its class; default Kings Under Mountains. For another game,
      ``rules`` is a dict of its options to change, and the columns after the lab's own
      (``game``, ``seed``, ``players``, ``actions``, ``n_winners``, ``winners``, and per
      seat ``bot_s``, ``score_s``, ``win_s``) are the game's ``summary()``.
    - ``players``: 2-4 seats. ``bots``: one bot for every seat (``"greedy"``) or one
      per seat (``("greedy", "random")``). A bot is a name (``"random"``, ``"greedy"``,
      any name ``kum.bots.make_bot`` knows) or a factory ``f(seed) -> bot`` such as a
      bot class; every game gets fresh bots, seeded from the game.
    - ``rules``: a ``kum.Rules`` (or a dict of options changed from the defaults).
    - ``seed``: game ``i`` is dealt with ``kum.lab.game_seed(seed, i)`` and the bot at
      ``seat`` is seeded with ``kum.lab.bot_seed(that, seat)``: the same seed gives the
      identical table whatever the executor and the number of workers. ``None`` draws a
      seed (kept in ``df.attrs["seed"]``).
    - ``rotate`` (default True): the bot list turns one seat per game, so ``bots[0]``
      sits at seat ``i % players`` in game ``i`` and every bot plays every seat equally
      often. With ``rotate=False`` seat ``s`` always has ``bots[s]``.
    - ``races``: King race per seat (default: dealt from each game's seed).
    - ``executor``: ``None`` plays in this process; an int starts that many worker
      processes; any ``concurrent.futures.Executor`` is used as it is (for a cluster:
      ``dask.distributed.Client(...).get_executor()``, or the ``Client`` itself). Games
      go out in chunks of ``chunksize`` (default: up to 50, about 8 chunks per worker).
    - ``progress``: a progress bar (``tqdm.auto``: a widget in Jupyter).

    Ctrl-C (KeyboardInterrupt, the notebook's stop button) stops the run at once and
    returns the games finished so far, with ``df.attrs["interrupted"] = True`` and a
    warning. Pending chunks are cancelled; chunks already running on workers finish in
    the background and are dropped.

    Columns, game-level: ``game`` (number in the run, the table is sorted by it),
    ``seed`` (the game's own seed: ``kum.Game(players, seed=...)`` deals it again),
    ``players``, ``first_player``, ``turns`` (completed), ``actions``, ``n_winners``,
    ``winners`` (tuple of seats; a tie shares the win), and totals over seats of
    ``claims``, ``developments``, ``claims_by_other``, ``stuck``, ``discards``.
    Per seat ``s`` (``score_0``, ``score_1``...): ``bot_s``, ``race_s`` (its King),
    ``score_s`` = ``developed_s`` - ``undeveloped_s`` (points of developed mines, of
    claimed but undeveloped ones), ``win_s`` (also when shared), ``claims_s`` (mines
    claimed for seat s), ``developments_s``, ``claims_by_other_s`` and
    ``claims_by_other_points_s`` (mines seat s got through another player's card: a
    ``Claimed`` event with ``seat == s != by``), ``claims_for_other_s`` (mines seat s's
    cards won for someone else), ``stuck_s`` (turns with no legal play, D3) and
    ``discards_s`` (cards discarded when stuck). :func:`per_seat` gives the long form.
    ``df.attrs`` keeps the run's arguments (``rules`` as ``Rules.to_dict()``).
    """
    spec = _check(games, players, bots, rules, seed, executor, progress, races, rotate, chunksize, game)
    start = time.perf_counter()
    bar = _bar(games) if progress else None
    try:
        if executor is None:
            rows, interrupted = _run_here(spec, games, bar)
        else:
            rows, interrupted = _run_on(executor, spec, games, chunksize, bar)
    finally:
        if bar is not None:
            bar.close()
    df = _frame(rows, players) if spec.rules_of is None else _session_frame(rows)
    if spec.rules_of is None:
        rules_all, rules_changed = (spec.rules or Rules()).to_dict(), (spec.rules or Rules()).diff()
    else:
        rules_all = spec.rules_of.options()
        defaults = type(spec.rules_of)().options() if not spec.rules_of.defaults == {} else {}
        rules_changed = {k: v for k, v in rules_all.items() if defaults.get(k) != v}
    df.attrs.update(
        seed=spec.seed, games=games, finished=len(df), interrupted=interrupted, players=players,
        bots=tuple(bot_label(b) for b in spec.bots), bot_specs=spec.bots, rotate=rotate,
        races=spec.races, rules=rules_all, rules_changed=rules_changed,
        seconds=time.perf_counter() - start, executor=_describe(executor),
        game=spec.rules_of.name if spec.rules_of is not None else "kings-under-mountains",
    )
    if interrupted:
        warnings.warn(f"simulate interrupted: returning the {len(df)} of {games} games finished", stacklevel=2)
    return df


def per_seat(results: pd.DataFrame) -> pd.DataFrame:
    """The long form of a results table: one row per (game, seat).

    Columns: the game-level ones (totals over seats renamed ``game_claims``...),
    ``seat``, ``first`` (this seat moved first), ``shared`` (a shared win), and the
    per-seat ones without their seat number: ``bot``, ``race``, ``score``, ``win``...
    Extra columns (such as ``variant`` from :func:`kum.lab.compare`) are kept.
    """
    import pandas as pd

    _need_frame(results)
    seat_cols: dict[int, dict[str, str]] = {}
    for col in results.columns:
        m = re.fullmatch(r"(.+)_(\d+)", str(col))
        if m and m[1] in PER_SEAT:
            seat_cols.setdefault(int(m[2]), {})[col] = m[1]
    if not seat_cols:
        raise ValueError("per_seat: no per-seat columns (score_0, bot_0...): pass a table from kum.simulate")
    shared_names = set(PER_SEAT) & set(GAME_COLUMNS)
    base = results[[c for c in results.columns if not any(c in cols for cols in seat_cols.values())]]
    base = base.rename(columns={c: f"game_{c}" for c in shared_names if c in base.columns})
    base = base.assign(_row=range(len(base)))
    parts = []
    for seat in sorted(seat_cols):
        part = results[list(seat_cols[seat])].rename(columns=seat_cols[seat])
        part = pd.concat([base, part], axis=1).assign(seat=seat)
        parts.append(part[part["bot"].notna()])
    long = pd.concat(parts, ignore_index=True).sort_values(["_row", "seat"], kind="stable")
    long["first"] = long["seat"] == long["first_player"]
    long["shared"] = long["win"].astype(bool) & (long["n_winners"] > 1)
    order = [c for c in base.columns if c != "_row"] + ["seat", "first", "shared"] + [c for c in PER_SEAT if c in long.columns]
    return long[order].reset_index(drop=True)


def replay(results: pd.DataFrame, game: int, *, bots: Sequence[BotSpec] | None = None) -> Game:
    """Play game number ``game`` of a ``simulate`` run again and return the ``kum.Game``
    (history and log included; put it on a board with ``kum.GameWidget(game)``).
    ``bots`` overrides the bot specs kept in ``results.attrs``."""
    _need_frame(results)
    a = results.attrs
    if "seed" not in a or "rules" not in a:
        raise ValueError("replay: this table has lost the attrs of its kum.simulate run")
    if type(game) is not int or not 0 <= game < a["games"]:
        raise ValueError(f"replay: game must be a game number 0..{a['games'] - 1}, got {game!r}")
    return play_game(game, seed=a["seed"], players=a["players"], bots=tuple(bots or a["bot_specs"]),
                     rules=Rules.from_dict(a["rules"]), races=a["races"], rotate=a["rotate"])


# -- running -----------------------------------------------------------------------------


def _run_here(spec: Spec, games: int, bar: Any) -> tuple[list[dict[str, Any]], bool]:
    rows: list[dict[str, Any]] = []
    try:
        for i in range(games):
            rows.append(spec.play(i))
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        return rows, True
    return rows, False


def _ignore_sigint() -> None:
    # Worker processes leave Ctrl-C to the parent, which cancels what is pending.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(workers: int = 2) -> ProcessPoolExecutor:
    """A process pool like the one ``simulate(executor=n)`` starts, to keep across many
    runs (start-up paid once): ``pool = kum.lab.worker_pool(2)``, then
    ``kum.simulate(..., executor=pool)``; ``pool.shutdown()`` when done.

    Workers are fresh interpreters ("spawn": safe from a kernel with threads, the same
    on every OS) that leave Ctrl-C to this process, which cancels what is pending.
    """
    _whole("workers", workers, 1, where="worker_pool")
    import multiprocessing

    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_sigint)



def _workers(executor: Any) -> int:
    if type(executor) is int:
        return executor
    n = getattr(executor, "_max_workers", None)
    if type(n) is int:
        return n
    client = getattr(executor, "_client", None) or (executor if hasattr(executor, "get_executor") else None)
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # a client without a cluster yet: any guess will do
            pass
    return 4


def _run_on(executor: Any, spec: Spec, games: int, chunksize: int | None, bar: Any) -> tuple[list[dict[str, Any]], bool]:
    size = chunksize or max(1, min(MAX_CHUNK, math.ceil(games / (8 * _workers(executor)))))
    chunks = [list(range(a, min(a + size, games))) for a in range(0, games, size)]
    own: ProcessPoolExecutor | None = None
    futures: dict[Future[list[dict[str, Any]]], int] = {}
    done: dict[int, list[dict[str, Any]]] = {}
    interrupted = False
    try:
        pool: Any
        if type(executor) is int:
            pool = own = worker_pool(executor)
        elif isinstance(executor, Executor):
            pool = executor
        else:
            pool = executor.get_executor()  # a dask.distributed Client
        for k, chunk in enumerate(chunks):
            futures[pool.submit(run_chunk, spec, chunk)] = k
        for fut in as_completed(futures):
            done[futures[fut]] = fut.result()
            if bar is not None:
                bar.update(len(chunks[futures[fut]]))
    except KeyboardInterrupt:
        # Return at once: cancel what has not started; chunks already running finish in
        # the background (their workers then exit) but are not waited for.
        interrupted = True
        for fut in futures:
            fut.cancel()
        for fut, k in futures.items():
            if k not in done and fut.done() and not fut.cancelled() and fut.exception() is None:
                done[k] = fut.result()
    except BaseException:
        for fut in futures:
            fut.cancel()
        raise
    finally:
        if own is not None:
            own.shutdown(wait=not interrupted, cancel_futures=True)
    return [row for k in sorted(done) for row in done[k]], interrupted


def _bar(games: int) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=games, unit="game", desc="simulate", smoothing=0.1)


def _describe(executor: Any) -> str:
    if executor is None:
        return "in process"
    if type(executor) is int:
        return f"{executor} worker processes"
    return type(executor).__name__


_INT_COLUMNS = ("game", "seed", "players", "first_player", "turns", "actions", "n_winners", "claims", "developments",
                "claims_by_other", "stuck", "discards")


def _frame(rows: list[dict[str, Any]], players: int) -> pd.DataFrame:
    import pandas as pd

    df = pd.DataFrame.from_records(rows, columns=columns(players))
    dtypes: dict[str, Any] = {c: "int64" for c in _INT_COLUMNS}
    for seat in range(players):
        for name in PER_SEAT:
            col = f"{name}_{seat}"
            dtypes[col] = "bool" if name == "win" else object if name in ("bot", "race") else "int64"
    df = df.astype(dtypes)
    return df.sort_values("game", kind="stable").reset_index(drop=True)


def _session_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    df = pd.DataFrame.from_records(rows)
    if df.empty:
        return df
    return df.sort_values("game", kind="stable").reset_index(drop=True)


def _the_game(game: Any) -> Any:
    """``game=`` as a CardGame, or None for Kings Under Mountains (its own columns)."""
    from ..core.game import CardGame
    from ..core.registry import game_class

    if game is None:
        return None
    if isinstance(game, str):
        try:
            game = game_class(game)
        except ValueError as exc:
            raise ValueError(f"simulate: {exc}") from None
    if isinstance(game, type) and issubclass(game, CardGame):
        game = game()
    if not isinstance(game, CardGame):
        raise ValueError(f"simulate: game must be a game's name, a core.CardGame or its class, got {shown(game)}")
    return None if game.name == "kings-under-mountains" and type(game).__module__.startswith("kum_widget.games.kum") else game


# -- checking arguments ------------------------------------------------------------------


def _need_frame(results: Any) -> None:
    import pandas as pd

    if not isinstance(results, pd.DataFrame):
        raise ValueError(f"expected the DataFrame kum.simulate returns, got {type(results).__name__}")


def _whole(name: str, value: Any, low: int, high: int | None = None, where: str = "simulate") -> None:
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{where}: {name} must be a whole number {span}, got {value!r:.60}")


def _bot_specs(bots: Any, players: int) -> tuple[BotSpec, ...]:
    if isinstance(bots, str) or (callable(bots) and not isinstance(bots, (list, tuple))):
        specs: tuple[BotSpec, ...] = (bots,) * players
    elif isinstance(bots, Iterable) and not isinstance(bots, Mapping):
        specs = tuple(bots)
        if len(specs) != players:
            raise ValueError(f"simulate: bots needs one bot per seat ({players}), got {len(specs)}: {specs!r:.80}")
    else:
        raise ValueError(f"simulate: bots must be a bot name, a factory f(seed) -> bot, or one per seat; got {bots!r:.60}")
    from ..bots import make_bot

    for spec in specs:
        if isinstance(spec, str):
            make_bot(spec, seed=0)  # an unknown name raises ValueError, naming the known ones
        elif callable(spec):
            try:
                make_bot(spec(0))
            except ValueError as exc:
                raise ValueError(f"simulate: bot factory {bot_label(spec)!r}: f(seed) must return a bot ({exc})") from None
        else:
            raise ValueError(
                f"simulate: a bot is a name or a factory f(seed) -> bot (such as a bot class), got {spec!r:.60}; "
                "a bot object would carry its state from game to game"
            )
    return specs


def _check(games: Any, players: Any, bots: Any, rules: Any, seed: Any, executor: Any, progress: Any,
           races: Any, rotate: Any, chunksize: Any, game: Any = None) -> Spec:
    other = _the_game(game)
    if game is not None and other is None and rules is None:
        rules = game.kum_rules if hasattr(game, "kum_rules") else None  # KingsUnderMountains(rules) as the game
    _whole("games", games, 1)
    if other is not None:
        _whole("players", players, other.min_players, other.max_players)
        if races is not None:
            raise ValueError(f"simulate: races are a Kings Under Mountains option, not one of {other.title or other.name}")
        if rules is not None:
            if not isinstance(rules, Mapping):
                raise ValueError(f"simulate: rules for {other.title or other.name} are a dict of its options, got {shown(rules)}")
            try:
                other = other.with_options(rules)
            except ValueError as exc:
                raise ValueError(f"simulate: {exc}") from None
        return _check_other(games, players, bots, seed, executor, progress, rotate, chunksize, other)
    _whole("players", players, 2, 4)
    if seed is None:
        seed = secrets.randbelow(2**31)
    _whole("seed", seed, 0)
    if chunksize is not None:
        _whole("chunksize", chunksize, 1)
    for name, flag in (("progress", progress), ("rotate", rotate)):
        if not isinstance(flag, bool):
            raise ValueError(f"simulate: {name} must be True or False, got {flag!r:.60}")
    if isinstance(rules, Mapping):
        rules = Rules().with_(**rules)
    elif rules is not None and not isinstance(rules, Rules):
        raise ValueError(f"simulate: rules must be a kum.Rules (or a dict of options), got {type(rules).__name__}")
    if executor is not None and not (
        type(executor) is int or isinstance(executor, Executor) or callable(getattr(executor, "get_executor", None))
    ):
        raise ValueError(
            "simulate: executor must be None (this process), a number of worker processes, a "
            f"concurrent.futures.Executor or a dask.distributed Client; got {executor!r:.60}"
        )
    if type(executor) is int and executor < 1:
        raise ValueError(f"simulate: executor must be at least 1 worker process, got {executor}")
    if races is not None:
        if isinstance(races, str) or not isinstance(races, Sequence):
            raise ValueError(f"simulate: races must list one King race per seat, got {races!r:.60}")
        races = tuple(races)
    specs = _bot_specs(bots, players)
    try:  # one deal checks that the rules, the deck and the races fit this many players
        Game(players, seed=0, rules=rules, races=list(races) if races is not None else None)
    except KumError as exc:
        raise ValueError(f"simulate: {exc}") from None
    spec = Spec(seed, players, specs, rules, races, rotate)
    if type(executor) is int or isinstance(executor, ProcessPoolExecutor):
        _check_pickles(spec)
    return spec


def _check_other(games: int, players: int, bots: Any, seed: Any, executor: Any, progress: Any, rotate: Any,
                 chunksize: Any, other: Any) -> Spec:
    if seed is None:
        seed = secrets.randbelow(2**31)
    _whole("seed", seed, 0)
    if chunksize is not None:
        _whole("chunksize", chunksize, 1)
    for name, flag in (("progress", progress), ("rotate", rotate)):
        if not isinstance(flag, bool):
            raise ValueError(f"simulate: {name} must be True or False, got {shown(flag)}")
    spec = Spec(seed, players, _bot_specs(bots, players), None, None, rotate, other)
    if type(executor) is int or isinstance(executor, ProcessPoolExecutor):
        if type(other).__module__ == "__main__":
            raise ValueError(
                f"simulate: the game {type(other).__name__} is defined in __main__ (a notebook cell), which worker "
                "processes cannot import: move it to a module, or use executor=None"
            )
        _check_pickles(spec)
    return spec


def _check_pickles(spec: Spec) -> None:
    for b in spec.bots:
        if not isinstance(b, str) and getattr(b, "__module__", None) == "__main__":
            raise ValueError(
                f"simulate: bot factory {bot_label(b)!r} is defined in __main__ (a notebook cell), which worker "
                "processes cannot import: move it to a module, or use executor=None"
            )
    try:
        pickle.dumps(spec)
    except Exception as exc:
        raise ValueError(f"simulate: the bots and rules must pickle to go to worker processes ({exc})") from None

