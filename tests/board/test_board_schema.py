"""The board description's pieces, cells and places (GAMES.md, "The board"): what
``board_problems`` accepts, what it refuses (each message names the path of the part at
fault), the ids a click may name, and how the kernel passes them on: the legal actions'
``choice``, the last move's mark, the board's text. The gallery's games (kum_widget/gallery/) pass
``check_game``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from _gallery_helpers import code_lines
from _paths import ROOT

from kum_widget import core
from kum_widget.board.drawing import Viewer, board_payload
from kum_widget.board.text import board_text
from kum_widget.core.board import board_problems, click_problems
from kum_widget.core.frame import zone_ids
from kum_widget.gallery.connect_four import ConnectFour
from kum_widget.gallery.workers import Woodcutters


def good() -> dict[str, Any]:
    """A board with every new part: pieces in a zone, a grid with a group, places, a seat's supply."""
    return {
        "zones": [
            {"id": "supply", "label": "Supply", "color": "teal", "pieces": [
                {"id": "chip 1", "shape": "chip", "color": "gold", "text": 5, "title": "five"},
                {"id": "cube 1", "shape": "cube", "color": "#8b5a2b"}, {"id": "disc 1"}]},
            {"id": "grid", "layout": "cells", "rows": 2, "columns": 3, "cell_shape": "round", "color": "blue", "size": "large", "cells": [
                {"id": "a1", "row": 0, "col": 0, "label": "a1", "color": "gray", "marked": True,
                 "pieces": [{"id": "pawn 1", "shape": "pawn", "color": "red", "marked": False}]},
                {"id": "c2", "row": 1, "col": 2, "group": "column 3", "title": "the corner"},
                {"id": "c1", "row": 0, "col": 2, "group": "column 3"}]},
            {"id": "yard", "layout": "places", "columns": 3, "places": [
                {"id": "forest", "label": "Forest", "text": "+2 wood", "glyph": "♣", "capacity": 2, "color": "green", "title": "woods",
                 "marked": True, "pieces": [{"id": "worker 0", "shape": "meeple", "color": "red"}]},
                {"id": "well", "label": "Well"}]},
        ],
        "seats": [{"seat": 0, "zones": [{"id": "home 0", "label": "Home", "pieces": [{"id": "worker 1", "shape": "meeple"}]}]}],
    }


def problems(board: dict[str, Any]) -> list[str]:
    return board_problems(board, 2)[0]


def test_a_board_with_pieces_cells_and_places_is_valid_and_names_their_ids() -> None:
    found, ids = board_problems(good(), 2)
    assert found == []
    assert {"chip 1", "pawn 1", "worker 0", "worker 1", "a1", "c2", "column 3", "forest", "well", "grid", "yard"} <= ids
    for click in ({"target": "column 3"}, {"target": "forest", "choice": "Forest"}, {"source": "pawn 1", "target": "c2"}, {"target": "worker 0"}):
        assert click_problems(click, ids, "x") == [], click


def bad(change: Any) -> dict[str, Any]:
    board = good()
    change(board)
    return board


def zone(board: dict[str, Any], i: int) -> dict[str, Any]:
    return board["zones"][i]  # type: ignore[no-any-return]


