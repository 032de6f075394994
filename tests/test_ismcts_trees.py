"""ISMCTS's trees and its helper process: two trees share a budget, the second may grow
in a helper process, and where a tree grew never changes the move (only the wait)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import textwrap
import threading
import time
import types
from typing import Any

import pytest

import kum_widget as kum
from kum_widget.bots import ISMCTSBot
from kum_widget.bots.common import game_of_view
from kum_widget.bots.helper import Helper
from kum_widget.bots.ismcts import HELPER
from kum_widget.core.errors import GameError
from kum_widget.games.court.rules import CourtOfTheThreeClans


def positions(court: bool, count: int) -> list[tuple[Any, Any, int, list[int]]]:
    """``count`` decisions from real games: (rules, view, seat, legal ids)."""
    out = []
    seed = 0
    while len(out) < count:
        game = kum.Court(seed=seed) if court else kum.Game(2, seed=seed)
        for turn in range(200):
            if game.is_over:
                break
            legal = game.legal_action_ids()
            if turn % 7 == 3 and len(legal) > 1:
                seat = game.current_player
                view = game.view(seat)
                out.append((game_of_view(view), view, seat, legal))
            game.apply(game.legal_actions()[(turn * 5) % len(legal)])
        seed += 1
    return out[:count]


def decide_all(bot: ISMCTSBot, cases: list[tuple[Any, Any, int, list[int]]], rules: Any = None) -> list[Any]:
    out = []
    for game, view, seat, legal in cases:
        move = bot.decide(rules or game, view, seat, legal)
        stats = bot.last_stats
        out.append((move, stats["iterations"], sorted(stats["visits"].items()), stats["root_children"]))
    return out


@pytest.fixture(autouse=True)
def fresh_helper() -> Any:
    HELPER.restart()
    yield
    HELPER.restart()


@pytest.mark.parametrize("court", [False, True], ids=["kum", "court"])
def test_a_tree_grown_in_the_helper_is_the_tree_grown_here(court: bool) -> None:
    cases = positions(court, 6)
    here = ISMCTSBot(iterations=120, trees=2, parallel=False, seed=3)
    there = ISMCTSBot(iterations=120, trees=2, parallel=True, seed=3)
    expected = decide_all(here, cases)
    assert not here.last_stats["helped"]
    assert decide_all(there, cases) == expected
    assert there.last_stats["helped"] and there.last_stats["trees"] == 2
    assert sum(v for _, v in expected[0][2]) == expected[0][1] <= 120  # both trees' visits, summed


def test_two_trees_share_the_budget_and_differ_from_one() -> None:
    game, view, seat, legal = positions(False, 1)[0]
    one = ISMCTSBot(iterations=200, trees=1, seed=5)
    two = ISMCTSBot(iterations=200, trees=2, parallel=False, seed=5)
    one.decide(game, view, seat, legal)
    two.decide(game, view, seat, legal)
    assert one.last_stats["trees"] == 1 and two.last_stats["trees"] == 2
    assert one.last_stats["visits"] != two.last_stats["visits"]
    assert two.last_stats["iterations"] <= 200


def test_the_court_grows_two_trees_by_default() -> None:
    assert CourtOfTheThreeClans.search_trees == 2
    assert kum.core.CardGame.search_trees == 1 and kum.KingsUnderMountains.search_trees == 1
    game, view, seat, legal = positions(True, 1)[0]
    bot = ISMCTSBot(seed=1)
    bot.decide(game, view, seat, legal)
    assert bot.last_stats["trees"] == 2 and bot.last_stats["iterations"] <= 400


class Touchy(kum.KingsUnderMountains):
    """Kings Under Mountains whose rollouts fail in any process but the one that made it."""

    def __init__(self, home: int = 0) -> None:
        super().__init__()
        self.home = home or os.getpid()

    def evaluate(self, state: Any) -> list[float]:
        if os.getpid() != self.home:
            raise RuntimeError("not at home")
        return super().evaluate(state)

    def __reduce__(self) -> Any:
        return (Touchy, (self.home,))


def test_a_tree_the_helper_fails_to_grow_grows_here() -> None:
    _, view, seat, legal = positions(False, 1)[0]
    expected = ISMCTSBot(iterations=80, trees=2, parallel=False, seed=2)
    bot = ISMCTSBot(iterations=80, trees=2, parallel=True, seed=2)
    assert bot.decide(Touchy(), view, seat, legal) == expected.decide(Touchy(), view, seat, legal)
    assert bot.last_stats["visits"] == expected.last_stats["visits"]
    assert not bot.last_stats["helped"]
    bot.decide(Touchy(), view, seat, legal)  # the helper is not asked again for this game
    assert not bot.last_stats["helped"]
    bot.decide(kum.KingsUnderMountains(), view, seat, legal)  # but still for the others
    assert bot.last_stats["helped"]


def test_a_game_the_helper_cannot_import_grows_here() -> None:
    _, view, seat, legal = positions(False, 1)[0]

    class Local(kum.KingsUnderMountains):  # a local class: no pickle can carry it
        pass

    nowhere = types.ModuleType("kum_only_in_this_process")  # importable here, not in the helper
    Elsewhere = type("Elsewhere", (kum.KingsUnderMountains,), {"__module__": nowhere.__name__})
    nowhere.Elsewhere = Elsewhere  # type: ignore[attr-defined]
    sys.modules[nowhere.__name__] = nowhere
    Cell = type("Cell", (kum.KingsUnderMountains,), {"__module__": "__main__"})  # a notebook cell's class
    try:
        for kind in (Local, Elsewhere, Cell):
            bot = ISMCTSBot(iterations=60, trees=2, parallel=True, seed=4)
            move = bot.decide(kind(), view, seat, legal)
            alone = ISMCTSBot(iterations=60, trees=2, parallel=False, seed=4)
            assert alone.decide(kind(), view, seat, legal) == move, kind
            assert bot.last_stats["visits"] == alone.last_stats["visits"] and not bot.last_stats["helped"]
    finally:
        del sys.modules[nowhere.__name__]


def test_an_error_in_the_game_shows_here_and_the_next_search_is_helped() -> None:
    game, view, seat, legal = positions(False, 1)[0]

    class Broken(kum.KingsUnderMountains):
        def evaluate(self, state: Any) -> list[float]:
            raise ValueError("a game's own bug")

    with pytest.raises(ValueError, match="a game's own bug"):
        ISMCTSBot(iterations=60, trees=2, parallel=True, seed=1).decide(Broken(), view, seat, legal)
    bot = ISMCTSBot(iterations=60, trees=2, parallel=True, seed=1)
    bot.decide(game, view, seat, legal)
    assert bot.last_stats["helped"]


def test_a_helper_killed_between_or_during_searches_changes_nothing() -> None:
    cases = positions(False, 3)
    expected = decide_all(ISMCTSBot(iterations=300, trees=2, parallel=False, seed=8), cases)
    bot = ISMCTSBot(iterations=300, trees=2, parallel=True, seed=8)
    got = decide_all(bot, cases[:1])
    assert bot.last_stats["helped"]
    proc = HELPER._proc
    assert proc is not None
    proc.kill()
    proc.wait()
    got += decide_all(bot, cases[1:2])  # a new helper
    assert bot.last_stats["helped"]
    proc = HELPER._proc
    assert proc is not None
    threading.Timer(0.005, proc.kill).start()  # gone in the middle of a search
    got += decide_all(bot, cases[2:])
    assert got == expected


def test_searches_in_two_threads_share_one_helper_and_choose_as_alone() -> None:
    cases = positions(True, 4)
    expected = [decide_all(ISMCTSBot(iterations=150, trees=2, parallel=False, seed=s), cases) for s in (1, 2)]
    got: dict[int, list[Any]] = {}
    threads = [threading.Thread(target=lambda s=s: got.__setitem__(s, decide_all(ISMCTSBot(iterations=150, trees=2, parallel=True, seed=s), cases)))
               for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[1], got[2]] == expected


def test_no_helper_inside_a_worker_process() -> None:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(Helper.worth_it) is False


def test_a_script_without_a_main_guard_gets_its_helper_and_leaves_none_behind(tmp_path: Any) -> None:
    script = tmp_path / "play.py"
    script.write_text(textwrap.dedent("""
        import kum_widget as kum
        from kum_widget.bots import ISMCTSBot
        from kum_widget.bots.ismcts import HELPER

        print("the script ran")
        game = kum.Game(2, seed=3)
        bot = ISMCTSBot(iterations=100, trees=2, parallel=True, seed=1)
        game.apply(kum.bots.bot_move(game, bot))
        print("helped", bot.last_stats["helped"], "helper", HELPER._proc.pid)
    """))
    root = os.path.dirname(os.path.dirname(os.path.abspath(kum.__file__)))
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": root})
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("the script ran") == 1 and "helped True" in run.stdout
    pid = int(run.stdout.split("helper")[-1])
    deadline = time.monotonic() + 5
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}")


@pytest.mark.parametrize("options", [{"trees": 0}, {"trees": 65}, {"trees": 2.0}, {"trees": "2"}, {"trees": True},
                                     {"parallel": "yes"}, {"parallel": 1}])
def test_bad_tree_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(GameError, match=next(iter(options))):
        ISMCTSBot(**options)


def test_a_bad_search_trees_on_a_game_is_refused_by_name() -> None:
    _, view, seat, legal = positions(False, 1)[0]

    class Odd(kum.KingsUnderMountains):
        search_trees = 0

    with pytest.raises(GameError, match=r"Odd\.search_trees"):
        ISMCTSBot(seed=1).decide(Odd(), view, seat, legal)


def search_in_child(cases: list[Any]) -> tuple[list[Any], int, bool]:
    bot = ISMCTSBot(iterations=100, trees=2, parallel=True, seed=6)
    got = decide_all(bot, cases)
    return got, HELPER._proc.pid if HELPER._proc else 0, bot.last_stats["helped"]


def test_a_forked_child_leaves_its_parents_helper_alone() -> None:
    cases = positions(False, 2)
    expected = decide_all(ISMCTSBot(iterations=100, trees=2, parallel=False, seed=6), cases)
    bot = ISMCTSBot(iterations=100, trees=2, parallel=True, seed=6)
    assert decide_all(bot, cases[:1]) == expected[:1] and bot.last_stats["helped"]
    parent_helper = HELPER._proc
    assert parent_helper is not None
    HELPER._lock.acquire()  # as if another thread were searching when the process forks
    try:
        with multiprocessing.get_context("fork").Pool(1) as pool:  # the child searches with a helper of its own
            got, helper_pid, helped = pool.apply(search_in_child, (cases,))
    finally:
        HELPER._lock.release()
    assert got == expected and helped and helper_pid not in (0, parent_helper.pid)
    assert HELPER._proc is parent_helper and parent_helper.poll() is None
    assert decide_all(bot, cases[1:]) == expected[1:] and bot.last_stats["helped"]
