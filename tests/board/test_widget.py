"""GameWidget driven through the same messages the browser sends (no browser here).

With no running event loop, bot seats move at once, so these tests are synchronous.
"""

from __future__ import annotations

import json

import pytest
from _board_helpers import Recorded, hand_ids, offered_id, zone
from hypothesis import given, settings
from hypothesis import strategies as st

import kum_widget as kum


def send(w: kum.GameWidget, **content: object) -> None:
    content.setdefault("state_id", w.state_id)
    w._on_browser_msg(w, content, [])


def click(w: kum.GameWidget, text: str) -> None:
    """A click on the offered action ``text``: the page sends its id."""
    send(w, kind="act", action_id=offered_id(w, text))


def synced(w: kum.GameWidget) -> str:
    """Everything the widget sends to the browser, as JSON."""
    names = ["board", "legal", "log_lines", "error", "state_id", "last_move", "pass_to", "bot_seats", "seat", "reveal"]
    return json.dumps({name: getattr(w, name) for name in names})


def test_widget_starts_on_human_turn_with_legal_actions() -> None:
    w = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)
    assert w.game.players == ("Ada", "Greedy bot")
    assert w.game.current_player == 0 and w.offered
    assert w.offered == [w.game.action_text(a) for a in w.game.legal_actions()]
    assert [a["text"] for a in w.legal["actions"]] == w.offered
    assert [a["id"] for a in w.legal["actions"]] == w.offered_ids == w.game.legal_action_ids()  # the ids the page sends back
    plays = [a for a in w.legal["actions"] if a["text"].startswith("play")]
    assert plays and all(a["source"].startswith("card ") and a["target"].startswith(("mine ", "claimed ")) for a in plays)
    assert w.board["shown_seat"] == 0 and w.state_id == w.game.state_id


def test_click_play_then_draw_then_bot_replies() -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    click(w, next(t for t in w.offered if t.startswith("play")))
    assert w.error == "" and w.game.phase == "draw"
    click(w, "draw deck")
    assert w.error == ""
    assert w.game.current_player == 0 and w.game.phase == "play"  # the bot replied at once
    assert w.last_move["seat"] == 1 and w.last_move["bot"] is True
    assert any("Random bot" in line for line in w.log_lines)


def test_stale_state_id_is_refused_and_game_unchanged() -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    before = w.game.to_dict()
    send(w, kind="act", action_id=w.offered_ids[0], state_id=w.state_id - 1)
    assert "old board" in w.error
    assert w.game.to_dict() == before


@pytest.mark.parametrize(
    "content, words",
    [
        ("not a dict", "not an object"),
        ({"kind": "hack"}, "unknown kind"),
        ({"kind": "act", "action_id": None}, "'action_id' must be the id of an action the board offers"),
        ({"kind": "act", "action_id": "3"}, "'action_id' must be the id of an action the board offers"),
        ({"kind": "act", "action": "draw deck"}, "unknown field action (a move names its action by id: 'action_id')"),  # text is for people: the page sends ids
        ({"kind": "act", "action_id": 10**6}, "not an action the board offers now"),
        ({"kind": "new_game", "seed": "abc"}, "seed"),
        ({"kind": "new_game", "bot": "<script>"}, "unknown bot"),
    ],
)
def test_bad_messages_are_refused_with_reason(content: object, words: str) -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    before = w.game.to_dict()
    if isinstance(content, dict):
        content = {"state_id": w.state_id, **content}
    w._on_browser_msg(w, content, [])
    assert words in w.error
    assert w.game.to_dict() == before


def test_browser_cannot_move_for_a_bot_seat() -> None:
    game = kum.Game(["Ada", "Bo"], seed=3)
    w = kum.GameWidget(game, seat=0, bots={0: "random"}, bot_delay=0)
    # Seat 0 is a bot, seat 1 (human) to move now; the board shows seat 0 (a bot): no legal list.
    assert game.current_player == 1
    assert w.offered == []
    before = game.to_dict()
    send(w, kind="act", action_id=game.legal_action_ids()[0])  # the human's legal move, sent from a board that does not offer it
    assert "not your turn" in w.error and game.to_dict() == before


def test_nothing_private_is_synced() -> None:
    w = kum.GameWidget(bots={1: "greedy"}, seed=8, bot_delay=0)
    for _ in range(10):
        click(w, w.offered[0])
    bot_hand = w.game.hand(1)
    assert hand_ids(w.board, 1) == [None] * len(w.game.hand(1))
    hidden = [c for c in bot_hand if not w.game._state.known[c.id]]
    payload = synced(w)
    for card in hidden:
        assert card.label not in payload  # e.g. "goblin 7 #34" never leaves the kernel


def test_cell_changes_rerender() -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    sid = w.state_id
    w.game.apply(w.game.legal_actions()[0])
    assert w.state_id > sid and "to draw" in w.board["status"]
    w.game.undo()
    assert "to play" in w.board["status"]
    w.game.load(kum.Game.from_record(kum.Game(["Ada", "Random bot"], seed=99).record()))
    assert w.game.seed == 99 and zone(w.board, "deck")["count"] == 60


def test_act_undo_new_game_from_cells() -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    w.act(w.game.legal_actions()[0])
    w.act("draw deck")
    assert w.game.current_player == 0 and len(w.game.history) >= 4
    w.undo()  # back over the bot's replies to Ada's draw decision
    assert w.game.current_player == 0 and w.game.phase == "draw" and len(w.game.history) == 1
    w.new_game(seed=5)
    assert w.game.seed == 5 and w.game.history == () and w.offered


