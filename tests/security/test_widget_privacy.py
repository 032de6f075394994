"""One privacy invariant, as a property over random message sequences (issue 9).

For 2-4 seats in every arrangement of humans and bots (reveal off), with bots moving on
the real event loop (``bot_delay`` > 0, so the states shown *while a bot thinks* are sent
too): at every state the kernel sends, the page holds nothing that ``game.view(shown
seat)`` does not (its reasons why not and the analyses it shows included: a bot's
analysis names the cards of its hand, so it never reaches another seat, and a hint is its
asker's alone, on the position it was asked on); while a pass screen shows, only the public view; in hot seat the shown
seat is the one that last confirmed on the pass screen (or nobody), and at game over
nobody. Undo, redo, replay steps, new games and cell changes are in the mix; bots are
spies that check they are shown only their own seat's view.

What the page keeps on its model (the synced traits: what a notebook saved with its
widget state holds) is checked too: in a hot seat, only the public table, whoever is at
the screen; the seat's hand comes in a message the view keeps to itself (issue 32, item 5).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from _board_helpers import Recorded, hand_ids, offered_id, run_on_own_loop, send, unpack_replay
from _soak import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget.board.drawing import Viewer, drawn_frame, frame_for
from kum_widget.board.insight import why_not_payload
from kum_widget.bots import Thoughts, Weighed
from kum_widget.core.examples import DRAW, Bust, value
from kum_widget.core.frame import zone_ids


class SpyBot:
    """Plays at random, and checks it is shown exactly its own seat's view. It shows what
    it weighed (``analysis``): its every legal action, which names the cards of its hand."""

    name = "Spy bot"

    def __init__(self, game: kum.Game, seed: int) -> None:
        self.game, self.seed, self.moves, self.leaks = game, seed, 0, 0
        self.weighed: list[int] = []

    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
        seat = self.game.current_player
        if view != self.game.view(seat):
            self.leaks += 1  # a raise would be caught by the board (a failing bot plays at random)
        self.moves += 1
        self.weighed = [int(a) for a in legal]
        return legal[(self.seed + self.moves) % len(legal)]

    def analysis(self) -> Thoughts:
        return Thoughts({a: Weighed(1 / len(self.weighed), 0.5) for a in self.weighed}, len(self.weighed))


class Tracker:
    """What the test knows independently: who last confirmed on the pass screen."""

    def __init__(self) -> None:
        self.confirmed: int | None = None
        self.updates = 0
        self.seen: dict[str, int] = {"reasons": 0, "hint": 0, "bot": 0, "bot hidden": 0}  # pages that showed each
        self.failures: list[str] = []  # the checks run inside ipywidgets' and the game's
        # callbacks, which log exceptions instead of raising them: keep them to raise here

    def check(self, w: Recorded) -> None:
        try:
            check_page(w, self)
        except AssertionError as exc:
            self.failures.append(f"{exc!r} at page {w.page}")


def check_page(w: Recorded, tracker: Tracker) -> None:
    page, game = w.page, w.game
    tracker.updates += 1
    board, pass_to = page["board"], page["pass_to"]
    humans = [s for s in range(game.num_players) if s not in w.bots]
    shown = board.get("shown_seat")
    if pass_to:
        assert len(humans) >= 2 and game.players.index(pass_to) == game.current_player
        tracker.confirmed = None
        viewer = Viewer("public")
        assert shown is None
    elif shown is None:
        viewer = Viewer("public")
    else:
        viewer = Viewer("seat", shown)
    if len(humans) < 2:
        assert shown == w.seat and not pass_to
    else:
        assert shown is None or shown == tracker.confirmed, (shown, tracker.confirmed)
        if game.is_over:
            assert shown is None
    expected = drawn_frame(frame_for(game, viewer), bots=w.bots)["board"]
    assert {k: v for k, v in board.items() if k != "status"} == {k: v for k, v in expected.items() if k != "status"}
    assert page["log_lines"] == list(frame_for(game, viewer).log)
    if page["legal"]["actions"]:
        cur = game.current_player
        assert not pass_to and cur in humans and shown == cur
        assert page["legal"]["actions"] == [a.to_json() for a in frame_for(game, viewer, None).actions]
    check_insight(page, game, shown, humans)
    tracker.seen["reasons"] += bool(page["why_not"])
    if page["analysis"] is not None:
        tracker.seen[page["analysis"]["kind"] + (" hidden" if page["analysis"].get("hidden") else "")] += 1
    assert set(page["last_move"]) <= {"seat", "bot", "target"}
    assert page["last_move"].get("target", "mine 1").startswith(("mine ", "claimed ", "deck", "camp "))  # a zone, never a card
    assert page["reveal"] is False
    check_synced(w, humans)


def check_insight(page: dict[str, Any], game: kum.Game, shown: int | None, humans: list[int]) -> None:
    """Why not: reasons only on the shown seat's turn, for parts of its board, read from its
    view. Analysis: a bot's only on its own seat's board (its moves name its hand), a hint
    only for the shown seat on the position it was asked on, listing the legal actions that
    seat has and no more."""
    legal = page["legal"]["actions"]
    if not legal:
        assert page["why_not"] == {}, page["why_not"]
    else:
        assert shown is not None
        assert page["why_not"] == why_not_payload(game, shown, page["board"], legal)
        assert set(page["why_not"]) <= part_ids(page["board"])
    a = page["analysis"]
    if a is not None and a["kind"] == "bot" and a.get("hidden"):  # to the others: how it chooses, no move it weighed
        assert a["moves"] == [] and a["chosen"] is None and a["equal"] == [], a
    elif a is not None and a["kind"] == "bot":  # shown only on its own seat's board (a board with no human shows a bot's)
        assert shown is not None and a["seat"] == shown and shown not in humans, a
    elif a is not None:
        assert a["kind"] == "hint" and shown is not None and a["seat"] == shown == game.current_player and shown in humans, a
        assert sorted(m["action"] for m in a["moves"]) == sorted(e["text"] for e in legal) != []


def part_ids(board: dict[str, Any]) -> set[str]:
    """Every id on a board: its zones, cells and places, and the cards and pieces in them."""
    found = set(zone_ids(board))

    def walk(zones: Any) -> None:
        for z in zones or ():
            found.update(c["id"] for c in z.get("cards") or ())
            found.update(p["id"] for p in z.get("pieces") or ())
            walk(z.get("zones"))

    walk(board.get("zones"))
    for seat in board.get("seats") or ():
        walk(seat.get("zones"))
    return found


def check_synced(w: Recorded, humans: list[int]) -> None:
    """The traits as the model holds them: in a hot seat the public table (a save keeps
    them), with the private part named by ``private_id``; otherwise all the page shows."""
    synced, game = w.synced, w.game
    if len(humans) < 2:
        assert synced["private_id"] == 0 and synced["board"] == w.page["board"] and synced["legal"] == w.page["legal"]
        return
    public = Viewer("public")
    board = synced["board"]
    assert board["shown_seat"] is None and board["spectator"] is True
    expected = drawn_frame(frame_for(game, public), bots=w.bots)["board"]
    assert {k: v for k, v in board.items() if k != "status"} == {k: v for k, v in expected.items() if k != "status"}
    assert synced["legal"] == {"actions": []} and synced["log_lines"] == list(frame_for(game, public).log)
    kept = synced["analysis"]  # a save keeps no reason and no hint; of a bot's move, only what every seat may read
    assert synced["why_not"] == {} and (kept is None or (kept["kind"] == "bot" and kept.get("hidden") and kept["moves"] == [])), kept
    assert (synced["private_id"] != 0) == (w.page["board"].get("shown_seat") is not None)


OPS = st.one_of(
    st.tuples(st.just("act"), st.integers(0, 200)),
    st.tuples(st.just("ready"), st.just(0)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("redo"), st.just(0)),
    st.tuples(st.just("new_game"), st.integers(0, 50)),
    st.tuples(st.just("cell_undo"), st.integers(1, 5)),
    st.tuples(st.just("cell_redo"), st.integers(1, 5)),
    st.tuples(st.just("cell_act"), st.integers(0, 200)),
    st.tuples(st.just("step"), st.integers(0, 60)),
    st.tuples(st.just("stale"), st.just(0)),
    st.tuples(st.just("run_bots"), st.just(0)),
    st.tuples(st.just("replay"), st.just(0)),
    st.tuples(st.just("display"), st.just(0)),
    st.tuples(st.just("hint"), st.integers(0, 7)),
    st.tuples(st.just("pace"), st.integers(0, 4)),
)
PACE_VALUES = ["slow", "normal", "fast", "instant", "warp"]


def check_files(w: Recorded) -> None:
    """The replay file the board's button saves, and the board's snapshot in a notebook
    output: drawn for whom the page may show, at every step, and never more."""
    game = w.game
    humans = [s for s in range(game.num_players) if s not in w.bots]
    viewer = Viewer("seat", w.seat) if len(humans) < 2 else Viewer("public")
    answer = w.answers()[-1]
    (data,) = unpack_replay(answer["replay"])
    assert len(data["frames"]) == game.move_number + 1
    for frame in data["frames"]:
        assert frame["board"]["shown_seat"] == viewer.seat and frame["board"]["spectator"] == (viewer.kind == "public")
    expected = drawn_frame(frame_for(game, viewer), bots=w.bots)["board"]
    assert {k: v for k, v in data["frames"][-1]["board"].items() if k != "status"} == {k: v for k, v in expected.items() if k != "status"}
    assert data["log"][-20:] == list(frame_for(game, viewer).log)
    check_display(w, viewer)


def check_display(w: Recorded, viewer: Viewer) -> None:
    """The board's picture and text in a notebook output outlive the moment (a saved file
    keeps them): drawn for the replay's viewer, so in a hot seat never a hand."""
    bundle, _ = w._repr_mimebundle_()
    (shot,) = unpack_replay(bundle["text/html"])
    board = shot["frames"][0]["board"]
    assert board["shown_seat"] == viewer.seat and board["spectator"] == (viewer.kind == "public")
    assert board == drawn_frame(frame_for(w.game, viewer), bots=w.bots)["board"] and shot["log"] == list(frame_for(w.game, viewer).log)


