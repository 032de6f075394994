"""A referee's table: each seat acts only on its turn, on the state its frame showed, with an id
its frame offered; every refusal leaves the game exactly as it was and says why; a seat's frame
holds no other seat's secret, whatever the seats do."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from _conformance_helpers import Holdings

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.core.examples import Bust
from kum_widget.core.registry import game_class
from kum_widget.core.session import Session, new_session
from kum_widget.referee import Refused, Table


def bust_table() -> Table:
    return Table("table 1", Session(Bust(), ["Ada", "Bo"], seed=1))


def saved(table: Table) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was."""
    return table.state_id, table.sequence, json.dumps([table.frame(s) for s in (0, 1, "public")], sort_keys=True)


def offered(table: Table, seat: int) -> list[int]:
    return [a["id"] for a in table.frame(seat)["actions"]]


def test_the_seat_to_act_plays_an_offered_id_and_every_seat_sees_the_new_state() -> None:
    table = bust_table()
    before = table.frame(1)
    assert before["actions"] == [] and before["current"] == 0  # Bo's frame offers nothing on Ada's turn
    action = offered(table, 0)[0]
    assert table.act(0, action, state_id=table.state_id) == [0, 1]
    assert table.sequence == 1 and table.frame(1)["state_id"] == before["state_id"] + 1
    assert table.frame(1)["current"] == 1 and offered(table, 1)


@pytest.mark.parametrize(("seat", "action", "state", "says", "resync"), [
    (1, "first", "now", "it is Ada's turn, not Bo's", False),
    (2, "first", "now", "there is no seat 2", False),
    (-1, "first", "now", "there is no seat -1", False),
    (True, "first", "now", "there is no seat True", False),
    ("0", "first", "now", "there is no seat '0'", False),
    (0, "first", "old", "the game has moved on since state 0", True),
    (0, "first", 10**6, "the game has moved on since state 1000000", True),
    (0, "first", "1", "a state id is a whole number", False),
    (0, "first", 1.0, "a state id is a whole number", False),
    (0, True, "now", "an action id is a whole number", False),
    (0, 2.0, "now", "an action id is a whole number", False),
    (0, -1, "now", "an action id is a whole number", False),
    (0, 2**53, "now", "an action id is a whole number", False),
    (0, "play 3", "now", "an action id is a whole number", False),
    (0, None, "now", "an action id is a whole number", False),
    (0, "illegal", "now", "is not one of Ada's legal actions", True),
])
def test_a_refused_request_changes_nothing_and_says_why(seat: Any, action: Any, state: Any, says: str, resync: bool) -> None:
    table = bust_table()
    table.act(0, offered(table, 0)[0], state_id=table.state_id)
    table.act(1, offered(table, 1)[0], state_id=table.state_id)  # now Ada's turn again, at state 2
    if state == "old":
        state = 0
    elif state == "now":
        state = table.state_id
    if action == "first":
        action = offered(table, 0)[0]
    elif action == "illegal":
        action = max(offered(table, 0)) + 1000
    before = saved(table)
    with pytest.raises(Refused, match=says) as refused:
        table.act(seat, action, state_id=state)
    assert refused.value.resync is resync
    assert saved(table) == before
    assert "table 1" in str(refused.value) or "there is no seat" in str(refused.value)


def test_a_game_over_refuses_every_action() -> None:
    table = bust_table()
    rng = random.Random(3)
    while not table.is_over:
        seat = table.frame("public")["current"]
        table.act(seat, rng.choice(offered(table, seat)), state_id=table.state_id)
    before = saved(table)
    with pytest.raises(Refused, match="the game is over"):
        table.act(0, 0, state_id=table.state_id)
    assert saved(table) == before


def test_a_table_is_built_from_a_session_and_a_name_only() -> None:
    with pytest.raises(GameError, match="a table's name is text"):
        Table("", Session(Bust(), 2, seed=1))
    with pytest.raises(GameError, match="a table's name is text"):
        Table("x" * 81, Session(Bust(), 2, seed=1))
    with pytest.raises(GameError, match="a table holds a core Session"):
        Table("t", Bust())  # type: ignore[arg-type]
    with pytest.raises(GameError, match="seats 0 to 1 and the public view, not 5"):
        bust_table().frame(5)
    assert repr(bust_table()) == "<Table 'table 1': Bust, Ada, Bo, state 0>"


@pytest.mark.parametrize(("game", "players"), [("kings-under-mountains", 4), ("undercut", 2)])
def test_no_frame_of_a_seat_holds_another_seats_secret_whoever_acts(game: str, players: int) -> None:
    """Seats play a seeded game through the table, each choosing from its own frame alone, and
    seats not to act try to act too (refused); at every step, each seat's frame is checked
    against every other seat's secrets (the game's ``secrets(state, seat)``)."""
    session = new_session(game_class(game)(), players, seed=11)
    table = Table("table 7", session)
    rng = random.Random(5)
    steps = 0
    while not table.is_over:
        secrets = {owner: session.game.secrets(session.state, owner) for owner in range(players)}
        for seat in range(players):
            frame = table.frame(seat)
            held = Holdings({**frame, "actions": [{k: v for k, v in a.items() if k != "id"} for a in frame["actions"]]})
            for owner, owned in secrets.items():
                for secret in owned:
                    assert owner == seat or not held.hold(secret), f"seat {seat}'s frame holds {secret!r}, seat {owner}'s"
        current = table.frame("public")["current"]
        other = (current + 1) % players
        with pytest.raises(Refused):
            table.act(other, rng.randrange(50), state_id=table.state_id)
        table.act(current, rng.choice(offered(table, current)), state_id=table.state_id)
        steps += 1
    assert steps > 5 and table.frame(0)["over"] is True


def test_the_version_a_referee_checks_is_the_packages() -> None:
    import tomllib
    from importlib.metadata import version

    from _paths import ROOT

    pinned = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert kum.__version__ == kum.core.VERSION == pinned == version("kum-widget")


def test_a_bot_seat_is_the_referees_and_a_person_cannot_play_it() -> None:
    table = Table("table 1", Session(Bust(), ["Ada", "Bo"], seed=1), bots={0: "greedy"})
    assert table.bot_to_act() == 0
    before = saved(table)
    with pytest.raises(Refused, match="the greedy bot plays Ada's seat"):
        table.act(0, offered(table, 0)[0], state_id=table.state_id)
    assert saved(table) == before
    copy, state = table.for_bot()
    assert state == table.state_id and copy is not table.for_bot()[0] and copy.to_dict() == table.for_bot()[0].to_dict()
    table.act(0, offered(table, 0)[0], state_id=state, by_bot=True)
    assert table.bot_to_act() is None  # Bo's turn: a person's
    with pytest.raises(GameError, match="a bot sits at a seat from 0 to 1, not 2"):
        Table("t", Session(Bust(), 2, seed=1), bots={2: "greedy"})
    with pytest.raises(GameError, match="a bot at a table is one of random, greedy, ismcts, not 'clever'"):
        Table("t", Session(Bust(), 2, seed=1), bots={1: "clever"})
