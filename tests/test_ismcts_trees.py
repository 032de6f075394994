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
def fresh_helper(monkeypatch: Any) -> Any:
    monkeypatch.delenv("KUM_WIDGET_PARALLEL", raising=False)  # the user's switch: these tests set it themselves
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


@pytest.mark.parametrize("court", [False, True], ids=["kum", "court"])
def test_the_games_grow_two_trees_by_default(court: bool) -> None:
    assert (CourtOfTheThreeClans.search_trees, CourtOfTheThreeClans.search_split) == (2, False)  # summed
    assert (kum.KingsUnderMountains.search_trees, kum.KingsUnderMountains.search_split) == (2, True)  # split
    assert (kum.core.CardGame.search_trees, kum.core.CardGame.search_split) == (1, False)
    game, view, seat, legal = next(p for p in positions(court, 4) if len(p[3]) >= 4)
    bot = ISMCTSBot(seed=1)
    bot.decide(game, view, seat, legal)
    assert bot.last_stats["trees"] == 2 and bot.last_stats["iterations"] <= 400 and bot.last_stats["split"] is not court
    assert bot.last_stats["helped"] is Helper.worth_it()  # by default, where it pays (two cores here and in CI)


class AtHome(kum.KingsUnderMountains):
    """Kings Under Mountains that knows the process that made it (the helper's copy knows it too)."""

    def __init__(self, home: int = 0) -> None:
        super().__init__()
        self.home = home or os.getpid()
        self.calls = 0

    def at_home(self) -> bool:
        return os.getpid() == self.home

    def __reduce__(self) -> Any:
        return (type(self), (self.home,))


class Touchy(AtHome):
    """Its rollouts fail in any process but the one that made it."""

    def evaluate(self, state: Any) -> list[float]:
        if not self.at_home():
            raise RuntimeError("not at home")
        return super().evaluate(state)


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


class Homesick(AtHome):
    """Its rollouts fail in the process that made it (the helper's do not)."""

    def evaluate(self, state: Any) -> list[float]:
        self.calls += 1
        if self.at_home() and self.calls > 20:  # in its first tree's rollouts, not in the probe
            raise ValueError("a bug here")
        return super().evaluate(state)


class Doomed(AtHome):
    """Its rollouts end any process but the one that made it."""

    def evaluate(self, state: Any) -> list[float]:
        if not self.at_home():
            os._exit(3)
        return super().evaluate(state)


def test_an_error_here_while_the_helper_grows_leaves_no_answer_behind() -> None:
    cases = positions(False, 2)
    expected = decide_all(ISMCTSBot(iterations=200, trees=2, parallel=False, seed=4), cases[1:])
    _, view, seat, legal = cases[0]
    with pytest.raises(ValueError, match="a bug here"):
        ISMCTSBot(iterations=200, trees=2, parallel=True, seed=4).decide(Homesick(), view, seat, legal)
    assert HELPER._proc is None  # stopped at once: its answer is not wanted
    bot = ISMCTSBot(iterations=200, trees=2, parallel=True, seed=4)
    assert decide_all(bot, cases[1:]) == expected and bot.last_stats["helped"]  # a new helper, no stale answer


def test_a_game_the_helper_failed_on_is_not_sent_again() -> None:
    _, view, seat, legal = positions(False, 1)[0]
    ISMCTSBot(iterations=40, trees=2, parallel=True, seed=2).decide(Touchy(), view, seat, legal)
    assert Touchy in HELPER._refused and kum.KingsUnderMountains not in HELPER._refused


def test_after_three_broken_helpers_the_bot_grows_every_tree_itself() -> None:
    _, view, seat, legal = positions(False, 1)[0]
    expected = ISMCTSBot(iterations=60, trees=2, parallel=False, seed=3).decide(Doomed(), view, seat, legal)
    for _ in range(3):
        bot = ISMCTSBot(iterations=60, trees=2, parallel=True, seed=3)
        assert bot.decide(Doomed(), view, seat, legal) == expected and not bot.last_stats["helped"]
    bot = ISMCTSBot(iterations=60, trees=2, parallel=True, seed=3)
    bot.decide(kum.KingsUnderMountains(), view, seat, legal)
    assert not bot.last_stats["helped"] and HELPER._proc is None  # given up: no fourth helper
    HELPER.restart()
    bot.decide(kum.KingsUnderMountains(), view, seat, legal)
    assert bot.last_stats["helped"]


