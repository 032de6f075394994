"""A frame as what changed since the last one a connection got: the changes make the new frame
from the old exactly, leave the old one as it was, and a change that does not fit is refused;
a client whose frame a delta does not fit asks for the whole frame once and carries on."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from _referee_helpers import DEADLINE, referee
from hypothesis import given, settings
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget.core.registry import game_class
from kum_widget.core.session import Session
from kum_widget.referee.client import SeatClient, SeatGame
from kum_widget.referee.delta import DeltaError, changes, patched

SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.text("ab", max_size=2)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abc", max_size=2), inner, max_size=4),
                    max_leaves=12)


def wired(value: Any) -> Any:
    return json.loads(json.dumps(value))


@settings(max_examples=400, deadline=None)
@given(JSON, JSON)
def test_the_changes_make_the_new_value_from_the_old_and_leave_the_old_alone(old: Any, new: Any) -> None:
    before = copy.deepcopy(old)
    delta = wired(changes(old, new))  # as it crosses the wire
    assert patched(wired(old), delta) == new
    assert patched(old, delta) == new and old == before


def test_a_seats_frames_of_a_whole_game_cross_as_changes_a_fifth_of_their_size_or_less() -> None:
    session = Session.dealt(game_class("kings-under-mountains")(), 4, seed=5)
    rng = random.Random(5)
    held = wired(session.frame(2).to_json())
    whole = sent = 0
    while not session.is_over:
        session.apply(rng.choice(session.legal_action_ids()))
        frame = session.frame(2).to_json()
        delta = json.dumps(changes(held, frame))
        held = patched(held, json.loads(delta))
        assert held == wired(frame)
        whole, sent = whole + len(json.dumps(frame)), sent + len(delta)
    assert sent * 5 < whole, (sent, whole)


@pytest.mark.parametrize("delta, says", [
    ({"=": 1}, "changes come as a list, not dict"),
    ([["=", ["hand", 5], "x"]], "does not fit this frame"),  # past the list's end
    ([["=", ["nothing", "here"], 1]], "does not fit this frame"),  # a key the frame has not
    ([["-", ["hand"], 1]], "does not fit this frame"),  # a removal with a value
    ([["~", ["status"], 0, 1, []]], "does not fit this frame"),  # a splice of text
    ([["~", ["hand"], 2, 1, []]], "does not fit this frame"),  # its end before its start
    ([["?", ["status"], 1]], "does not fit this frame"),
    ([["=", "status", 1]], "does not fit this frame"),  # a path is a list
    ([5], "does not fit this frame"),
])
def test_a_change_that_does_not_fit_is_refused_and_the_frame_left_as_it_was(delta: Any, says: str) -> None:
    frame = {"status": "Ada to play", "hand": ["a", "b"]}
    with pytest.raises(DeltaError, match=says):
        patched(frame, delta)
    assert frame == {"status": "Ada to play", "hand": ["a", "b"]}


def test_a_client_whose_frame_a_delta_does_not_fit_asks_for_the_whole_frame_and_plays_on(tmp_path: Path) -> None:
    with referee(tmp_path) as (url, codes, _):
        ada = SeatGame(SeatClient(url, codes[("table 1", 0)], game="bust", version=kum.__version__, timeout=DEADLINE))
        bo = SeatGame(SeatClient(url, codes[("table 1", 1)], game="bust", version=kum.__version__, timeout=DEADLINE))
        client = bo._client
        stale = {**client.frame, "state_id": -5}  # as if Bo's frame were another than the referee last sent
        with client._changed:
            client.frame = stale
        ada.act(ada.legal_action_ids()[0])
        bo.wait_state(1)  # the delta did not fit: the whole frame came instead
        assert client.frame["viewer"] == 1 and bo.legal_action_ids()
        bo.act(bo.legal_action_ids()[0])
        ada.wait_state(2)
        assert bo.state_id == 2 and bo.log == client.frame["log"]
        for game in (ada, bo):
            game._client.close()