CASES = [
    (lambda b: zone(b, 0)["pieces"][0].update(shape="star"),
     "board.zones[0].pieces[0]: shape 'star' must be one of disc, chip, cube, meeple, pawn"),
    (lambda b: zone(b, 0)["pieces"][1].pop("id"), "board.zones[0].pieces[1]: 'id' must be text"),
    (lambda b: zone(b, 0)["pieces"][1].update(marked="yes"), "board.zones[0].pieces[1]: 'marked' must be true or false"),
    (lambda b: zone(b, 0)["pieces"][0].update(text=[5]), "board.zones[0].pieces[0]: 'text' must be text or a number"),
    (lambda b: zone(b, 0)["pieces"][0].update(color="mauve"), "board.zones[0].pieces[0]: color 'mauve' must be one of"),
    (lambda b: zone(b, 0)["pieces"][0].update(size=3), "board.zones[0].pieces[0]: unknown field 'size'"),
    (lambda b: zone(b, 0).update(pieces={"id": "x"}), "board.zones[0]: 'pieces' must be a list"),
    (lambda b: zone(b, 0).update(color="plaid"), "board.zones[0]: color 'plaid' must be one of"),
    (lambda b: zone(b, 1).pop("rows"), "board.zones[1]: missing 'rows'"),
    (lambda b: zone(b, 1).update(columns=27), "board.zones[1]: 'columns' must be a whole number 1..26, got 27"),
    (lambda b: zone(b, 1).update(cell_shape="hex"), "board.zones[1]: cell_shape 'hex' must be one of square, round"),
    (lambda b: zone(b, 1)["cells"][1].update(row=2), "board.zones[1].cells[1]: 'row' must be a whole number 0..1, got 2"),
    (lambda b: zone(b, 1)["cells"][1].pop("col"), "board.zones[1].cells[1]: missing 'col'"),
    (lambda b: zone(b, 1)["cells"][2].update(row=1), "board.zones[1].cells[2]: row 1, col 2 holds another cell already"),
    (lambda b: zone(b, 1)["cells"][1].update(group=["column"]), "board.zones[1].cells[1]: 'group' must be text"),
    (lambda b: zone(b, 1)["cells"][1].update(group="forest"), "board.zones[1].cells[1]: group 'forest' is also the id of"),
    (lambda b: zone(b, 1)["cells"][0]["pieces"][0].update(id="a1"), "board.zones[1].cells[0].pieces[0]: id 'a1' is used twice"),
    (lambda b: zone(b, 1)["cells"][0]["pieces"][0].update(shape="rook"), "board.zones[1].cells[0].pieces[0]: shape 'rook'"),
    (lambda b: zone(b, 0).update(cells=[]), "board.zones[0]: 'cells' belongs to a zone with layout 'cells', not 'row'"),
    (lambda b: zone(b, 0).update(rows=2), "board.zones[0]: 'rows' belongs to a zone with layout 'cells'"),
    (lambda b: zone(b, 1).update(places=[]), "board.zones[1]: 'places' belongs to a zone with layout 'places', not 'cells'"),
    (lambda b: zone(b, 2)["places"][0].update(capacity=0), "board.zones[2].places[0]: 'capacity' must be a whole number 1..20, got 0"),
    (lambda b: zone(b, 2)["places"][0]["pieces"].append({"id": "worker 9"}) or zone(b, 2)["places"][0].update(capacity=1),
     "board.zones[2].places[0]: holds 2 pieces, more than its capacity 1"),
    (lambda b: zone(b, 2)["places"][1].update(label=7), "board.zones[2].places[1]: 'label' must be text"),
    (lambda b: zone(b, 2)["places"][1].update(cells=[]), "board.zones[2].places[1]: unknown field 'cells'"),
    (lambda b: zone(b, 2)["places"][0]["pieces"][0].update(shape=1), "board.zones[2].places[0].pieces[0]: shape 1 must be one of"),
    (lambda b: b["seats"][0]["zones"][0]["pieces"][0].update(shape="meeples"), "board.seats[0].zones[0].pieces[0]: shape 'meeples'"),
    (lambda b: zone(b, 0)["pieces"].append("a disc"), "board.zones[0].pieces[3]: expected an object, got str"),
]


@pytest.mark.parametrize(("change", "message"), CASES, ids=[m.split(":")[0] + " " + m.split(":")[1][:30] for _, m in CASES])
def test_a_bad_part_is_named_by_its_path(change: Any, message: str) -> None:
    found = problems(bad(change))
    assert any(p.startswith(message) for p in found), found


def test_a_grid_zone_keeps_its_columns_1_to_12() -> None:
    assert problems({"zones": [{"id": "g", "layout": "grid", "columns": 13}]}) == ["board.zones[0]: 'columns' must be a whole number 1..12"]
    assert problems({"zones": [{"id": "g", "layout": "cells", "rows": 26, "columns": 26}]}) == []