async def play(seats: list[bool], seed: int, ops: list[tuple[str, int]]) -> dict[str, int]:
    names = ["Ada", "Bo", "Cy", "Di"][: len(seats)]
    game = kum.Game(names, seed=seed)
    bots = {s: SpyBot(game, seed + s) for s, is_bot in enumerate(seats) if is_bot}
    tracker = Tracker()
    w = Recorded(game, bots=bots, bot_delay=0.001)
    w.checks.append(tracker.check)
    check_page(w, tracker)

    def send(kind: str, **fields: Any) -> None:
        w._handle_msg({"content": {"data": {"method": "custom", "content": {"kind": kind, "state_id": w.state_id, "id": "t", **fields}}}, "buffers": []})

    for op, n in ops:
        if op == "act":
            ids = w.offered_ids  # none offered: a legal move sent anyway, from a board that does not offer it
            send("act", action_id=ids[n % len(ids)] if ids else (w.game.legal_action_ids() or [0])[0])
        elif op == "ready":
            if w.pass_to:
                tracker.confirmed = game.players.index(w.pass_to)  # the page's "I am X"
            send("ready")
        elif op in ("undo", "redo"):
            send(op)
        elif op == "new_game":
            send("new_game", seed=n)
        elif op == "cell_undo":
            game.undo(n)
        elif op == "cell_redo":
            game.redo(n)
        elif op == "cell_act" and not game.is_over:
            game.apply(game.legal_actions()[n % len(game.legal_actions())])
        elif op == "step":
            w.step = min(n, w.max_step)
        elif op == "stale":
            w._handle_msg({"content": {"data": {"method": "custom", "content": {"kind": "undo", "state_id": w.state_id - 1, "id": "s"}}}, "buffers": []})
        elif op == "run_bots":
            w.run_bots(max_moves=3)
        elif op == "replay":
            send("replay")
            check_files(w)
        elif op == "hint":
            if n == 0:  # the page's Hint button: ISMCTS
                send("hint")
            elif w.offered:  # from a cell, the cheaper greedy bot: the same path otherwise
                w.hint("greedy")
        elif op == "pace":
            send("pace", value=PACE_VALUES[n])
            assert w.pace in PACE_VALUES[:4] and (n < 4 or "pace must be one of" in w.error)
        elif op == "display":
            humans = [s for s in range(game.num_players) if s not in w.bots]
            check_display(w, Viewer("seat", w.seat) if len(humans) < 2 else Viewer("public"))
        for _ in range(400):  # let scheduled bots move (each after bot_delay)
            if not w.thinking:
                break
            await asyncio.sleep(0.002)
        assert not tracker.failures, (op, n, tracker.failures[0])
    assert tracker.updates > 0
    assert all(b.leaks == 0 for b in bots.values()), "a bot was shown more than its own seat's view"
    w.close()
    return tracker.seen