def test_new_game_with_another_bot_renames_its_seat() -> None:
    w = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)
    assert list(w.game.players)[1] == "Greedy bot"
    w.new_game(seed=4, bots={1: "ismcts"})
    assert list(w.game.players)[1] == "ISMCTS bot" and w.bot_seats == {"1": {"name": "ISMCTS bot", "kind": "ismcts"}}
    named = kum.GameWidget(kum.Game(["Ada", "Bo"], seed=1), bots={1: "greedy"}, bot_delay=0)
    named.new_game(seed=2, bots={1: "random"})
    assert list(named.game.players) == ["Ada", "Bo"]  # names the user chose stay


def test_undo_and_new_game_from_buttons() -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    click(w, w.offered[0])
    send(w, kind="undo")
    assert w.game.history == () and w.error == ""
    send(w, kind="new_game", seed=17, bot="greedy")
    assert w.game.seed == 17 and w.bot_seats == {"1": {"name": "Greedy bot", "kind": "greedy"}}


def test_two_widgets_on_one_game_stay_in_step() -> None:
    game = kum.Game(["Ada", "Bo"], seed=4)
    a = kum.GameWidget(game, seat=0)
    b = kum.GameWidget(game, seat=1, reveal=True)
    click(a, a.offered[0]) if not a.pass_to else None
    game.apply(game.legal_actions()[0])
    assert a.state_id == b.state_id == game.state_id
    assert a.board["status"] == b.board["status"] or a.pass_to


def test_hot_seat_hides_hand_behind_pass_screen() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4))
    assert w.pass_to == "Ada" and w.offered == []
    assert hand_ids(w.page["board"], 0) == hand_ids(w.page["board"], 1) == [None] * 6
    send(w, kind="ready")
    assert w.pass_to == "" and w.offered and w.page["board"]["shown_seat"] == 0  # what the page shows ...
    assert w.board["shown_seat"] is None and hand_ids(w.board, 0) == [None] * 6  # ... not what it keeps
    click(w, w.offered[0])
    click(w, next(t for t in w.offered if t.startswith("draw")))
    assert w.pass_to == "Bo" and w.offered == []
    assert hand_ids(w.page["board"], 0) == hand_ids(w.page["board"], 1) == [None] * 6
    send(w, kind="ready")
    assert w.page["board"]["shown_seat"] == 1 and w.offered


def test_bot_that_raises_is_reported_and_game_goes_on() -> None:
    class Broken:
        name = "Broken bot"

        def choose(self, view, legal):
            raise RuntimeError("boom")

    w = kum.GameWidget(bots={1: Broken()}, seed=3, bot_delay=0)
    click(w, w.offered[0])
    click(w, "draw deck")
    assert "Broken bot failed" in w.error and "boom" in w.error
    assert w.game.current_player == 0 and w.offered


def test_xss_name_is_plain_data() -> None:
    name = "<img src=x onerror=alert(1)>"
    w = kum.GameWidget(kum.Game([name, "Bo"], seed=1), bots={1: "random"}, bot_delay=0)
    assert w.board["players"][0]["name"] == name  # the front-end renders it with textContent


def test_widget_plays_a_whole_game_by_messages() -> None:
    w = kum.GameWidget(bots={1: "greedy"}, seed=21, bot_delay=0)
    for _ in range(1000):
        if w.game.is_over:
            break
        click(w, w.offered[-1])
        assert w.error == ""
    assert w.game.is_over and w.board["over"]
    assert [p["seat"] for p in w.board["players"] if p.get("winner")] == w.game.winners()
    assert [p["score"] for p in w.board["players"]] == w.game.scores()


def test_bad_constructor_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        kum.GameWidget(seat=7)
    with pytest.raises(ValueError, match="unknown bot"):
        kum.GameWidget(bots={1: "deep blue"})
    with pytest.raises(ValueError, match="bot_delay"):
        kum.GameWidget(bot_delay=-1)


@settings(max_examples=150, deadline=None)
@given(
    content=st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=30),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(
            st.sampled_from(["kind", "action_id", "action", "state_id", "seed", "bot", "x"]),
            st.one_of(st.none(), st.integers(-5, 5), st.text(max_size=40), st.sampled_from(["act", "undo", "new_game", "ready", "draw deck"])),
            max_size=5,
        ),
    )
)
def test_fuzzed_messages_never_crash(content: object) -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    kind = content.get("kind") if isinstance(content, dict) else None
    before = w.game.to_dict()
    w._on_browser_msg(w, content, [])  # must not raise
    if kind not in ("undo", "new_game", "act", "ready") or w.error:
        assert w.game.to_dict() == before or kind in ("undo", "new_game")


def test_step_trait_replays_history_both_ways() -> None:
    import ipywidgets

    game = kum.Game(["Ada", "Bo"], seed=12)
    for _ in range(10):
        game.apply(game.legal_actions()[0])
    w = kum.GameWidget(game, reveal=True)
    assert w.step == w.max_step == 10
    slider = ipywidgets.IntSlider(min=0, max=w.max_step)
    ipywidgets.link((slider, "value"), (w, "step"))
    slider.value = 4
    assert len(game.history) == 4 and w.step == 4 and w.max_step == 10 and w.game.turn == 2
    slider.value = 10
    assert len(game.history) == 10 and game.can_redo is False
    w.step = 99  # clamped to what the record holds
    assert w.step == 10
    game.undo(3)
    assert w.step == 7 and slider.value == 7  # a change from a cell moves the slider
