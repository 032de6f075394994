"""An ISMCTS search and the processes around it: a kernel (or a script) killed in the middle
of a search leaves no process behind, a search starts none, and a search never touches
Python's garbage collector (it is the kernel's, not the bot's)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psutil  # ipykernel's dependency (the dev group)
import pytest
from _paths import ROOT

import kum_widget as kum
from kum_widget.bots import ISMCTSBot
from kum_widget.bots.base import bot_move
from kum_widget.bots.common import game_of_view
from kum_widget.games.court.card_game import CourtOfTheThreeClans

MARK = "KUM_WIDGET_TEST_SEARCH"  # in the searching process's environment: every process it starts inherits it

# A search far longer than the test: it is killed in the middle
SEARCH = """\
import os
import kum_widget as kum
from kum_widget.bots import ISMCTSBot
from kum_widget.bots.base import bot_move

game = kum.Game(2, seed=1)
bot = ISMCTSBot(iterations=10**7, seed=1)
print("searching", os.getpid(), flush=True)
bot_move(game, bot)
print("finished", flush=True)
"""


def marked(token: str) -> list[Any]:
    """The live processes whose environment carries ``token`` (zombies are gone: only their
    exit status is left, for their parent to read)."""
    found = []
    for p in psutil.process_iter():
        try:
            if p.status() != psutil.STATUS_ZOMBIE and p.environ().get(MARK) == token:
                found.append(p)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            pass
    return found


def described(procs: list[Any]) -> list[str]:
    out = []
    for p in procs:
        try:
            out.append(f"{p.pid} {' '.join(p.cmdline())[:120]}")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            out.append(f"{p.pid} (gone)")
    return out


def searching(pid: int, cpu: float = 1.0, within: float = 120.0) -> bool:
    """True once ``pid`` has spent ``cpu`` more CPU seconds (well into the search: it
    computes, it does not wait), False if it has not within ``within`` seconds. A wait on
    the CPU it gets, not on the clock: a loaded machine gives it a fraction of a core."""
    p = psutil.Process(pid)
    before, end = sum(p.cpu_times()[:2]), time.monotonic() + within
    while time.monotonic() < end:
        if sum(p.cpu_times()[:2]) - before >= cpu:
            return True
        time.sleep(0.05)  # (polling, within the deadline)
    return False


def survivors(token: str, allowed: Callable[[Any], bool], wait: float = 10.0) -> list[Any]:
    """The marked processes still alive ``wait`` seconds on (fewer as they go), but those ``allowed``."""
    end = time.monotonic() + wait
    while True:
        left = [p for p in marked(token) if not allowed(p)]
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.2)


def kill_all(token: str) -> None:
    """Whatever a failed run left behind (a helper at 100% of a core) is stopped."""
    for p in marked(token):
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass


@pytest.fixture
def token() -> Iterator[str]:
    mark = uuid.uuid4().hex
    yield mark
    kill_all(mark)


def signal_to(pid: int, how: str) -> None:
    p = psutil.Process(pid)
    if how == "SIGKILL":
        p.kill()  # kill -9 (TerminateProcess on Windows)
    else:
        p.terminate()  # SIGTERM


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_a_script_killed_mid_search_leaves_no_process(token: str, how: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", SEARCH], cwd=ROOT, env={**os.environ, MARK: token},
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("searching"), line
        pid = int(line.split()[1])
        assert searching(pid)  # well into the search (it runs for minutes)
        tree = marked(token)
        assert [p.pid for p in tree] == [pid], f"the search started processes: {described(tree)}"
        assert psutil.Process(pid).children(recursive=True) == []
        signal_to(pid, how)
        proc.wait(timeout=30)
        left = survivors(token, lambda p: False)
        assert not left, f"left behind by a script killed ({how}) mid-search: {described(left)}"
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "restart"])
def test_a_kernel_killed_mid_search_leaves_no_process(token: str, how: str) -> None:
    """A real Jupyter kernel (jupyter_client's KernelManager, the notebook server's way of
    starting one) searches; it is killed from outside, or restarted as the notebook's
    Restart does, in the middle of the search: no process it started may be left."""
    from jupyter_client.manager import KernelManager

    km = KernelManager(kernel_name="python3")
    km.start_kernel(env={**os.environ, MARK: token}, cwd=str(ROOT))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        kc.execute(SEARCH)
        pid, end = 0, time.monotonic() + 120
        while not pid:
            assert time.monotonic() < end, "the kernel never started the search"
            msg = kc.get_iopub_msg(timeout=120)
            if msg["msg_type"] == "error":
                pytest.fail("the search failed in the kernel: " + " ".join(msg["content"]["traceback"])[-2000:])
            if msg["msg_type"] == "stream" and msg["content"]["text"].startswith("searching"):
                pid = int(msg["content"]["text"].split()[1])
        assert searching(pid)  # well into the search (it runs for minutes)
        tree = marked(token)
        assert [p.pid for p in tree] == [pid], f"the search started processes: {described(tree)}"
        assert psutil.Process(pid).children(recursive=True) == []
        if how == "restart":
            km.restart_kernel(now=True)  # what the notebook's Restart does to a busy kernel
            new = km.provisioner.pid if km.provisioner is not None else None  # the new kernel carries the mark too
            left = survivors(token, lambda p: p.pid == new)
        else:
            signal_to(pid, how)
            left = survivors(token, lambda p: False)
        assert not left, f"left behind by a kernel {'restarted' if how == 'restart' else 'killed (' + how + ')'} mid-search: {described(left)}"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


# -- the garbage collector -------------------------------------------------------------

CALLS = ("disable", "enable", "collect", "freeze", "unfreeze", "set_threshold", "set_debug")


def watched_search(court: bool, seen: list[tuple[bool, tuple[int, ...], int]]) -> None:
    """One default search (two trees) on KUM or the court, noting the collector's state at
    every move the search plays."""
    game: Any = kum.Court(seed=3) if court else kum.Game(2, seed=3)
    view, seat, legal = game.view(game.current_player), game.current_player, game.legal_action_ids()
    rules = game_of_view(view)
    assert isinstance(rules, CourtOfTheThreeClans if court else kum.KingsUnderMountains) and len(legal) > 1
    step = rules.step

    def noting(state: Any, action: int) -> Any:
        seen.append((gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()))
        return step(state, action)

    rules.step = noting  # the search binds the game's step once: this is it
    bot = ISMCTSBot(iterations=60, seed=2)
    bot.decide(rules, view, seat, legal)
    assert bot.last_stats["trees"] == 2 and bot.last_stats["iterations"] > 0


@pytest.mark.parametrize("court", [False, True], ids=["kum", "court"])
@pytest.mark.parametrize("enabled", [True, False], ids=["gc-on", "gc-off"])
def test_a_search_never_touches_the_garbage_collector(monkeypatch: pytest.MonkeyPatch, court: bool, enabled: bool) -> None:
    was_enabled, thresholds = gc.isenabled(), gc.get_threshold()
    (gc.enable if enabled else gc.disable)()
    try:
        gc.set_threshold(900, 11, 12)  # the kernel's own settings, whatever they are
        frozen = gc.get_freeze_count()
        calls: list[str] = []
        for name in CALLS:
            real = getattr(gc, name)
            monkeypatch.setattr(gc, name, lambda *a, _name=name, _real=real, **k: (calls.append(_name), _real(*a, **k))[1])
        seen: list[tuple[bool, tuple[int, ...], int]] = []
        watched_search(court, seen)
        monkeypatch.undo()
        assert calls == [], f"the search called gc.{', gc.'.join(calls)}"
        assert seen and set(seen) == {(enabled, (900, 11, 12), frozen)}, "the collector's settings changed during the search"
        assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == (enabled, (900, 11, 12), frozen)
    finally:
        monkeypatch.undo()
        gc.set_threshold(*thresholds)
        (gc.enable if was_enabled else gc.disable)()


def test_bot_move_through_a_session_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    for name in CALLS:
        real = getattr(gc, name)
        monkeypatch.setattr(gc, name, lambda *a, _name=name, _real=real, **k: (calls.append(_name), _real(*a, **k))[1])
    game = kum.Game(2, seed=5)
    game.apply(bot_move(game, ISMCTSBot(iterations=40, seed=1)))
    assert calls == []