def test_an_interrupt_sent_to_the_helper_leaves_it_working() -> None:
    import signal

    cases = positions(True, 2)
    bot = ISMCTSBot(iterations=100, trees=2, parallel=True, seed=5)
    decide_all(bot, cases[:1])
    proc = HELPER._proc
    assert proc is not None
    os.kill(proc.pid, signal.SIGINT)  # as Ctrl-C in a terminal would, to the whole group
    time.sleep(0.2)
    assert decide_all(bot, cases[1:]) == decide_all(ISMCTSBot(iterations=100, trees=2, parallel=False, seed=5), cases)[1:]
    assert bot.last_stats["helped"] and HELPER._proc is proc


def test_the_helper_imports_what_this_process_imported_not_a_copy_in_its_folder(tmp_path: Any, monkeypatch: Any) -> None:
    shadow = tmp_path / "kum_widget"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise ImportError('the copy in the folder, not the one in use')\n")
    monkeypatch.chdir(tmp_path)
    from pathlib import Path

    monkeypatch.setattr(sys, "path", [*sys.path, Path(tmp_path / "elsewhere")])  # a notebook may add a Path
    cases = positions(True, 2)
    bot = ISMCTSBot(iterations=80, trees=2, parallel=True, seed=7)
    assert decide_all(bot, cases) == decide_all(ISMCTSBot(iterations=80, trees=2, parallel=False, seed=7), cases)
    assert bot.last_stats["helped"]