def test_a_click_names_a_group_and_a_choice_is_short_text() -> None:
    _, ids = board_problems(good(), 2)
    assert click_problems({"target": "column 9"}, ids, "drop") == [
        "click of 'drop': target 'column 9' is no card, piece, zone, cell, group or place id on the board"]
    assert click_problems({"target": "forest", "choice": ""}, ids, "chop")[0].startswith(
        "click of 'chop': 'choice' (its entry in the click's menu) must be text of 1-60 characters")
    assert click_problems({"target": "forest", "choice": "x" * 61}, ids, "chop") != []


# -- what the kernel sends ------------------------------------------------------------------


def market_position() -> core.Session:
    """Woodcutters with both of the Market's trades open to Ada: its one click, two choices."""
    s = core.Session(Woodcutters(), ["Ada", "Bo"], seed=1)
    s._state.wood[0], s._state.stone[0] = 3, 2
    return s


def test_the_legal_actions_carry_their_choice_to_the_page() -> None:
    s = market_position()
    sent = [{k: v for k, v in a.to_json().items() if k != "id"} for a in s.frame(None).actions]  # the ids aside
    market = [a for a in sent if a.get("target") == "market"]
    assert market == [{"text": "Market: sell 3 wood for 2 points", "target": "market", "choice": "sell 3 wood for 2 points"},
                      {"text": "Market: sell 2 stone for 3 points", "target": "market", "choice": "sell 2 stone for 3 points"}]
    assert {"text": "Forest: +2 wood", "target": "forest"} in sent  # no choice: none sent


def test_the_last_move_marks_a_place_or_a_cell() -> None:
    s = core.Session(Woodcutters(), ["Ada", "Bo"], seed=1)
    s.apply("Quarry: +1 stone")
    board = board_payload(s, Viewer("full"))
    assert {"quarry", "forest", "yard"} <= zone_ids(board) and "worker 0 0" not in zone_ids(board)
    assert s.frame(None).last_move["target"] == "quarry"
    assert "hole 5 3" in zone_ids(board_payload(core.Session(ConnectFour(), ["Ada", "Bo"]), Viewer("full")))


def test_the_text_board_draws_the_grid_and_the_places() -> None:
    s = core.Session(ConnectFour(), ["Ada", "Bo"])
    for col in (3, 3, 4, 4, 5, 5, 6):
        s.apply(col)
    text = board_text(board_payload(s, Viewer("full")))
    assert "Grid (6 x 7; G gold disc, R red disc, * marked):" in text  # the key in reading order
    assert text.splitlines()[-6:-4] == ["  .  .  .  G  G  G  .", "  .  .  .  R* R* R* R*"]
    w = market_position()
    w.apply("Forest: +2 wood")
    text = board_text(board_payload(w, Viewer("full")))
    assert "  Forest (+2 wood) 1/3: red worker" in text.splitlines()
    assert "  Stock: 5 wood, 2 stone" in text.splitlines()
    assert "  Workers at home: red worker x2" in text.splitlines()


@pytest.mark.parametrize("game", [ConnectFour(), Woodcutters(), Woodcutters(workers=2, goal=6)], ids=repr)
def test_the_examples_pass_check_game(game: core.CardGame) -> None:
    report = core.check_game(game, games=12, seed=random.Random(7).randrange(1000))
    assert report.ok, str(report)


def test_the_examples_stay_short() -> None:
    """Lines of code, the help text for the player aside (tests/_gallery_helpers.py)."""
    for name in ("connect_four.py", "workers.py"):
        assert code_lines(ROOT / "kum_widget" / "gallery" / name) <= 120, name


def test_a_choice_and_a_label_name_the_seats() -> None:
    class Named(Woodcutters):
        def click(self, s: Any, action: int) -> dict[str, Any]:
            return {**super().click(s, action), "label": "{player}: go", "choice": "trade with {seat1}"}

    s = core.Session(Named(), ["Ada", "Bo"], seed=1)
    (forest, *_) = [a.to_json() for a in s.frame(None).actions]
    assert forest["label"] == "Ada: go" and forest["choice"] == "trade with Bo"


