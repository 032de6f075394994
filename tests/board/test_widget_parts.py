"""The board's two parts, without a browser and without a widget (issue 33, item 7): the
seats (who sits where, whose view the board shows, when bots move, what the pass screen
hides) and the router (every message from the page checked, done and answered); and the
rule that no widget module reads a private field of ``Session``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget.board.drawing import Viewer
from kum_widget.board.router import Reply, Router
from kum_widget.board.seats import Seats
from kum_widget.core import GameError, Session
from kum_widget.core.errors import GameFault, IllegalMoveError
from kum_widget.core.examples import DRAW, Bust

PACKAGE = Path(kum.__file__).parent


# -- no widget module reads a private field of Session ------------------------------------------


def widget_modules() -> list[Path]:
    """Every module of the board (kum_widget/board/)."""
    return sorted((PACKAGE / "board").glob("*.py"))


def private_reads(source: str) -> list[str]:
    """Every ``x._name`` (x not ``self``/``cls``) and ``getattr(x, "_name")`` in ``source``: a
    module's own fields are ``self._...``; anything else private is another object's."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")) and not is_super(node.value):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr"):
            name = node.args[1] if len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value.startswith("_") and not name.value.startswith("__"):
                if not (isinstance(node.args[0], ast.Name) and node.args[0].id in ("self", "cls")):
                    found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda f: int(f.split()[1].rstrip(":")))


def is_super(node: ast.expr) -> bool:
    """``super()``: the class's own bases' fields (anywidget's ``_repr_mimebundle_``)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def test_the_scan_finds_a_private_read() -> None:
    assert private_reads("def f(session):\n    return session.game.public_view(session._state)\n") == ["line 2: session._state"]
    assert private_reads("x = self._game._history[-1]\ny = getattr(board.game, '_state')\n") == [
        "line 1: self._game._history", "line 2: getattr(board.game, '_state')"]
    assert private_reads("self._seats.seat = 1\nexc.__cause__\nsuper().__init__()\n") == []


@pytest.mark.parametrize("path", widget_modules(), ids=lambda p: p.name)
def test_no_widget_module_reads_a_private_field_of_another_object(path: Path) -> None:
    assert private_reads(path.read_text(encoding="utf-8")) == [], f"{path.name} reads another object's private fields"


def test_the_widget_is_one_anywidget_class_not_a_stack_of_mixins() -> None:
    """One class each on the one base that holds the front-end and the traits they share (a
    board drawn from a referee's frames on the one that draws frames)."""
    from kum_widget.board.frame_board import FrameBoard
    from kum_widget.board.seat_board import SeatBoard
    from kum_widget.board.widget import BoardView

    assert [c for c in kum.GameWidget.__mro__ if c.__module__.startswith("kum_widget")] == [kum.GameWidget, BoardView]
    assert [c for c in SeatBoard.__mro__ if c.__module__.startswith("kum_widget")] == [SeatBoard, FrameBoard, BoardView]


# -- the public reads a board needs -------------------------------------------------------------


def test_the_session_tells_a_board_what_it_draws() -> None:
    s = Session(Bust(), ["Ada", "Bo"], seed=1)
    assert s.title == "Bust" and s.last_click() is None
    assert s.public_view() == s.game.public_view(s.state) and s.public_view()["hands"] == [3, 3]
    ids = s.legal_action_ids()
    assert s.clicks() == s.clicks(ids) == [s.game.click(s.state, a) or {} for a in ids]
    assert s.clicks([DRAW]) == [{"target": "deck"}]
    s.apply("draw")
    assert s.last_click() == {"target": "deck"}
    s.apply(s.legal_actions()[0])
    assert s.last_click() == {"source": f"card {int(s.history[-1])}", "target": "pile"}


@pytest.mark.parametrize("ids", [[999], [DRAW, 999], "draw", [None], 5])
def test_clicks_are_asked_only_of_legal_actions(ids: Any) -> None:
    s = Session(Bust(), ["Ada", "Bo"], seed=1)
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match="legal action ids"):
        s.clicks(ids)
    assert s.to_dict() == before


def test_a_game_whose_click_fails_is_named_not_a_key_error() -> None:
    class BrokenClick(Bust):
        def click(self, s: Any, action: int) -> dict[str, str]:
            raise KeyError(action)

    s = Session(BrokenClick(), ["Ada", "Bo"], seed=1)
    with pytest.raises(GameFault, match=r"Bust's click\(\) failed on action \d+ \(KeyError"):
        s.clicks()
    s.apply("draw")
    with pytest.raises(GameFault, match="click"):
        s.last_click()