def test_a_game_module_that_searches_on_import_starts_no_helper_of_a_helper(tmp_path: Any) -> None:
    (tmp_path / "mygame.py").write_text(textwrap.dedent("""
        import os
        import kum_widget as kum
        from kum_widget.bots import ISMCTSBot
        from kum_widget.games.court.rules import CourtOfTheThreeClans

        class MyCourt(CourtOfTheThreeClans):
            pass

        court = kum.Court(seed=1)  # a module that plays a move as it is imported
        bot = ISMCTSBot(iterations=40, trees=2, parallel=True, seed=1)
        bot.decide(MyCourt(), court.view(0), 0, court.legal_action_ids())
        with open(os.environ["KUM_TEST_LOG"], "a") as log:
            log.write(f"{os.getpid()} {bot.last_stats['helped']}" + chr(10))
    """))
    (tmp_path / "play.py").write_text("import mygame\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(kum.__file__)))
    log = tmp_path / "log.txt"
    run = subprocess.run([sys.executable, "play.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": root, "KUM_TEST_LOG": str(log)})
    assert run.returncode == 0, run.stderr
    lines = log.read_text().split()
    # the script's search had a helper; the helper's own (as it imported the game) had none, and started none
    assert sorted(lines[1::2]) == ["False", "True"] and len(set(lines[0::2])) == 2


def test_no_helper_for_a_frozen_application(monkeypatch: Any) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert not Helper.worth_it()


def test_by_default_only_the_games_that_ship_use_the_helper() -> None:
    _, view, seat, legal = positions(False, 1)[0]
    bot = ISMCTSBot(iterations=40, trees=2, seed=1)
    bot.decide(Touchy(), view, seat, legal)
    assert not bot.last_stats["helped"]  # a game of the user's: its code may change at run time (see .helper)
    bot.decide(kum.KingsUnderMountains(), view, seat, legal)
    assert bot.last_stats["helped"] is Helper.worth_it()


def test_a_worker_process_searches_alone() -> None:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(helped_in_a_worker) is False


def helped_in_a_worker() -> bool:
    game, view, seat, legal = positions(True, 1)[0]
    bot = ISMCTSBot(seed=1)
    bot.decide(game, view, seat, legal)
    return bool(bot.last_stats["helped"])


def test_a_time_limit_holds_with_the_helper() -> None:
    game, view, seat, legal = positions(False, 1)[0]
    bot = ISMCTSBot(iterations=10**6, time_limit=0.3, trees=2, parallel=True, seed=1)
    bot.decide(game, view, seat, legal)  # the helper's start counts against the first search's time
    bot.decide(game, view, seat, legal)
    assert bot.last_stats["helped"] and 0 < bot.last_stats["iterations"] < 10**6


def _bust() -> Any:
    from kum_widget.core.examples import Bust

    class Open(Bust):
        perfect_information = True

    return Open


@pytest.mark.parametrize(("trees", "iterations"), [(3, 150), (4, 3), (2, 1)])
def test_more_trees_or_fewer_iterations_than_trees_choose_alike(trees: int, iterations: int) -> None:
    cases = positions(True, 3) + positions(False, 3)
    here = decide_all(ISMCTSBot(iterations=iterations, trees=trees, parallel=False, seed=2), cases)
    bot = ISMCTSBot(iterations=iterations, trees=trees, parallel=True, seed=2)
    assert decide_all(bot, cases) == here


def test_a_perfect_information_game_chooses_alike_wherever_its_trees_grow() -> None:
    from kum_widget.bots import bot_move

    moves = []
    for parallel in (False, True):
        session = kum.core.Session(_bust()(), 3, seed=5)
        bot = ISMCTSBot(iterations=90, trees=2, parallel=parallel, seed=5)
        got = []
        while not session.is_over and len(got) < 6:
            action = bot_move(session, bot)
            got.append((action, sorted(bot.last_stats["visits"].items())))
            session.apply(action)
        moves.append(got)
    assert moves[0] == moves[1] and moves[0]


def test_a_bad_parallel_set_after_the_bot_was_made_is_refused() -> None:
    game, view, seat, legal = positions(False, 1)[0]
    bot = ISMCTSBot(trees=2, iterations=20)
    bot.parallel = "no"  # type: ignore[assignment]
    with pytest.raises(GameError, match="parallel"):
        bot.decide(game, view, seat, legal)


def test_cards_pickle_as_themselves_and_subclasses_too() -> None:
    import pickle
    from dataclasses import dataclass

    from kum_widget.games.court.cards import Card as CourtCard
    from kum_widget.games.kum.cards import Card, MineFace, Race

    card = Card(3, Race.GOBLIN, 7, MineFace(3, 2, 4, True))
    shiny = Shiny(3, Race.GOBLIN, 7, MineFace(3, 2, 4), 9)
    court = CourtCard(1, "sun", "poet", 4, 2, 0)
    for thing in (card, card.mine, shiny, court):
        back = pickle.loads(pickle.dumps(thing))
        assert back == thing and type(back) is type(thing)
    assert pickle.loads(pickle.dumps(shiny)).shine == 9
    assert dataclass  # (the subclass below is one)


from dataclasses import dataclass as _dataclass  # noqa: E402 (for the subclass just below)

from kum_widget.games.kum.cards import Card as _Card  # noqa: E402


@_dataclass(frozen=True, slots=True)
class Shiny(_Card):
    shine: int = 0


@pytest.mark.parametrize("court", [False, True], ids=["kum", "court"])
def test_split_trees_grow_alike_here_or_in_the_helper(court: bool) -> None:
    cases = positions(court, 5)
    here = decide_all(ISMCTSBot(iterations=160, trees=2, split=True, parallel=False, seed=3), cases)
    bot = ISMCTSBot(iterations=160, trees=2, split=True, parallel=True, seed=3)
    assert decide_all(bot, cases) == here and bot.last_stats["helped"]


def test_split_trees_deal_out_the_moves_and_play_the_best_on_average_of_their_favourites() -> None:
    split = 0
    for game, view, seat, legal in positions(False, 12):
        bot = ISMCTSBot(iterations=200, trees=2, split=True, parallel=False, seed=11)
        move = bot.decide(game, view, seat, legal)
        stats = bot.last_stats
        if len(legal) < 4:  # two moves a tree at least: fewer are not split
            assert not stats["split"]
            continue
        split += 1
        assert stats["split"] and set(stats["visits"]) <= set(legal)
        scores = game.view_heuristic(view, list(legal))  # what the deal's heuristic says (it reads only the view)
        order = [a for _, a in sorted(zip((-x for x in scores), legal, strict=True), key=lambda p: p[0])]
        tops = []
        for share in (order[0::2], order[1::2]):
            seen = [a for a in share if a in stats["visits"]]
            tops.append(max(seen, key=lambda a: (stats["visits"][a], stats["means"][a], a)))
        assert move == max(tops, key=lambda a: (stats["means"][a], stats["visits"][a], -tops.index(a)))
        assert tops == stats["tops"]
    assert split >= 6


@pytest.mark.parametrize("value", [1, "yes", None])
def test_a_bad_split_is_refused(value: Any) -> None:
    if value is not None:
        with pytest.raises(GameError, match="split"):
            ISMCTSBot(split=value)
    _, view, seat, legal = positions(False, 1)[0]
    Odd = type("Odd", (kum.KingsUnderMountains,), {"search_split": value if value is not None else "no"})
    with pytest.raises(GameError, match=r"Odd\.search_split"):
        ISMCTSBot(seed=1, trees=2).decide(Odd(), view, seat, legal)


def ask_probe(*jobs: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Send the probe helper ``jobs`` back to back (no idle moment between them), then
    read their answers."""
    probe = Helper("_helper_probe")
    try:
        assert probe.acquire(object())
        for rest in jobs:
            job = probe.pack(None, rest)
            assert job is not None and probe.send(job)
        answers = []
        for _ in jobs:
            answer = probe.answer(30)
            assert answer is not None
            answers.append(answer)
        probe.release()
        return answers
    finally:
        probe.close()


def test_the_helper_collects_its_garbage_when_idle_not_between_jobs_in_a_row() -> None:
    assert [a[0] for a in ask_probe((1000,), (1000,), (0,))] == [0, 1000, 2000]  # back to back: no collection
    probe = Helper("_helper_probe")
    try:
        assert probe.acquire(object())
        for litter, alive in ((1000, 0), (0, 0)):
            time.sleep(1.0)  # idle (after the first job): it collects (50 ms idle, with room for a loaded machine)
            job = probe.pack(None, (litter,))
            assert job is not None and probe.send(job)
            assert probe.answer(30) == (alive,)
        probe.release()
    finally:
        probe.close()


def test_the_helper_collects_once_jobs_in_a_row_leave_much_behind() -> None:
    from kum_widget.bots.helper import _COLLECT_AT

    answers = ask_probe((_COLLECT_AT + 1000,), (10,), (0,))
    assert [a[0] for a in answers] == [0, 0, 10]  # a lot of litter: collected before the next job, busy or not


def test_a_game_that_reads_its_input_in_the_helper_swallows_no_job() -> None:
    first, second = ask_probe((0, True), (5,), (0,))[:2]
    assert first == (0, "", b"") and second == (0,)  # its input is empty; the next job arrived whole


def test_a_time_limit_gives_every_tree_grown_here_its_share() -> None:
    game, view, seat, legal = next(p for p in positions(False, 6) if len(p[3]) >= 6)
    bot = ISMCTSBot(iterations=10**6, time_limit=0.2, trees=2, split=True, parallel=False, seed=1)
    bot.decide(game, view, seat, legal)
    assert len(bot.last_stats["visits"]) == len(legal)  # both trees' shares weighed, not the first's alone


def test_with_no_iteration_run_every_kind_of_search_plays_the_heuristics_favourite() -> None:
    for game, view, seat, legal in positions(False, 6):
        scores = game.view_heuristic(view, list(legal))  # the game's heuristic reads only the view: any deal agrees
        favourite = legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]
        for trees, split in ((1, False), (2, False), (2, True)):
            bot = ISMCTSBot(iterations=10**6, time_limit=1e-9, trees=trees, split=split, parallel=False, seed=4)
            assert bot.decide(game, view, seat, legal) == favourite
            assert bot.last_stats["iterations"] == 0


def test_with_no_heuristic_and_no_iteration_run_the_move_is_any_legal_one() -> None:
    from kum_widget.core.game import CardGame

    class Plain(_bust()):  # type: ignore[misc,valid-type]
        heuristic = CardGame.heuristic  # no opinion

    session = kum.core.Session(Plain(), 3, seed=5)
    game, legal = session.game, session.legal_action_ids()
    moves = {ISMCTSBot(iterations=50, time_limit=1e-9, trees=2, parallel=False, seed=s).decide(game, session.view(0), 0, legal, position=session.state)
             for s in range(30)}
    assert moves <= set(legal) and len(moves) > 1


def test_last_stats_names_each_split_trees_favourite_and_the_move_is_one_of_them() -> None:
    game, view, seat, legal = next(p for p in positions(True, 12) if len(p[3]) >= 9)
    bot = ISMCTSBot(iterations=300, trees=3, split=True, parallel=False, seed=6)
    move = bot.decide(game, view, seat, legal)
    stats = bot.last_stats
    assert stats["split"] and len(stats["tops"]) == 3 and move in stats["tops"]
    means = stats["means"]
    assert move == max((a for a in stats["tops"] if a is not None), key=lambda a: means[a])
    unsplit = ISMCTSBot(iterations=300, trees=3, parallel=False, seed=6)
    unsplit.decide(game, view, seat, legal)
    assert unsplit.last_stats["tops"] == [] and not unsplit.last_stats["split"]


def test_the_environment_turns_the_helper_off_for_bots_made_by_name(monkeypatch: Any) -> None:
    from kum_widget.bots import make_bot

    game, view, seat, legal = positions(False, 1)[0]
    for value, helped in (("0", False), ("off", False), ("", Helper.worth_it()), ("1", Helper.worth_it())):
        monkeypatch.setenv("KUM_WIDGET_PARALLEL", value)
        bot = make_bot("ismcts", seed=1)
        bot.decide(game, view, seat, legal)
        assert bot.last_stats["helped"] is helped, value
    monkeypatch.setenv("KUM_WIDGET_PARALLEL", "0")
    assert not Helper.worth_it()  # one answer for the bots, the benchmarks and anyone who asks
    bot = ISMCTSBot(iterations=60, trees=2, parallel=True, seed=1)  # a bot that asks for it still gets it
    bot.decide(game, view, seat, legal)
    assert bot.last_stats["helped"] is True
    monkeypatch.delenv("KUM_WIDGET_PARALLEL")
    default = Helper.worth_it()
    monkeypatch.setenv("KUM_WIDGET_PARALLEL", "disable")  # not a value it knows: said, and ignored
    with pytest.warns(RuntimeWarning, match=r"KUM_WIDGET_PARALLEL='disable' is neither 0/false/no/off nor 1/true/yes/on"):
        assert Helper.worth_it() is default


def test_split_trees_tied_on_mean_and_visits_play_the_first_trees_move() -> None:
    ties = 0
    for game, view, seat, legal in positions(False, 12):
        if len(legal) < 6:
            continue
        for seed in range(20):
            bot = ISMCTSBot(iterations=4, trees=3, split=True, parallel=False, seed=seed)
            move = bot.decide(game, view, seat, legal)
            stats = bot.last_stats
            tops = [a for a in stats["tops"] if a is not None]
            best = max((stats["means"][a], stats["visits"][a]) for a in tops)
            tied = [a for a in tops if (stats["means"][a], stats["visits"][a]) == best]
            assert move == tied[0]  # the earliest tree's: the heuristic's favourites come first
            ties += len(tied) > 1
    assert ties > 5
