"""Undo at a table: a seat takes back its own last move, and only that, only when no other seat
has acted since, the move showed it nothing it did not know (a card drawn, another seat's
sealed pick revealed), and the game draws no chance during play. Each refusal says which and
leaves the table as it was."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from kum_widget.core import CardGame
from kum_widget.core.examples import DRAW, Bust
from kum_widget.core.session import Session
from kum_widget.gallery.undercut import Undercut
from kum_widget.referee import Refused, Table


def saved(table: Table) -> tuple[Any, ...]:
    return table.state_id, table.sequence, table.moves, json.dumps([table.frame(s) for s in range(len(table.players))], sort_keys=True)


def bust(seed: int = 1) -> Table:
    return Table("table 1", Session(Bust(), ["Ada", "Bo"], seed=seed))


def plays(table: Table, seat: int) -> list[int]:
    return [a["id"] for a in table.frame(seat)["actions"] if a["text"].startswith("play")]


def test_a_seat_takes_back_its_own_card_played_and_the_table_is_as_before_it() -> None:
    table = bust()
    before = table.frame(0)
    table.act(0, plays(table, 0)[0], state_id=0)
    table.undo(0, state_id=1)
    after = table.frame(0)
    assert table.moves == 0 and table.state_id == 2 and table.sequence == 2
    assert after["actions"] == before["actions"] and after["board"]["zones"] == before["board"]["zones"]


def test_only_the_seat_that_moved_last_may_take_back_and_only_that_move() -> None:
    table = bust()
    with pytest.raises(Refused, match="only your own last move, and nothing has been played"):
        table.undo(0, state_id=0)
    table.act(0, plays(table, 0)[0], state_id=0)
    was = saved(table)
    with pytest.raises(Refused, match="the last move was Ada's"):
        table.undo(1, state_id=1)
    assert saved(table) == was
    table.act(1, table.frame(1)["actions"][0]["id"], state_id=1)
    with pytest.raises(Refused, match="the last move was Bo's"):  # another seat has acted since
        table.undo(0, state_id=2)
    with pytest.raises(Refused, match="moved on since state 1") as stale:
        table.undo(1, state_id=1)
    assert stale.value.resync


def test_a_card_drawn_cannot_be_taken_back() -> None:
    table = bust()
    assert DRAW in [a["id"] for a in table.frame(0)["actions"]]
    table.act(0, DRAW, state_id=0)
    was = saved(table)
    with pytest.raises(Refused, match="showed you what you did not know"):
        table.undo(0, state_id=1)
    assert saved(table) == was


def test_a_sealed_pick_may_be_taken_back_but_not_the_pick_that_showed_both() -> None:
    table = Table("table 1", Session(Undercut(), ["Ada", "Bo"], seed=1))
    table.act(0, 4, state_id=0)  # sealed: Bo sees that Ada picked, not what
    table.undo(0, state_id=1)
    table.act(0, 5, state_id=2)
    table.act(1, 3, state_id=3)  # both shown: Bo saw Ada's 5
    was = saved(table)
    with pytest.raises(Refused, match="showed you what you did not know"):
        table.undo(1, state_id=4)
    assert saved(table) == was


@dataclass
class Toss:
    rng: random.Random
    heads: list[int] = field(default_factory=lambda: [0, 0])
    turn: int = 0
    left: int = 4


class Tosses(CardGame):
    """Each seat in turn tosses a coin (chance during play) or stops tossing."""

    name = "tosses"
    min_players = max_players = 2

    def setup(self, players: int, rng: random.Random) -> Toss:
        return Toss(rng)

    def current_player(self, s: Toss) -> int:
        return s.turn

    def legal_actions(self, s: Toss) -> list[int]:
        return [0, 1] if s.left else []

    def apply(self, s: Toss, action: int) -> list[Any]:
        if action == 1:
            s.heads[s.turn] += s.rng.random() < 0.5
        s.turn, s.left = 1 - s.turn, s.left - 1
        return []

    def is_over(self, s: Toss) -> bool:
        return not s.left

    def scores(self, s: Toss) -> list[float]:
        return [float(h) for h in s.heads]

    def view(self, s: Toss, seat: int | None) -> dict[str, Any]:
        return {"heads": list(s.heads), "turn": s.turn, "left": s.left}

    def action_text(self, s: Toss, action: int) -> str:
        return ("stay", "toss")[action]


def test_no_move_is_taken_back_in_a_game_that_draws_chance_during_play() -> None:
    table = Table("table 1", Session(Tosses(), ["Ada", "Bo"], seed=1))
    table.act(0, 0, state_id=0)  # even a move that drew nothing: the game's chance is measured, not guessed per move
    was = saved(table)
    with pytest.raises(Refused, match="draws chance during play"):
        table.undo(0, state_id=1)
    assert saved(table) == was


def test_a_bot_or_a_stand_in_takes_nothing_back_and_a_person_takes_the_seat_back() -> None:
    table = Table("table 1", Session(Bust(), ["Ada", "Bo"], seed=1), bots={1: "greedy"})
    table.act(0, plays(table, 0)[0], state_id=0)
    table.act(1, plays(table, 1)[0] if plays(table, 1) else table.frame(1)["actions"][0]["id"], state_id=1, by_bot=True)
    with pytest.raises(Refused, match="a bot plays Bo's seat"):
        table.undo(1, state_id=2)
    table.hand_over(0, "random")
    assert table.frame(1)["stand_ins"] == {"0": "random"} and table.bot_to_act() == 0
    with pytest.raises(Refused, match="a random bot plays for Ada while away: take your seat back first"):
        table.act(0, table.frame(0)["actions"][0]["id"], state_id=2)
    with pytest.raises(Refused, match="plays Bo's seat already"):
        table.hand_over(1)
    with pytest.raises(Refused, match="a stand-in is one of the bots"):
        table.hand_over(0, "oracle")
    assert table.take_back(0) and not table.take_back(0) and table.bot_to_act() is None
