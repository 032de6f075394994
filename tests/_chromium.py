"""Pages in the tests' Chromium (conftest's ``browser`` fixture) that record every JavaScript
error, and a notebook opened and run in a real JupyterLab (tests/labserver.py) with its board
drawn."""

from __future__ import annotations

from typing import Any

from labserver import LabServer, open_notebook, run_all, wait_idle

__all__ = ["open_board", "watched_page"]


def watched_page(browser: Any, *, width: int, height: int, **media: Any) -> tuple[Any, list[str]]:
    """A new ``width`` x ``height`` page (``media`` as Playwright's ``emulate_media`` takes it,
    e.g. ``forced_colors="active"``) and the list its JavaScript errors go to."""
    page = browser.new_page(viewport={"width": width, "height": height})
    if media:
        page.emulate_media(**media)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def open_board(browser: Any, lab: LabServer, name: str, *, width: int = 1280, height: int = 1300,
               **media: Any) -> tuple[Any, Any, list[str]]:
    """Notebook ``name`` of ``lab`` opened and run in a new page: the page, its first board
    (drawn, the kernel idle) and the page's JavaScript errors."""
    page, errors = watched_page(browser, width=width, height=height, **media)
    open_notebook(page, lab, name)
    run_all(page)
    board = page.locator(".kum-widget").first
    board.wait_for(timeout=60_000)
    wait_idle(page)
    return page, board, errors
