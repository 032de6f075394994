"""A session stays as it was when an apply, undo or redo is cut short: by Ctrl-C part-way
through (the position had moved on while the history had not), or by a bug in the game's own
code (a GameFault, its message cut short)."""

from __future__ import annotations

import _thread
import threading
import time
from typing import Any

import pytest
from game_from_docs import Expeditions

from kum_widget import core

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



# -- a fault in the game's own code -------------------------------------------------------------


class Broken(Expeditions):
    def apply(self, s: Any, action: int) -> Any:
        raise RuntimeError("x" * 20_000)


def test_a_game_fault_cuts_the_game_s_own_message() -> None:
    session = core.Session(Broken(), 2, seed=1)
    with pytest.raises(core.GameFault, match="RuntimeError: xxx") as err:
        session.apply(session.legal_action_ids()[0])
    assert len(str(err.value)) < 400
    assert session.history == ()


class OwnMoves(Expeditions):
    """Expeditions whose own move objects are dicts ``{"id": n}`` (its encode reads the id),
    and whose refusal does not know an id it never offered (a KeyError)."""

    def encode(self, view: dict[str, Any], action: Any) -> int:
        return action["id"]  # type: ignore[no-any-return]

    def refusal(self, s: Any, action: int) -> str | None:
        if action not in self.legal_actions(s):
            raise KeyError(action)
        return None


def test_a_games_own_move_objects_go_through_its_encode_and_what_it_cannot_read_is_named() -> None:
    """A move object is the game's to encode: what its encode cannot read is an illegal
    action named with the error type, an encode that gives no int is the game's fault, and a
    refusal that does not know an id says it is no action of this game; none moves the game."""
    session = core.Session(OwnMoves(), 2, seed=1)
    first = session.legal_action_ids()[0]
    session.apply({"id": first})
    assert session.history == (first,)
    with pytest.raises(core.IllegalMoveError, match=r"\{'no id': 1\} is not an action of .*\(KeyError\)"):
        session.apply({"no id": 1})
    with pytest.raises(core.GameFault, match=r"encode\(\) must give an action id \(an int\), got '3'"):
        session.apply({"id": "3"})
    with pytest.raises(core.IllegalMoveError, match="not an action of this game"):
        session.apply(10**6)
    assert session.history == (first,)


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
