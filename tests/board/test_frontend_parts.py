"""The board's front-end for pieces, cells, places and choice menus, in headless Chromium
with the stand-in model of tests/_live_helpers.py (it behaves like Backbone: no change
event for an equal value), its traits from a real ``GameWidget`` in this process.

The game here is made for the page: a coin whose one click has three choices, a pawn
that moves onto cells (two of its moves share one cell and have no choice: a menu of their
texts), a column of cells that is one target, and a well (a place) with room for two.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from _board_helpers import Recorded, browser_msg, offered_id
from _live_helpers import feed_back, mount, open_page, sent
from _returning import returning

import kum_widget as kum
from kum_widget import core
from kum_widget.gallery.connect_four import ConnectFour

# action id -> (text, click)
ACTIONS = {
    0: ("call heads", {"target": "coin", "choice": "Heads"}),
    1: ("call tails", {"target": "coin", "choice": "Tails"}),
    2: ("call edge", {"target": "coin", "choice": "On its edge"}),
    3: ("step up", {"source": "pawn", "target": "cell 0 0"}),
    4: ("leap up", {"source": "pawn", "target": "cell 0 0"}),
    5: ("step right", {"source": "pawn", "target": "cell 1 1"}),
    6: ("fill column 3", {"target": "column 2"}),
    7: ("draw water", {"target": "well"}),
    8: ("take the red cube", {"target": "cube 0"}),
}
HOSTILE = "<img src=x onerror=alert(1)>"


@dataclass
class PartsState:
    taken: list[int] = field(default_factory=list)


class Parts(core.CardGame):
    name = "test-parts"
    min_players, max_players = 1, 1
    perfect_information = True

    def setup(self, players: int, rng: random.Random) -> PartsState:
        return PartsState()

    def current_player(self, s: PartsState) -> int:
        return 0

    def legal_actions(self, s: PartsState) -> list[int]:
        return [] if len(s.taken) >= 6 else list(ACTIONS)

    def apply(self, s: PartsState, action: int) -> list[Any]:
        s.taken.append(action)
        return [f"took {ACTIONS[action][0]}"]

    def is_over(self, s: PartsState) -> bool:
        return len(s.taken) >= 6

    def scores(self, s: PartsState) -> list[float]:
        return [float(len(s.taken))]

    def view(self, s: PartsState, seat: int | None) -> dict[str, Any]:
        return {"taken": s.taken[:]}

    def action_text(self, s: PartsState, action: int) -> str:
        if action not in ACTIONS:
            raise core.IllegalMoveError(f"no action {action!r}")
        return ACTIONS[action][0]

    def click(self, s: PartsState, action: int) -> dict[str, Any]:
        return dict(ACTIONS[action][1])

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        cells = [{"id": f"cell {r} {c}", "row": r, "col": c, **({"group": "column 2"} if c == 2 else {})} for r in range(2) for c in range(3)]
        cells[3]["pieces"] = [{"id": "pawn", "shape": "pawn", "color": "blue"}]  # row 1, col 0
        cells[4]["label"] = "b2"
        cells[5]["pieces"] = [{"id": "chip", "shape": "chip", "color": "gold", "text": HOSTILE, "marked": True}]
        return {"zones": [
            {"id": "table", "label": "Table", "cards": [{"id": "coin", "faces": [{"title": "coin", "value": 1}]}],
             "pieces": [{"id": f"cube {i}", "shape": "cube", "color": color} for i, color in enumerate(("red", "gold"))]},
            {"id": "grid", "label": "Grid", "layout": "cells", "rows": 2, "columns": 3, "cells": cells},
            {"id": "yard", "layout": "places", "places": [{"id": "well", "label": "Well", "text": "+1 water", "capacity": 2,
                                                           "pieces": [{"id": "worker", "shape": "meeple", "color": "red"}]}]},
        ]}


@pytest.fixture()
def page(browser, server):  # type: ignore[no-untyped-def]
    for page in open_page(browser, server, height=1000):
        yield returning(page)  # the first-time panels seen before: none lies over the board


@pytest.fixture()
def board(page) -> Recorded:  # type: ignore[no-untyped-def]
    w = Recorded(Parts(), bot_delay=0)
    mount(page, w)
    return w


def entries(page) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return [[e.text_content(), e.get_attribute("data-action")] for e in page.locator(".kum-menu [role='menuitem']").all()]


def focused(page) -> str:  # type: ignore[no-untyped-def]
    return str(page.evaluate("() => document.activeElement.dataset.action || document.activeElement.dataset.key || ''"))


# -- choice menus --------------------------------------------------------------------------


def test_a_click_that_actions_share_opens_a_menu_and_an_entry_plays_its_action(page, board, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    coin = page.locator('[data-card="coin"]')
    assert coin.get_attribute("data-action") is None and coin.get_attribute("aria-haspopup") == "menu"
    assert page.locator('.kum-actions [data-action^="call"]').count() == 0  # not loose buttons
    coin.click()
    assert entries(page) == [["Heads", "call heads"], ["Tails", "call tails"], ["On its edge", "call edge"]]
    assert sent(page) == [] and coin.get_attribute("aria-expanded") == "true"  # nothing played by opening it
    assert focused(page) == "call heads"  # the focus moved into the menu
    box, menu = coin.bounding_box(), page.locator(".kum-menu").bounding_box()
    assert abs(menu["y"] - (box["y"] + box["height"])) < 10 and abs(menu["x"] - box["x"]) < 10  # anchored on the coin
    page.screenshot(path=str(artifacts / "frontend-parts-menu.png"), full_page=True)
    page.locator('.kum-menu [data-action="call tails"]').click()
    assert sent(page) == [{"kind": "act", "action_id": offered_id(board, "call tails"), "state_id": board.state_id}]
    assert page.locator(".kum-menu").count() == 0
    feed_back(page, board)
    assert board.game.history == (1,)


def test_the_menu_by_keyboard_arrows_enter_and_escape(page, board) -> None:  # type: ignore[no-untyped-def]
    page.locator('[data-card="coin"]').focus()
    page.keyboard.press("Enter")
    assert focused(page) == "call heads"
    page.keyboard.press("Escape")  # closed, nothing sent, the focus back on the coin
    assert page.locator(".kum-menu").count() == 0 and sent(page) == []
    assert focused(page) == "card:coin" and page.locator('[data-card="coin"]').get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    moves = {"ArrowDown": "call tails", "End": "call edge", "Home": "call heads", "ArrowUp": "call edge"}
    for key, want in moves.items():  # ArrowUp from the first wraps to the last
        page.keyboard.press(key)
        assert focused(page) == want, key
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert sent(page) == [{"kind": "act", "action_id": offered_id(board, "call tails"), "state_id": board.state_id}]
    assert focused(page) == "card:coin"  # back on what was clicked, until the reply redraws
    feed_back(page, board)
    assert board.game.history == (1,)


def test_a_click_elsewhere_closes_the_menu_and_the_opener_toggles_it(page, board) -> None:  # type: ignore[no-untyped-def]
    coin = page.locator('[data-card="coin"]')
    coin.click()
    page.locator(".kum-top .kum-title").click()
    assert page.locator(".kum-menu").count() == 0 and sent(page) == []
    coin.click()
    coin.click()
    assert page.locator(".kum-menu").count() == 0 and sent(page) == []


def test_an_open_menu_stays_open_over_a_redraw_that_keeps_its_actions(page, board) -> None:  # type: ignore[no-untyped-def]
    page.locator('[data-card="coin"]').click()
    page.keyboard.press("ArrowDown")
    page.evaluate("() => window.update({error: 'something else changed'})")
    page.wait_for_selector(".kum-error")
    assert len(entries(page)) == 3 and focused(page) == "call tails"


def test_a_shared_click_without_choices_is_a_menu_of_the_action_texts(page, board) -> None:  # type: ignore[no-untyped-def]
    page.locator('[data-piece="pawn"]').click()  # a piece as a source: its targets light
    assert page.locator('[data-piece="pawn"]').get_attribute("aria-pressed") == "true"
    lit = page.locator('[data-cell="cell 0 0"]')
    assert lit.get_attribute("data-menu") == "cell 0 0" and lit.get_attribute("data-action") is None
    assert page.locator('[data-cell="cell 1 1"]').get_attribute("data-action") == "step right"
    lit.click()
    assert entries(page) == [["step up", "step up"], ["leap up", "leap up"]]
    page.locator('.kum-menu [data-action="leap up"]').click()
    assert sent(page) == [{"kind": "act", "action_id": offered_id(board, "leap up"), "state_id": board.state_id}]
    feed_back(page, board)
    assert board.game.history == (4,)


def test_the_kernel_still_refuses_a_menu_entry_from_an_old_position(page, board) -> None:  # type: ignore[no-untyped-def]
    page.locator('[data-card="coin"]').click()
    board.act("draw water")  # from a cell, before the page hears of it
    page.locator('.kum-menu [data-action="call heads"]').click()
    (msg,) = page.evaluate("() => window.model.sent.splice(0)")
    browser_msg(board, msg)
    assert board.game.history == (7,) and "old board" in board.error


# -- pieces, cells, places -----------------------------------------------------------------


def test_cells_pieces_and_places_are_drawn_with_their_hooks(page, board) -> None:  # type: ignore[no-untyped-def]
    assert page.locator("[data-cell]").count() == 6
    at = page.locator('[data-cell="cell 1 0"]').evaluate("el => [getComputedStyle(el).gridRowStart, getComputedStyle(el).gridColumnStart]")
    assert at == ["2", "1"]
    assert page.locator('[data-cell="cell 1 0"] [data-piece="pawn"]').count() == 1
    assert page.locator('[data-cell="cell 1 1"] .kum-cell-label').text_content() == "b2"
    chip = page.locator('[data-piece="chip"]')
    assert chip.locator(".kum-piece-text").text_content() == HOSTILE and page.locator(".kum-widget img").count() == 0  # text as text
    assert "(marked)" in chip.get_attribute("aria-label") and "kum-marked" in chip.get_attribute("class")
    assert page.locator('[data-zone="table"] [data-piece^="cube "]').count() == 2
    cube = page.locator('[data-piece="cube 0"]')  # a piece that is a target on its own: a button
    assert cube.evaluate("el => el.tagName") == "BUTTON" and cube.get_attribute("data-action") == "take the red cube"
    assert page.locator('[data-piece="cube 1"]').evaluate("el => [el.tagName, el.getAttribute('role')]") == ["SPAN", "img"]
    well = page.locator('[data-place="well"]')
    assert well.get_attribute("data-action") == "draw water" and well.get_attribute("role") == "button"
    assert well.locator(".kum-place-label").text_content() == "Well" and well.locator(".kum-place-room").text_content() == "1/2"
    assert well.locator("[data-piece='worker']").count() == 1 and well.locator(".kum-slot").count() == 1  # one free slot
    well.click()
    assert sent(page) == [{"kind": "act", "action_id": offered_id(board, "draw water"), "state_id": board.state_id}]
    feed_back(page, board)
    assert board.game.history == (7,)


def test_any_cell_of_a_group_plays_the_groups_action_and_lights_the_group(page, board) -> None:  # type: ignore[no-untyped-def]
    column = page.locator('[data-group="column 2"]')
    assert column.count() == 2 and [c.get_attribute("data-action") for c in column.all()] == ["fill column 3"] * 2
    assert [c.get_attribute("tabindex") for c in column.all()] == ["0", "-1"]  # one stop in the tab order
    page.locator('[data-cell="cell 1 2"]').hover()
    assert page.locator('.kum-hover[data-group="column 2"]').count() == 2
    page.locator('[data-cell="cell 1 2"]').click()
    assert sent(page) == [{"kind": "act", "action_id": offered_id(board, "fill column 3"), "state_id": board.state_id}]


def test_pieces_differ_without_their_colours_in_forced_colours(page, board) -> None:  # type: ignore[no-untyped-def]
    style = """sel => { const b = document.querySelector(sel + ' .kum-piece-body');
                        const s = document.querySelector(sel + ' .kum-piece-shape');
                        return [getComputedStyle(b).backgroundImage, getComputedStyle(s).filter]; }"""
    plain = [page.evaluate(style, f'[data-piece="cube {i}"]') for i in range(2)]
    page.emulate_media(forced_colors="active")
    red, gold = (page.evaluate(style, f'[data-piece="cube {i}"]') for i in range(2))
    assert red[0] != gold[0], "two colours, one pattern"
    assert "drop-shadow" in red[1] and red[1] != plain[0][1]  # an outline of its own
    assert page.locator('[data-piece="cube 0"]').evaluate("el => getComputedStyle(el).forcedColorAdjust") == "none"


def test_a_replay_file_draws_the_grid_and_its_winning_four(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from _chromium import offline_page

    game = core.Session(ConnectFour(), ["Ada", "Bo"])
    for col in (3, 3, 4, 4, 5, 5, 6):
        game.apply(col)
    offline, requests, errors = offline_page(browser, kum.save_replay(game, tmp_path / "four.html"))
    offline.keyboard.press("End")
    assert offline.locator("[data-cell]").count() == 42 and offline.locator(".kum-round").count() == 1
    assert [e.get_attribute("data-piece") for e in offline.locator(".kum-piece.kum-marked").all()] == [f"disc 5 {c}" for c in range(3, 7)]
    assert offline.locator("[data-action], [data-menu]").count() == 0  # a picture: nothing to click
    assert requests == [] and errors == []
    offline.close()