ARRANGEMENTS = st.integers(2, 4).flatmap(lambda n: st.lists(st.booleans(), min_size=n, max_size=n))


@pytest.mark.soak  # random seats and moves: make soak; make test plays every arrangement below, on a fixed script
@pytest.mark.fuzz
@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=ARRANGEMENTS, seed=st.integers(0, 10_000), ops=st.lists(OPS, min_size=1, max_size=40))
def test_the_page_never_holds_more_than_the_shown_seat_may_see(seats: list[bool], seed: int, ops: list[tuple[str, int]]) -> None:
    run_on_own_loop(play(seats, seed, ops))


def test_every_arrangement_is_covered_at_least_once() -> None:
    # The property above draws arrangements at random; these are the ones the issue names.
    for seats in ([False, True], [False, False], [False, False, True], [True, False, False, True], [False] * 4, [True, True]):
        ops = [("ready", 0), ("hint", 0), ("act", 0), ("hint", 1), ("pace", 3), ("act", 0), ("ready", 0), ("hint", 2), ("pace", 4)] * 3
        ops += [("ready", 0), ("act", 0), ("act", 1), ("ready", 0), ("undo", 0), ("ready", 0), ("act", 3), ("redo", 0)] * 6
        ops += [("ready", 0), ("act", 0), ("act", 0), ("undo", 0), ("act", 0), ("cell_undo", 1), ("ready", 0), ("replay", 0)] * 4
        seen = run_on_own_loop(play(seats, 7, ops))
        humans = seats.count(False)
        assert seen["reasons"] > 0 or humans == 0, seats  # a player's turn to draw: every card of the hand says why not
        assert seen["hint"] > 0 or humans == 0, seats
        assert (seen["bot"] > 0) == (humans == 0), seats  # a bot's thinking: only where its own seat shows


