"""Regression tests from a hostile probe of the core, the replay file and Kings Under Mountains'
public calls: each input that once escaped as a bare Python error, changed a session it was
refused on, or wrote where it should not."""

from __future__ import annotations

import _thread
import os
import re
import socket
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from game_from_docs import Expeditions

import kum_widget as kum
from kum_widget import core
from kum_widget.core.session import new_session

# -- save_replay: the file it writes, and what it refuses to replace ----------------------------


def _umask(mask: int) -> int:
    return os.umask(mask)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_save_replay_gives_a_new_file_the_umask_s_mode(tmp_path: Path, mask: int, mode: int) -> None:
    old = _umask(mask)
    try:
        path = kum.save_replay(kum.Game(seed=1), tmp_path / "game.html")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == mode  # mkstemp's 0600 made a course page unreadable


def test_save_replay_keeps_an_existing_file_s_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.html"
    path.write_text("old")
    path.chmod(0o640)
    kum.save_replay(kum.Game(seed=1), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "old" != path.read_text()[:3]


def test_save_replay_writes_through_a_link_and_keeps_it(tmp_path: Path) -> None:
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    kum.save_replay(kum.Game(seed=1), link)
    assert link.is_symlink() and real.read_text().startswith("<!DOCTYPE html>")


def test_save_replay_refuses_a_fifo_and_leaves_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(core.InvalidOptionError, match="not a regular file"):
        kum.save_replay(kum.Game(seed=1), fifo)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # no temporary file left beside it


def test_save_replay_refuses_a_device_and_a_socket(tmp_path: Path) -> None:
    """As root, save_replay(g, os.devnull) replaced /dev/null. The device here is a copy of
    /dev/null made in a temporary folder (as root), so a regression cannot touch the real one;
    without root nothing in /dev can be replaced anyway, and /dev/null itself is tried."""
    if os.geteuid() == 0:
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        device = Path(os.devnull)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    try:
        for node in (device, tmp_path / "sock"):
            before = node.lstat()
            with pytest.raises(core.InvalidOptionError, match="not a regular file"):
                kum.save_replay(kum.Game(seed=1), node)
            after = node.lstat()
            assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    finally:
        sock.close()


def test_save_replay_cuts_a_long_path_in_its_message(tmp_path: Path) -> None:
    with pytest.raises(core.InvalidOptionError) as err:
        kum.save_replay(kum.Game(seed=1), tmp_path / "nowhere" / ("z" * 20_000))
    assert len(str(err.value)) < 400


# -- Ctrl-C part-way through apply, undo or redo: the session as it was ----------------------------


class Interrupted(Expeditions):
    """Expeditions whose apply is interrupted (as by Ctrl-C) after it has changed the position."""

    interrupt_at: int | None = None  # the number of apply calls after which Ctrl-C arrives
    calls = 0

    def apply(self, s: Any, action: int) -> Any:
        events = super().apply(s, action)
        type(self).calls += 1
        if type(self).calls == type(self).interrupt_at:  # once, as one Ctrl-C
            raise KeyboardInterrupt
        return events


@pytest.fixture
def interrupted() -> Any:
    Interrupted.interrupt_at, Interrupted.calls = None, 0
    yield Interrupted
    Interrupted.interrupt_at, Interrupted.calls = None, 0


def _played(session: core.Session, moves: int) -> core.Session:
    for _ in range(moves):
        session.apply(session.legal_action_ids()[0])
    return session


def _snapshot(session: core.Session) -> tuple[Any, ...]:
    return (session.history, session.redo_count, session.state_id, session.view(None), session.legal_action_ids())


def test_ctrl_c_during_apply_leaves_the_session_as_it_was(interrupted: Any) -> None:
    session = _played(core.Session(interrupted(), 2, seed=3), 4)
    before = _snapshot(session)
    interrupted.interrupt_at = interrupted.calls + 1
    with pytest.raises(KeyboardInterrupt):
        session.apply(session.legal_action_ids()[0])
    interrupted.interrupt_at = None
    assert _snapshot(session) == before  # the position had moved on while the history had not
    session.apply(session.legal_action_ids()[0])  # and the next action is legal again


def test_ctrl_c_during_undo_leaves_the_session_as_it_was(interrupted: Any) -> None:
    session = _played(core.Session(interrupted(), 2, seed=3), 5)  # undo replays from the start
    before = _snapshot(session)
    interrupted.interrupt_at = interrupted.calls + 2
    with pytest.raises(KeyboardInterrupt):
        session.undo(1)
    interrupted.interrupt_at = None
    assert _snapshot(session) == before
    assert session.undo(1) == 1


def test_ctrl_c_during_redo_leaves_the_session_as_it_was(interrupted: Any) -> None:
    session = _played(core.Session(interrupted(), 2, seed=3), 5)
    session.undo(4)
    before = _snapshot(session)
    interrupted.interrupt_at = interrupted.calls + 3  # the third action redone
    with pytest.raises(KeyboardInterrupt):
        session.redo(4)
    interrupted.interrupt_at = None
    assert _snapshot(session) == before
    assert session.redo(4) == 4


class Slow(Expeditions):
    """Expeditions whose apply changes the position, then takes its time."""

    def apply(self, s: Any, action: int) -> Any:
        events = super().apply(s, action)
        if Slow.slow:
            Slow.slow = False  # once: the position rebuilt after Ctrl-C replays without waiting
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                pass  # busy: a real Ctrl-C (SIGINT's handler) lands between bytecodes here
        return events

    slow = False


def test_a_real_ctrl_c_during_a_slow_apply_leaves_the_session_as_it_was(ctrl_c: None) -> None:
    session = _played(core.Session(Slow(), 2, seed=4), 3)
    before = _snapshot(session)
    Slow.slow = True
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            session.apply(session.legal_action_ids()[0])
    finally:
        Slow.slow = False
        timer.cancel()
    assert _snapshot(session) == before


# -- errors that once escaped as Python's own ----------------------------------------------------


def test_describe_takes_only_an_event() -> None:
    game = kum.Game(seed=1)
    for bad in (None, 3, "Played", object()):
        with pytest.raises(kum.KumError, match="describe takes an event"):
            game.describe(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [
    lambda g: g.discard(10**5000), lambda g: g.play(10**5000, 1), lambda g: g.discard(-1), lambda g: g.play(80, 1),
])
def test_a_card_id_out_of_range_is_named_before_it_is_written_out(call: Any) -> None:
    game = kum.Game(seed=1)
    before = game.to_dict()
    with pytest.raises(kum.InvalidActionError, match=r"card id must be 0\.\.79"):
        call(game)
    assert game.to_dict() == before


@pytest.mark.parametrize("seed", ["1" * 40, str(2**64)])
def test_a_record_s_seed_is_in_the_range_game_takes(seed: str) -> None:
    record = re.sub(r'\[Seed "\d+"\]', f'[Seed "{seed}"]', kum.Game(seed=1).record())
    with pytest.raises(kum.KumError, match=r"seed must be a whole number 0\.\.2\*\*64-1"):
        kum.Game.from_record(record)
    assert kum.Game.from_record(record.replace(seed, str(2**64 - 1))).seed == 2**64 - 1


def test_a_saved_game_s_seed_is_in_the_range_game_takes() -> None:
    data = kum.Game(seed=1).to_dict()
    data["seed"] = 10**40
    with pytest.raises(kum.KumError, match=r"seed must be a whole number 0\.\.2\*\*64-1"):
        kum.Game.from_dict(data)  # it said the position did not match


def test_an_option_name_that_is_not_text_is_named() -> None:
    rules = kum.Court(seed=1).game
    for bad in ({1: 2}, {None: 2}, {("a",): 1}):
        with pytest.raises(core.InvalidOptionError, match="an option's name is text"):
            rules.with_options(bad)


def test_a_long_unknown_option_is_cut_in_the_message() -> None:
    rules = kum.Court(seed=1).game
    long = "z" * 20_000
    for call in (lambda: rules.with_options({long: 1}), lambda: new_session(rules, **{long: 1})):
        with pytest.raises(core.InvalidOptionError, match="unknown option 'zzz") as err:
            call()
        assert len(str(err.value)) < 400


class Broken(Expeditions):
    def apply(self, s: Any, action: int) -> Any:
        raise RuntimeError("x" * 20_000)


def test_a_game_fault_cuts_the_game_s_own_message() -> None:
    session = core.Session(Broken(), 2, seed=1)
    with pytest.raises(core.GameFault, match="RuntimeError: xxx") as err:
        session.apply(session.legal_action_ids()[0])
    assert len(str(err.value)) < 400
    assert session.history == ()


class FaultsLater(Expeditions):
    """Expeditions whose apply fails (a bug in the game) once ``fail_at`` actions were applied."""

    fail_at: int | None = None
    calls = 0

    def apply(self, s: Any, action: int) -> Any:
        FaultsLater.calls += 1
        if FaultsLater.calls == FaultsLater.fail_at:
            raise RuntimeError("the game's bug")
        return super().apply(s, action)


def test_a_game_fault_during_redo_takes_back_the_steps_redone() -> None:
    FaultsLater.fail_at, FaultsLater.calls = None, 0
    session = _played(core.Session(FaultsLater(), 2, seed=3), 4)
    session.undo(4)
    before = _snapshot(session)
    FaultsLater.fail_at = FaultsLater.calls + 3
    try:
        with pytest.raises(core.GameFault, match="the game's bug"):
            session.redo(4)
    finally:
        FaultsLater.fail_at = None
    assert _snapshot(session) == before  # the steps redone before the fault went back (they stayed, unannounced)
    assert session.redo(4) == 4


def test_a_saved_option_a_game_s_own_init_fails_on_is_a_save_error() -> None:
    """Expeditions (written from GAMES.md) formats a bad 'hand' into its message: a 5001-digit
    one raised Python's bare ValueError through Session.from_dict."""
    data = core.Session(Expeditions(), 2, seed=3).to_dict()
    data["options"]["hand"] = 10**5000
    with pytest.raises(core.InvalidSaveError, match=r"options: Expeditions\(\.\.\.\) refused them \(ValueError"):
        core.Session.from_dict(data, game=Expeditions())


@pytest.mark.parametrize("bad", [5, None, "stuck=draw", [("stuck", "draw")]])
def test_kum_rules_with_options_takes_a_mapping_or_rules(bad: Any) -> None:
    rules = kum.Game(seed=1).game
    with pytest.raises(kum.KumError, match=r"options must be a kum\.Rules or a mapping"):
        rules.with_options(bad)  # dict(5) raised TypeError


@pytest.mark.parametrize("bad", [5, "expeditions", int, object()])
def test_a_loader_s_game_must_be_a_card_game(bad: Any) -> None:
    data = core.Session(Expeditions(), 2, seed=3).to_dict()
    with pytest.raises(core.InvalidSaveError, match="game: a CardGame or its class"):
        core.Session.from_dict(data, game=bad)  # AttributeError: type object 'int' has no attribute 'name'
