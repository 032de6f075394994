"""The board you can trust (issue 9): the kernel owns every trait, each seat sees only
its own cards, every browser message is answered, and closed boards let go.

``Recorded`` (tests/_board_helpers.py) captures every message the kernel sends to the
browser through ipywidgets' real sending path; browser messages go in through
``_handle_msg``, the path a comm message from the page takes.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from _board_helpers import Recorded, browser_msg, browser_write, hand_ids, offered_id, run_on_own_loop, send

import kum_widget as kum
from kum_widget import core

# -- 1. the browser writes no trait -----------------------------------------------------------

HOSTILE_VALUES: dict[str, list[Any]] = {
    "reveal": [True, 1, "yes"],
    "seat": [1, -1, 7, "1", None],
    "step": [0, -5, 10**9, "0"],
    "max_step": [0, 10**9],
    "board": [{}, {"players": []}, None],
    "legal": [{"plays": [{"card": 0, "label": "orc 0 #0", "targets": ["mine 1"]}], "draws": ["deck"]}],
    "log_lines": [["<script>alert(1)</script>"]],
    "error": ["<img src=x onerror=alert(1)>", ""],
    "state_id": [0, 10**9, -1],
    "pass_to": ["", "Bo"],
    "bot_seats": [{}, {"0": {"name": "x", "kind": "random"}}],
    "last_move": [{"text": "secret"}],
    "thinking": [True],
    "bot_choices": [["evil"]],
    "bot_delay": [0, -1, 1e308],
    "private_id": [0, 1, 10**9, -1],
    "why_not": [{"card 3": "<b>yes</b>"}, {}],
    "analysis": [{"kind": "bot", "seat": 1, "moves": []}, None],
    "pace": ["instant", "warp"],
    "controls": [[], ["undo", "reveal-all"], None],
}


def test_every_synced_trait_is_listed_for_the_hostile_write_test() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    from kum_widget.board.widget import BoardView

    ours = {name for name in w.keys if name in BoardView.class_own_traits()}
    assert ours == set(HOSTILE_VALUES)


@pytest.mark.parametrize("name, value", [(n, v) for n, vs in HOSTILE_VALUES.items() for v in vs])
def test_browser_trait_writes_are_refused_and_reverted(name: str, value: Any) -> None:
    game = kum.Game(["Ada", "Bo"], seed=5)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    w = Recorded(game, bots={1: "random"}, bot_delay=0)
    before_game, before_traits = game.to_dict(), json.dumps(w.get_state(), sort_keys=True)
    hand = w.game.hand(1)
    browser_write(w, {name: value})
    assert game.to_dict() == before_game
    after = w.get_state()
    assert "refused a change of " + name in after["error"]
    after["error"] = json.loads(before_traits)["error"]
    assert json.dumps(after, sort_keys=True) == before_traits
    # the page got the kernel's values back for what it wrote
    reverted = [u for u in w.updates() if name in u]
    assert reverted and reverted[-1][name] == json.loads(json.dumps(w.get_state()))[name]
    assert all(c.label not in json.dumps(w.page) for c in hand if not game._state.known[c.id])


def test_a_write_of_many_traits_at_once_changes_nothing() -> None:
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    before = w.game.to_dict()
    browser_write(w, {"reveal": True, "seat": 1, "step": 0, "unknown_trait": 3, "_dom_classes": ["x"]})
    assert w.game.to_dict() == before and w.reveal is False and w.seat == 0
    assert hand_ids(w.board, 1) == [None] * 6
    assert w.page["reveal"] is False and w.page["seat"] == 0


# -- 2-5. hot seat: the pass screen cannot be skipped -----------------------------------------


def hot_seat(players: list[str], bots: dict[int, str] | None = None, seed: int = 4) -> Recorded:
    return Recorded(kum.Game(players, seed=seed), bots=bots or {}, bot_delay=0)


def take_turn(w: kum.GameWidget) -> None:
    send(w, "act", action_id=offered_id(w, next(t for t in w.offered if not t.startswith("draw"))))
    if w.offered and w.offered[0].startswith("draw"):
        send(w, "act", action_id=w.offered_ids[0])


def test_undo_after_ready_shows_the_pass_screen_again() -> None:
    # Ada plays and draws; Bo says "I am Bo", then Undo: back to Ada's draw, behind a pass screen.
    w = hot_seat(["Ada", "Bo"])
    send(w, "ready")
    take_turn(w)
    assert w.pass_to == "Bo"
    send(w, "ready")
    assert w.page["board"]["shown_seat"] == 1
    send(w, "undo")
    assert w.error == "" and w.game.current_player == 0
    assert w.pass_to == "Ada" and w.offered == [] and w.legal == {"actions": []}
    assert all(i is None for p in (0, 1) for i in hand_ids(w.page["board"], p))
    before = w.game.to_dict()
    send(w, "act", action_id=w.game.action_id("draw camp orc"))  # Bo tries to draw for Ada: her legal move, not offered here
    assert "not your turn" in w.error and w.game.to_dict() == before


def test_a_bots_turn_between_two_humans_shows_no_one_elses_hand() -> None:
    w = hot_seat(["Ada", "Bo", "Cy"], bots={2: "greedy"}, seed=5)
    seen: list[tuple[int | None, str]] = []
    w.checks.append(lambda r: seen.append((r.page["board"].get("shown_seat"), r.page["pass_to"])))
    send(w, "ready")
    for _ in range(3):  # Ada, Bo, then the bot, then Ada again
        take_turn(w)
        send(w, "ready")
    for shown, _ in seen:
        assert shown is None or shown in (0, 1)
    # whenever a bot was to move, the board showed the seat that last said who they were, or no one
    w2 = hot_seat(["Ada", "Bo", "Cy"], bots={0: "greedy"}, seed=5)  # the bot moves first: nobody at the screen yet
    assert w2.board.get("shown_seat") is None or w2.pass_to


def test_the_log_behind_a_pass_screen_names_no_drawn_card() -> None:
    w = hot_seat(["Ada", "Bo"])
    for _ in range(12):
        send(w, "ready")
        take_turn(w)
        assert w.pass_to
        assert not any(" from the deck." in line and "drew " in line and "drew from" not in line for line in w.log_lines)
        assert w.log_lines == [" ".join(w.game.describe(e, spectator=True) for e in ev) for ev in w.game.logs[-20:]]


def test_hot_seat_game_over_shows_only_the_public_table() -> None:
    game = kum.Game(["Ada", "Bo"], seed=9)
    w = Recorded(game, bot_delay=0)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    assert w.pass_to == "" and w.page["board"].get("shown_seat") is None and w.page["board"]["spectator"] is True
    assert all(i is None for p in (0, 1) for i in hand_ids(w.page["board"], p))
    assert w.log_lines == [" ".join(game.describe(e, spectator=True) for e in ev) for ev in game.logs[-20:]]


def test_ready_without_a_pass_screen_is_refused() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    before = w.game.to_dict()
    send(w, "ready")
    assert "no pass screen" in w.error and w.game.to_dict() == before


# -- 6. every browser message is answered -------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        {"kind": "undo"},  # a fresh board: nothing to undo
        {"kind": "redo"},
        {"kind": "act", "action_id": 10**6},  # an id the board does not offer
        {"kind": "new_game", "seed": 99999999999},
        {"kind": ["act"]},
        {"kind": "act", "action_id": ["x"]},
        {"kind": "act", "action": "draw deck"},  # text: the page sends ids
        {"kind": "act", "action_id": 0, "extra": 1},
        {"kind": "ready"},
    ],
)
def test_every_message_gets_one_answer_even_when_refused_twice(content: dict[str, Any]) -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    before = w.game.to_dict()
    for token in ("a:1", "a:2"):
        w.sent.clear()
        browser_msg(w, {**content, "state_id": w.state_id, "id": token})
        assert [a["id"] for a in w.answers()] == [token]
        assert w.sent[-1]["method"] == "custom"  # the answer comes after the state it answers for
    assert w.error and "internal" not in w.error and w.game.to_dict() == before


@pytest.mark.parametrize("content", [None, 3, "undo", [], {"id": {"x": 1}}, {"id": "x" * 999, "kind": "undo"}])
def test_malformed_messages_are_answered_too(content: Any) -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    browser_msg(w, content)
    assert [a["id"] for a in w.answers()] == [None]
    assert w.error


def test_an_accepted_click_sends_one_update_then_the_answer() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    w.sent.clear()
    send(w, "act", action_id=w.offered_ids[0])
    assert [m["method"] for m in w.sent] == ["update", "custom"]


# -- 7. a new game keeps the opponent ------------------------------------------------------------


def test_new_game_from_the_board_keeps_the_bots_unless_told() -> None:
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    send(w, "new_game", seed=4)
    assert w.error == "" and type(w.bots[1]).__name__ == "GreedyBot" and w.game.seed == 4
    assert w.bot_seats == {"1": {"name": "Greedy bot", "kind": "greedy"}}


# -- 9-12. kernel-side checks -------------------------------------------------------------------------


def test_a_failing_listener_cannot_split_board_and_game(caplog: pytest.LogCaptureFixture) -> None:
    game = kum.Game(["Ada", "Bo"], seed=2)
    w = Recorded(game, bots={1: "random"}, bot_delay=0)
    game.on_change(lambda g: 1 / 0)
    with caplog.at_level(logging.ERROR, logger="kum_widget"):
        events = game.apply(game.legal_actions()[0])
    assert events and w.state_id == game.state_id and "to draw" in w.board["status"]
    assert "listener" in caplog.text and "ZeroDivisionError" in caplog.text


def test_seat_and_bot_delay_are_checked_when_set() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    for bad in (7, -1, "1", None, 1.5):
        with pytest.raises(core.GameError, match="seat"):
            w.seat = bad
    for bad in (float("nan"), float("inf"), -1, "1"):
        with pytest.raises(core.GameError, match="bot_delay"):
            w.bot_delay = bad
    assert w.seat == 0 and w.bot_delay == 0
    w.game.apply(w.game.legal_actions()[0])  # the game still works with its board
    assert w.state_id == w.game.state_id


def test_the_widget_logger_is_ipywidgets_own() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    assert hasattr(w.log, "warning")  # ipywidgets' error paths log through it


def test_closed_boards_let_go_of_the_game() -> None:
    game = kum.Game(["Ada", "Bo"], seed=3)
    boards = [kum.GameWidget(game, bot_delay=0) for _ in range(100)]
    for b in boards:
        b.close()
    assert game._listeners == []
    game.apply(game.legal_actions()[0])
    assert boards[0].state_id != game.state_id  # closed: it no longer follows


def test_a_closed_boards_bot_does_not_move() -> None:
    async def scenario() -> tuple[int, int]:
        game = kum.Game(["Ada", "Bo"], seed=3)
        w = kum.GameWidget(game, bots={1: "random"}, bot_delay=0.01)
        game.apply(game.legal_actions()[0])
        game.apply("draw deck")  # the bot's turn: its move is scheduled
        assert w.thinking
        w.close()
        await asyncio.sleep(0.05)
        return game.current_player, len(game.history)

    assert run_on_own_loop(scenario()) == (1, 2)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"bots": {5: "random"}}, "seat is a whole number 0..3"),
        ({"bots": {"1": "random"}}, "seat is a whole number"),
        ({"bots": {True: "random"}}, "seat is a whole number"),
        ({"bots": [1]}, "bots must map seats"),
        ({"bots": {1: 3}}, "a bot is a name"),
        ({"bots": {1: "deep blue"}}, "unknown bot"),
        ({"bot_delay": float("nan")}, "bot_delay"),
        ({"bot_delay": float("inf")}, "bot_delay"),
        ({"bot_delay": -1}, "bot_delay"),
        ({"seat": 7}, "seat"),
        ({"reveal": "yes"}, "reveal"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"game": "chess"}, "game must be a game"),
    ],
)
def test_bad_board_arguments_are_named(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(core.GameError, match=words):
        kum.GameWidget(**kwargs)


def test_two_bots_of_one_kind_get_different_names() -> None:
    w = kum.GameWidget(bots={1: "greedy", 2: "greedy"}, bot_delay=0, seed=1)
    assert w.game.players == ("Ada", "Greedy bot", "Greedy bot 2")


def test_new_game_checks_before_it_changes_anything() -> None:
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    w.game.apply(w.offered[0])
    before = w.game.to_dict()
    for kwargs, words in [
        ({"bots": {5: "random"}}, "seat is a whole number 0..1"),
        ({"colour": "red"}, "unknown option"),
        ({"players": ["Ada"]}, "players"),
        ({"seed": -1}, "seed"),
    ]:
        with pytest.raises(core.GameError, match=words):
            w.new_game(**kwargs)
        assert w.game.to_dict() == before and type(w.bots[1]).__name__ == "GreedyBot"


# -- 13. undo and redo: one step to a human decision, one sync, redo list kept -------------------


def test_board_undo_is_one_change_and_redo_keeps_the_redo_list() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    other = Recorded(w.game, seat=1, reveal=True)
    for _ in range(3):
        take_turn(w)
    done = len(w.game.history)
    w.sent.clear(), other.sent.clear()
    changes = []
    w.game.on_change(lambda g: changes.append(g.state_id))
    send(w, "undo")
    assert len(changes) == 1 and len(w.updates()) == 1 and len(other.updates()) == 1
    assert w.game.current_player == 0 and w.game.movers[-1] == 0 and w.game.phase == "draw"
    future = w.game.redo_movers
    assert future[0] == 0 and w.game.can_redo
    send(w, "redo")  # forward over Ada's draw and the bot's reply, to Ada's next decision
    assert len(w.game.history) == done and not w.game.can_redo and w.game.current_player == 0


def test_bots_wait_while_there_is_something_to_redo() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    take_turn(w)
    w.game.undo(1)  # from a cell: take back the bot's last action
    assert w.game.current_player == 1 and w.game.can_redo  # the bot does not move over the redo list
    assert w.run_bots() >= 1 and w.game.current_player == 0