# -- the seats ------------------------------------------------------------------------------------


def bust(players: int = 2, seed: int = 1) -> Session:
    return Session(Bust(), ["Ada", "Bo", "Cy", "Di"][:players], seed=seed)


def test_one_human_sees_their_own_seat_and_acts_on_their_turn() -> None:
    s = bust()
    seats = Seats(s, {0: "random"})
    assert seats.seat == 1 and seats.humans() == [1]  # the first human seat
    screen = seats.screen()
    assert screen.viewer == Viewer("seat", 1) == screen.kept and screen.pass_to == ""
    assert screen.actions == [] and seats.bot_to_move()  # the bot's turn: nothing offered
    s.apply(s.legal_actions()[0])
    screen = seats.screen()
    assert screen.actions == s.legal_action_ids() and screen.status is None and not seats.bot_to_move()


def test_a_hot_seat_shows_the_public_table_until_the_player_says_who_they_are() -> None:
    s = bust()
    seats = Seats(s, {})
    screen = seats.screen()
    assert (screen.viewer, screen.kept, screen.pass_to, screen.actions) == (Viewer("public"), Viewer("public"), "Ada", [])
    assert screen.status == "Pass the board to Ada."
    seats.ready()
    screen = seats.screen()
    assert screen.viewer == Viewer("seat", 0) and screen.kept == Viewer("public")  # a save keeps the public table
    assert screen.pass_to == "" and screen.actions == s.legal_action_ids()
    with pytest.raises(GameError, match="no pass screen"):
        seats.ready()
    s.apply("draw")
    screen = seats.screen()
    assert screen.viewer == Viewer("public") and screen.pass_to == "Bo" and seats.at_screen is None


def test_an_undo_that_hands_the_turn_back_shows_the_pass_screen_again() -> None:
    s = bust()
    seats = Seats(s, {})
    seats.ready()
    s.apply("draw")
    seats.screen()  # the board looks at every change: Bo's turn, nobody at the screen yet
    seats.ready()
    assert seats.screen().viewer == Viewer("seat", 1)
    s.undo()
    assert seats.screen().pass_to == "Ada"  # whoever is at the screen is Bo: Ada must say so


def test_during_a_bots_turn_the_board_stays_with_who_last_said() -> None:
    s = bust(3)
    seats = Seats(s, {1: "random"})
    seats.ready()
    s.apply("draw")  # the bot's turn
    screen = seats.screen()
    assert screen.viewer == Viewer("seat", 0) and screen.actions == [] and screen.pass_to == ""
    assert screen.status is None and seats.screen(thinking=True).status == "Bo is thinking…"
    seats.start_over()
    assert seats.screen().viewer == Viewer("public")  # a new game: nobody has said who they are


def test_game_over_shows_everyone_the_public_table() -> None:
    s = bust()
    seats = Seats(s, {})
    for _ in range(200):
        if s.is_over:
            break
        s.apply(s.legal_action_ids()[-1] if len(s.legal_action_ids()) > 1 else s.legal_action_ids()[0])
    seats.at_screen = s.current_player
    screen = seats.screen()
    assert (screen.viewer, screen.pass_to, screen.actions, screen.status) == (Viewer("public"), "", [], None)
    assert seats.at_screen is None


def test_reveal_shows_the_full_table_and_offers_the_human_to_act() -> None:
    s = bust()
    seats = Seats(s, {1: "greedy"}, reveal=True)
    screen = seats.screen()
    assert screen.viewer == screen.kept == Viewer("full") and screen.actions == s.legal_action_ids()
    seats.reveal = False
    assert seats.screen().viewer == Viewer("seat", 0)


@pytest.mark.parametrize("seat, reveal, words", [(2, False, "seat must be 0..1"), ("0", False, "seat must"), (0, 1, "reveal must be True or False")])
def test_the_seats_refuse_a_bad_seat_or_reveal(seat: Any, reveal: Any, words: str) -> None:
    with pytest.raises(GameError, match=words):
        Seats(bust(), {1: "random"}, seat=seat, reveal=reveal)
    seats = Seats(bust(), {})
    with pytest.raises(GameError, match=words):
        seats.seat, seats.reveal = seat, reveal
    assert (seats.seat, seats.reveal) == (0, False)