def test_a_game_played_to_the_end_in_hot_seat_with_a_bot() -> None:
    ops = [("ready", 0), ("act", 0)] * 400 + [("replay", 0)]
    run_on_own_loop(play([False, True, False], 11, ops))


# -- what a saved notebook keeps (issue 32, item 5) -----------------------------------------------


def private_marks(game: kum.Game, seat: int) -> list[str]:
    """What gives ``seat``'s hand away: its unknown cards' ids and labels."""
    return [m for c in game.hand(seat) if not game._state.known[c.id] for m in (f'"card {c.id}"', c.label)]


def test_a_hot_seat_boards_synced_state_holds_no_hand_and_the_page_gets_it_by_message() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4))
    marks = private_marks(w.game, 0)
    w.sent.clear()
    send(w, "ready", token="r")  # "I am Ada"
    assert [m["method"] for m in w.sent] == ["update", "custom", "custom"]
    private, answer = w.sent[1]["content"], w.sent[2]["content"]
    assert private["kind"] == "private" and answer == {"kind": "answer", "id": "r", "state_id": w.state_id}
    # the traits name the private part that follows them; the page draws the two together
    assert w.synced["private_id"] == private["id"] == w.private_id > 0
    assert sorted(private["traits"]) == ["analysis", "board", "last_move", "legal", "log_lines", "why_not"]
    assert hand_ids(w.page["board"], 0) == [c.id for c in w.game.hand(0)] and w.page["legal"]["actions"]
    at_rest = json.dumps(w.get_state())  # what nbclient and JupyterLab's save write to the notebook
    assert [m for m in marks if m in at_rest] == []
    assert all(m not in json.dumps(w.synced) for m in marks)
    # a new view (or a reloaded page) asks: the private part again, then the answer; nothing changes
    w.sent.clear()
    before = w.game.to_dict()
    send(w, "view", token="v")
    assert [m["content"]["kind"] for m in w.sent] == ["private", "answer"] and w.sent[0]["content"] == private
    assert w.error == "" and w.game.to_dict() == before
    # the pass screen: the private part is withdrawn, and the traits name none
    w.act(next(t for t in w.offered if t.startswith("play")))
    w.act(next(t for t in w.offered if t.startswith("draw")))
    assert w.pass_to == "Bo" and w.private_id == 0 and w.privates()[-1]["traits"] is None
    assert hand_ids(w.page["board"], 0) == [None] * len(w.game.hand(0))


