"""A hot-seat board in a notebook saved with its widget state (issue 32, item 5).

nbclient's default ``store_widget_state=True`` keeps every widget's synced state in the
notebook's metadata (``metadata.widgets``), as JupyterLab's "Save widget state" does: a
notebook passed on to the next player would carry the hand of the seat at the screen.
What a hot-seat board syncs is the public table; the hand of the seat at the screen goes
to the page in a message, which no save keeps. (The JupyterLab save: test_e2e_saved_state.py.)
"""

from __future__ import annotations

import json
from typing import Any

import nbformat
from nbclient import NotebookClient

import kum_widget as kum

SEED = 4
CELLS = [
    "import kum_widget as kum\nboard = kum.GameWidget(kum.Game(['Ada', 'Bo'], seed=SEED))\nboard",
    "board.ready()  # Ada says 'I am Ada': her hand is on the live board",
    "print('KUM-SHOWN', board.game.current_player, board.pass_to == '', len(board.offered))",
]


def private_marks(game: kum.Game, seat: int) -> list[str]:
    """What would give ``seat``'s hand away in a saved file: its card ids and labels."""
    return [mark for card in game.hand(seat) if not game._state.known[card.id] for mark in (f'"card {card.id}"', card.label)]


def run_notebook(cells: list[str], **params: Any) -> Any:
    nb = nbformat.v4.new_notebook()
    setup = "\n".join(f"{k} = {v!r}" for k, v in params.items())
    nb.cells = [nbformat.v4.new_code_cell(setup), *(nbformat.v4.new_code_cell(c) for c in cells)]
    NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == [], errors
    return nb


def board_states(nb: Any) -> list[dict[str, Any]]:
    states = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return [m["state"] for m in states.values() if m["state"].get("_anywidget_id") == "kum_widget.board.widget.GameWidget"]


def test_a_saved_hot_seat_notebook_holds_no_hand_of_the_seat_at_the_screen() -> None:
    nb = run_notebook(CELLS, SEED=SEED)
    out = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    assert "KUM-SHOWN 0 True" in out  # Ada is at the screen, her moves offered: the live board shows her hand
    (state,) = board_states(nb)  # the board's state is in the file ...
    assert state["board"]["players"] and state["state_id"] >= 0
    saved = json.dumps(nb.metadata["widgets"]) + json.dumps([o for c in nb.cells for o in c.get("outputs", [])])
    game = kum.Game(["Ada", "Bo"], seed=SEED)
    marks = private_marks(game, 0)
    assert len(marks) == 12
    assert [m for m in marks if m in saved] == []  # ... but none of Ada's cards: Bo may read the file
    assert state["legal"] == {"actions": []} and state["board"]["shown_seat"] is None


def test_a_saved_hot_seat_notebook_after_a_turn_holds_neither_hand() -> None:
    cells = [*CELLS[:2],
             "board.act(next(t for t in board.offered if t.startswith('play')))\n"
             "board.act(next(t for t in board.offered if t.startswith('draw')))\nboard.ready()",
             "print('KUM-SHOWN', board.game.current_player, board.pass_to == '', len(board.offered))"]
    nb = run_notebook(cells, SEED=SEED)
    out = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    assert "KUM-SHOWN 1 True" in out  # Bo at the screen now
    game = kum.Game(["Ada", "Bo"], seed=SEED)
    game.apply(next(t for t in map(game.action_text, game.legal_actions()) if t.startswith("play")))
    game.apply(next(t for t in map(game.action_text, game.legal_actions()) if t.startswith("draw")))
    saved = json.dumps(nb.metadata["widgets"])
    assert [m for m in private_marks(game, 0) + private_marks(game, 1) if m in saved] == []