def test_bots_wait_while_there_is_something_to_redo() -> None:
    s = bust()
    seats = Seats(s, {1: "random"})
    s.apply("draw")
    assert seats.bot_to_move() and not seats.bots_wait()
    s.apply(s.legal_actions()[0])
    s.undo()
    assert seats.bots_wait() and seats.screen(thinking=True).status == "Bo waits: you are replaying (step 1 of 2). Redo to go on."


def test_undo_and_redo_go_from_one_human_decision_to_the_next() -> None:
    s = bust(3)
    seats = Seats(s, {1: "random", 2: "random"})
    for _ in range(3):  # Ada, then both bots: Ada's turn again
        s.apply(s.legal_actions()[0])
    assert seats.undo_steps() == 3  # back to Ada's decision, over the bots' replies
    s.undo(3)
    assert seats.redo_steps() == 3 and seats.undo_steps() == 0  # no earlier decision
    nobody = Seats(s, {0: "random", 1: "random", 2: "random"})
    assert nobody.redo_steps() == 1  # no human: one action at a time
    s.redo(3)
    assert nobody.undo_steps() == 1


def test_the_bot_seats_as_the_page_lists_them() -> None:
    class Mine:
        name = "Mine"

        def choose(self, view: Any, legal: Any) -> Any:
            return legal[0]

    seats = Seats(bust(3), {1: " Greedy ", 2: Mine()})
    assert seats.bot_seats() == {"1": {"name": "Greedy bot", "kind": "greedy"}, "2": {"name": "Mine", "kind": None}}
    seats.seat_bots({1: "random"}, seed=3)
    assert list(seats.bot_seats()) == ["1"] and seats.humans() == [0, 2] and seats.specs == {1: "random"}


# -- the router -----------------------------------------------------------------------------------


class FakeBoard:
    """What the router may ask of a board, and nothing else: it keeps what it was asked."""

    def __init__(self, session: Session, offered: list[int] | None = None) -> None:
        self.game = session
        self.offered_ids = offered if offered is not None else session.legal_action_ids()
        self.calls: list[tuple[Any, ...]] = []
        self.undone = 1

    def act(self, action: Any) -> list[Any]:
        self.calls.append(("act", action))
        return self.game.apply(action)

    def ready(self) -> None:
        self.calls.append(("ready",))

    def undo(self) -> int:
        self.calls.append(("undo",))
        return self.undone

    def redo(self) -> int:
        self.calls.append(("redo",))
        return 0

    def new_game(self, seed: int | None = None, *, bots: dict[int, Any] | None = None) -> None:
        self.calls.append(("new_game", seed, bots))

    def save_for_lab(self) -> Path:
        self.calls.append(("save_for_lab",))
        return Path("/the/board/chose/this.kum.txt")


def router(bots: dict[int, Any] | None = None, offered: list[int] | None = None) -> tuple[Router, FakeBoard]:
    s = bust()
    board = FakeBoard(s, offered)
    return Router(board, Seats(s, bots or {})), board


def msg(board: FakeBoard, kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, "state_id": board.game.state_id, "id": "t1", **fields}


def test_a_click_on_an_offered_action_is_played_and_answered() -> None:
    r, board = router()
    reply = r.route(msg(board, "act", action_id=DRAW))
    assert reply == Reply("t1") and board.calls == [("act", DRAW)]  # applied by id; the error line is the board's to clear
    assert reply.answer(board.game.state_id) == {"kind": "answer", "id": "t1", "state_id": board.game.state_id}


@pytest.mark.parametrize("content, words", [
    ("hello", "not an object"),
    ({"kind": "hack", "id": "t1"}, "unknown kind"),
    ({"kind": "act", "action_id": DRAW, "cheat": 1}, "unknown field cheat"),
    ({"kind": "act", "action_id": DRAW, "state_id": -1}, "old board"),
    ({"kind": "act", "action_id": DRAW, "state_id": "0"}, "old board"),
    ({"kind": "act", "action": "draw"}, "unknown field action (a move names its action by id: 'action_id')"),
    ({"kind": "act", "action_id": "draw"}, "'action_id' must be the id of an action the board offers, got 'draw'"),
    ({"kind": "act", "action_id": 10}, "refused action id 10: not an action the board offers now"),
    ({"kind": "new_game", "seed": -1}, "seed must be"),
    ({"kind": "new_game", "bot": "deep blue"}, "unknown bot"),
    ({"kind": "new_game", "bot": "greedy"}, "no bot seat to change"),
    ({"kind": "redo"}, "nothing to redo"),
])
def test_a_bad_message_is_refused_with_its_reason_and_changes_nothing(content: Any, words: str) -> None:
    r, board = router()
    if isinstance(content, dict):
        content = {"state_id": board.game.state_id, **content}
    before = board.game.to_dict()
    reply = r.route(content)
    assert reply.error is not None and words in reply.error and not reply.broke
    assert board.game.to_dict() == before and all(c[0] == "redo" for c in board.calls)
    assert reply.answer(0)["kind"] == "answer"


