"""A table of the referee's, played from real notebook hosts: a real referee process on
127.0.0.1 (port 0), two JupyterLab tabs (a kernel each, a workspace each, as two students'
browsers) joined to the two seats of one table with ``kum.join``, where a click in one tab
arrives in the other, and back; and a Voila page whose seat plays by a click that the other
seat (a connection of the test's) sees; the teacher's view (``kum.tables``) in a third tab, each
table's public board following the game. Only the board's public testing hooks are clicked
(``[data-playable]``, ``[data-action]``, ``.kum-widget[data-state-id]``). Screenshots go to
test-artifacts/ (referee-*.png). Both are long (a JupyterLab of three notebooks, a Voila
server): ``make soak`` runs them; make test plays the same boards from kernels (tests/referee)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from _chromium import WAIT_MS, dismiss_intro, wait_board_changed, wait_still, wait_until, watched_page
from _referee_helpers import DEADLINE, referee
from hostservers import VoilaServer
from labserver import LabRoom, click_once, notebook_of, run_all, wait_idle
from test_e2e_hosts import VOILA_DONE

from kum_widget.core import VERSION
from kum_widget.referee.client import SeatClient

TABLE = "table 1"  # _referee_helpers.CLASS: Bust, Ada and Bo, seed 3


def joined(url: str, code: str, who: str) -> dict[str, Any]:
    """A notebook whose one cell joins the seat ``code`` names and shows its board."""
    return notebook_of(f"import kum_widget as kum\n\nboard = kum.join({url!r}, {code!r})  # KUM-SEAT {who}\nboard")


def open_tab(browser: Any, room: LabRoom, name: str) -> tuple[Any, Any, list[str]]:
    """``name`` of ``room`` opened in a page of its own, in a JupyterLab workspace of its own
    (a page in the default one may show the other tab's notebook too), run: the page, its
    board (drawn, the kernel idle) and the page's JavaScript errors."""
    server = room.server
    page, errors = watched_page(browser, width=1100, height=900)
    server.open_session(room, name)
    workspace = name.removesuffix(".ipynb")
    page.goto(f"http://127.0.0.1:{server.port}/lab/workspaces/{workspace}/tree/{room.folder}/{name}?token={server.token}&reset",
              timeout=WAIT_MS)
    page.wait_for_selector(".jp-NotebookPanel", timeout=WAIT_MS)
    wait_idle(page)
    wait_connected(room, name)
    run_all(page)
    board = page.locator(".kum-widget[data-state-id]").first
    board.wait_for()
    wait_idle(page)
    dismiss_intro(board)
    return page, board, errors


def wait_connected(room: LabRoom, name: str) -> None:
    """Until the kernel of ``name``'s session is idle with a page connected to it (a click on
    Run All before then may be lost as the page connects)."""
    path, deadline = f"{room.folder}/{name}", time.monotonic() + WAIT_MS / 1000
    kernels: list[dict[str, Any]] = []
    while not any(k.get("connections", 0) >= 1 and k.get("execution_state") == "idle" for k in kernels):
        assert time.monotonic() < deadline, f"no kernel of {path} idle with the page connected after {WAIT_MS / 1000:.0f} s: {kernels}"
        time.sleep(0.25)  # (polling the server, within the deadline)
        try:
            kernels = [s["kernel"] for s in room.sessions() if s.get("path") == path and s.get("kernel")]
        except OSError:  # the listing can fail while another kernel is shutting down
            kernels = []


@pytest.mark.soak
def test_a_click_in_one_jupyterlab_tab_arrives_in_the_other_at_one_table(lab_room, browser, artifacts: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with referee(tmp_path) as (url, codes, _):
        teacher = notebook_of(f"import kum_widget as kum\n\nview = kum.tables({url!r}, {codes[('every table', 'teacher')]!r})  # KUM-TEACHER\nview")
        room = lab_room({"ada.ipynb": joined(url, codes[(TABLE, 0)], "ada"), "bo.ipynb": joined(url, codes[(TABLE, 1)], "bo"),
                         "teacher.ipynb": teacher})
        ada_page, ada, ada_errors = open_tab(browser, room, "ada.ipynb")
        bo_page, bo, bo_errors = open_tab(browser, room, "bo.ipynb")
        start = ada.get_attribute("data-state-id")
        assert bo.get_attribute("data-state-id") == start
        assert bo.locator("[data-playable]:not([disabled])").count() == 0  # Ada's turn: Bo's board offers nothing
        assert click_once(ada_page, ada)  # Ada plays, in her tab
        wait_board_changed(bo_page, bo, start, "Ada's move, in Bo's tab")
        moved = ada.get_attribute("data-state-id")
        assert bo.get_attribute("data-state-id") == moved != start
        bo.locator("[data-playable]:not([disabled]), [data-action]:not([disabled])").first.wait_for()  # Bo's turn now
        for who, page, board in (("ada", ada_page, ada), ("bo", bo_page, bo)):
            wait_still(page, board, "the move's flight to land")
            page.screenshot(path=str(artifacts / f"referee-lab-{who}.png"))
        assert click_once(bo_page, bo)  # and back: Bo plays in his tab
        wait_board_changed(ada_page, ada, moved, "Bo's move, in Ada's tab")
        assert ada.get_attribute("data-state-id") == bo.get_attribute("data-state-id")
        # the teacher's view: every table's public board, following; no intro opened over them (it watches)
        teacher_page, watched, teacher_errors = open_tab(browser, room, "teacher.ipynb")
        boards = teacher_page.locator(".kum-widget[data-state-id]")
        wait_until(teacher_page, "(state) => document.querySelectorAll('.kum-widget[data-state-id]').length === 2 && "
                                 "document.querySelector('.kum-widget[data-state-id]').dataset.stateId === state",
                   ada.get_attribute("data-state-id"), what="both tables' boards, table 1 at its state")
        assert boards.first.locator("[data-playable]:not([disabled])").count() == 0  # the teacher plays nothing
        assert teacher_page.locator('.kum-widget [data-key="intro"]').count() == 0
        assert "Ada: connected" in teacher_page.locator(".kum-table-row").first.inner_text()
        before = watched.get_attribute("data-state-id")
        assert click_once(ada_page, ada)  # a move at the table, seen by the teacher
        wait_board_changed(teacher_page, watched, before, "Ada's move, in the teacher's view")
        wait_still(teacher_page, watched, "the move's flight to land")
        teacher_page.screenshot(path=str(artifacts / "referee-lab-teacher.png"))
        assert ada_errors == [] and bo_errors == [] and teacher_errors == []
        for page in (ada_page, bo_page, teacher_page):
            page.close()


@pytest.mark.soak
def test_a_seat_joined_in_a_voila_page_plays_and_the_other_seat_sees_it(browser, artifacts: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with referee(tmp_path) as (url, codes, _):
        bo = SeatClient(url, codes[(TABLE, 1)], game="bust", version=VERSION, timeout=DEADLINE)
        try:
            with VoilaServer(joined(url, codes[(TABLE, 0)], "ada")) as voila:
                page, errors = watched_page(browser, width=1100, height=900)
                page.route("**/*", lambda r: r.abort() if not r.request.url.startswith("http://127.0.0.1") else r.continue_())
                page.goto(voila.url())
                wait_until(page, VOILA_DONE, what="Voila to run the notebook and show its cells")
                board = page.locator(".kum-widget[data-state-id]").first
                board.wait_for()
                start = bo.frame["state_id"]
                assert board.get_attribute("data-state-id") == str(start) and bo.frame["actions"] == []
                assert codes[(TABLE, 0)] not in page.content()  # the seat's code stays in the notebook: Voila shows no code
                assert click_once(page, board)  # Ada plays, in the Voila page
                frame = bo.wait_for(lambda f: f["state_id"] > start)
                assert board.get_attribute("data-state-id") == str(frame["state_id"])
                assert frame["actions"] and frame["last_move"]["seat"] == 0  # Bo's turn, after Ada's move
                wait_still(page, board, "the move's flight to land")
                page.screenshot(path=str(artifacts / "referee-voila.png"), full_page=True)
                assert errors == [], errors
                page.close()
                assert "Traceback" not in voila.log()
        finally:
            bo.close()