def test_a_view_message_on_a_board_with_nothing_private_is_answered() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    w.sent.clear()
    send(w, "view", token="v")
    assert [m["content"]["kind"] for m in w.sent] == ["private", "answer"]
    assert w.sent[0]["content"] == {"kind": "private", "id": 0, "traits": None} and w.error == ""
    send(w, "view", token="x", extra=1)  # hostile: a field it does not take
    assert "unknown field" in w.error and w.answers()[-1]["id"] == "x"


def test_reveal_and_one_human_boards_sync_everything_they_show() -> None:
    # a one-human board's picture and replay file show the human's own seat: its traits do too
    # (no message to wait for: a static export or another host draws them as they are)
    for w in (Recorded(bots={1: "greedy"}, seed=3, bot_delay=0), Recorded(kum.Game(["Ada", "Bo"], seed=4), reveal=True)):
        assert w.private_id == 0 and w.privates() == [] and w.page == w.synced
        assert w.board["shown_seat"] == (0 if not w.reveal else None) and w.legal["actions"]
    hot = Recorded(kum.Game(["Ada", "Bo"], seed=4))
    hot.ready()
    assert hot.private_id > 0
    hot.reveal = True  # from a cell: the full table, in the traits; the private part withdrawn
    assert hot.private_id == 0 and hot.privates()[-1]["traits"] is None and hot.board["shown_seat"] is None
    assert hand_ids(hot.board, 0) != [None] * 6 and hot.page == hot.synced


# -- a private line the game fails to write (issue 42, item 8d) --------------------------------


class PrivateTypo(Bust):
    """A draw's note to the drawer alone names a seat the game lacks: a bug in a private line."""

    name = "bust-private-typo"

    def apply(self, s: Any, action: int) -> Any:
        p = s.turn
        events = super().apply(s, action)
        if action == DRAW:
            card = value(s.hands[p][-1])
            return [kum.core.Note(f"{{player}} drew the secret {card} for {{seat7}}.", seat=p, to=(p,), others="{player} drew a card.")]
        return events


def test_a_private_line_the_game_fails_to_write_reaches_no_public_trait_and_the_bots_go_on() -> None:
    """Ada draws (her private line names {seat7}); Bo, a bot, is next: the board stays with
    Ada's view, so her line is written, and fails."""
    w = Recorded(PrivateTypo(), players=["Ada", "Bo", "Cy"], bots={1: "greedy"}, bot_delay=0, seed=1)
    send(w, "ready")
    send(w, "act", action_id=offered_id(w, "draw"))
    assert w.game.move_number >= 2 and w.game.movers[1] == 1, (w.game.movers, w.error)  # Bo moved
    assert w.pass_to == "Cy"
    public = json.dumps([w.synced, w.updates(), w.answers()])
    assert "secret" not in public and "secret" not in w.error, w.error
    send(w, "ready")  # Cy
    w.act(w.offered[0])
    assert "secret" not in json.dumps(w.updates()) and w.error == ""
    while w.pass_to != "Ada":  # Ada at the screen again: her own log says a private line failed, not what it said
        send(w, "ready")
        w.act(w.offered[0])
    send(w, "ready")
    mine = w.page["log_lines"]
    assert any("a private line" in line for line in mine) and "secret" not in json.dumps(mine), mine
    with pytest.raises(kum.core.GameFault) as caught:  # from a cell, too: the fault says which line, not what it said
        w.game.describe(w.game.logs[0][0], 0)
    assert "secret" not in str(caught.value) and "{seat7}" in str(caught.value), caught.value