def test_only_the_player_to_act_at_this_board_may_click() -> None:
    r, board = router(offered=[])
    reply = r.route(msg(board, "act", action_id=DRAW))
    assert reply.error == "it is not your turn to act on this board" and board.calls == []


def test_undo_redo_ready_and_new_game_go_to_the_board() -> None:
    r, board = router(bots={1: "random"})
    assert r.route(msg(board, "undo")).error == ""  # done: the error line is cleared
    board.undone = 0
    assert "nothing to undo" in (r.route(msg(board, "undo")).error or "")
    assert r.route(msg(board, "ready")) == Reply("t1")
    assert r.route(msg(board, "new_game", seed=7, bot="greedy")) == Reply("t1")
    assert r.route(msg(board, "new_game")) == Reply("t1")
    assert board.calls == [("undo",), ("undo",), ("ready",), ("new_game", 7, {1: "greedy"}), ("new_game", None, None)]


def test_a_view_message_asks_only_for_the_private_part_from_any_state() -> None:
    r, board = router()
    assert r.route({"kind": "view", "state_id": -5, "id": "v"}) == Reply("v", resend_private=True)
    assert "unknown field" in (r.route({"kind": "view", "action": "draw"}).error or "") and board.calls == []


def test_a_replay_comes_back_in_the_answer_drawn_for_whom_a_save_may_be() -> None:
    r, board = router()  # a hot seat: the public table
    reply = r.route(msg(board, "replay"))
    assert reply.error is None and re.fullmatch(r"bust_Ada-Bo_\d{4}-\d\d-\d\d-\d{4}\.html", reply.extra["filename"])
    assert reply.extra["replay"].startswith("<!DOCTYPE html>") and board.calls == []


def test_save_for_lab_is_the_boards_to_do_and_its_path_comes_back() -> None:
    """The page names nothing: the board chooses the folder and the name (its own method)."""
    r, board = router()
    reply = r.route(msg(board, "save_for_lab"))
    assert reply == Reply("t1", error="", extra={"saved": "/the/board/chose/this.kum.txt"}) and board.calls == [("save_for_lab",)]
    for bad, words in [({"name": "../../x.kum.txt"}, "unknown field name"), ({"folder": "/etc"}, "unknown field folder"),
                       ({"state_id": -1}, "old board")]:
        refused = r.route({**msg(board, "save_for_lab"), **bad})
        assert refused.error is not None and words in refused.error and "saved" not in refused.extra
    assert board.calls == [("save_for_lab",)]


def test_an_unexpected_failure_is_told_and_the_board_redrawn() -> None:
    r, board = router()

    def broken(action: Any) -> list[Any]:
        raise KeyError("deep inside")

    board.act = broken  # type: ignore[method-assign]
    reply = r.route(msg(board, "act", action_id=DRAW))
    assert reply.broke and reply.error == "internal error (KeyError): 'deep inside'" and reply.token == "t1"


@pytest.mark.parametrize("token", [None, 5, "x" * 65, ["t"]])
def test_a_token_that_is_not_short_text_comes_back_as_null(token: Any) -> None:
    r, board = router()
    assert r.route({**msg(board, "ready"), "id": token}).token is None


@settings(max_examples=200, deadline=None)
@given(content=st.one_of(
    st.none(), st.integers(), st.text(max_size=20), st.lists(st.integers(), max_size=3),
    st.dictionaries(
        st.sampled_from(["kind", "action_id", "action", "state_id", "seed", "bot", "id", "x"]),
        st.one_of(st.none(), st.integers(-3, 3), st.just(DRAW), st.text(max_size=30),
                  st.sampled_from(["act", "undo", "redo", "ready", "new_game", "replay", "view", "draw", "random"])),
        max_size=5),
))
def test_every_message_gets_an_answer(content: Any) -> None:
    r, board = router(bots={1: "random"})
    reply = r.route(content)  # never raises
    answer = reply.answer(board.game.state_id)
    assert answer["kind"] == "answer" and answer["id"] == (content.get("id") if isinstance(content, dict) and isinstance(content.get("id"), str) else None)
    assert not reply.broke