def test_the_games_md_board_example_is_a_valid_board() -> None:
    text = (ROOT / "GAMES.md").read_text(encoding="utf-8")
    section = text.split("\n## The board", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, Any] = {}
    exec(compile(code[1], "GAMES.md", "exec"), scope)  # the page's own example
    grid: list[list[int | None]] = [[None] * 7 for _ in range(6)]
    grid[5][3], grid[4][3] = 0, 1
    board = scope["board"](None, {"grid": grid}, 0)
    found, ids = board_problems(board, 2)
    assert found == [] and "column 3" in ids and "disc 4 3" in ids


def test_a_broken_board_is_described_never_raised_on() -> None:
    """Any part replaced by junk: the checker lists problems, and the text board and the
    last move's ids (built at run time, where no checker ran) still come out."""
    junk = [None, True, 1.5, -3, 27, "", "x", [], {}, [1], {"a": 1}, ["column"], float("nan")]
    rng = random.Random(5)

    def mutate(o: Any) -> Any:
        if isinstance(o, dict):
            return {k: rng.choice(junk) if rng.random() < 0.15 else mutate(v) for k, v in o.items() if rng.random() > 0.05}
        if isinstance(o, list):
            return [mutate(x) for x in o] + ([rng.choice(junk)] if rng.random() < 0.1 else [])
        return o

    for _ in range(1500):
        board = mutate({**good(), "players": [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bo"}]})
        assert isinstance(board_problems(board, 2)[0], list)
        assert isinstance(board_text(board), str) and isinstance(zone_ids(board), set)


def test_a_card_that_is_not_a_card_shows_as_a_question_mark() -> None:
    """The text board reads a card it cannot read as "?" in its place, and the cards around it as they are."""
    board = {"title": "T", "status": "s", "zones": [{"id": "pile", "title": "Pile", "cards": [None, 7, {"faces": [{"title": "Ace"}]}]}]}
    assert board_text(board).splitlines()[1:] == ["?, ?, Ace"]


def _hands(text: str) -> list[list[str]]:
    """Each seat's hand as its cards' texts (a card's own commas are inside its brackets)."""
    return [re.split(r", (?![^()]*\))", line.split("Hand: ", 1)[1]) for line in text.splitlines() if line.strip().startswith("Hand: ")]


def test_str_of_a_board_is_the_board_as_it_shows_its_viewer() -> None:
    """`print(board)` in a notebook (issue 42, item 2): the viewer's hand and, of the bot's,
    only the mine faces; `print(board.game)` stays the full table, the bot's hand included."""
    import kum_widget as kum

    board = kum.GameWidget(bots={1: "greedy"}, seed=42, bot_delay=0)
    try:
        text = str(board)
        assert text == board.text() and text.startswith("Kings Under Mountains: Ada to play")
        mine, bots = _hands(text)
        assert not any(card.startswith("?") for card in mine), mine
        assert all(card.startswith("? / mine") for card in bots) and len(bots) == len(board.game.hand(1)), bots
        secret = [f"#{s['id']}" for s in board.game.game.secrets(board.game.state, 1)]
        assert not any(s in text for s in secret) and all(s in str(board.game) for s in secret)
        board.act(board.offered[0])  # the board's text follows the game, and the bot's move
        assert board.text() != text and "Last: " in board.text()
    finally:
        board.close()


@pytest.mark.parametrize(("settings", "shown"), [({}, (False, False)), ({"reveal": True}, (True, True))],
                         ids=["hot seat: the public table", "reveal: every hand"])
def test_str_of_a_shared_board_shows_what_all_at_the_screen_may_see(settings: dict[str, Any], shown: tuple[bool, bool]) -> None:
    import kum_widget as kum

    board = kum.GameWidget(seed=42, bot_delay=0, **settings)
    try:
        hands = _hands(str(board))
        assert [not any(card.startswith("?") for card in hand) for hand in hands] == list(shown), hands
        assert all(all(card.startswith("? / mine") for card in hand) for hand, open_ in zip(hands, shown, strict=True) if not open_)
    finally:
        board.close()
