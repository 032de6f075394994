"""Helpers of the course site's browser tests (tests/site/) and of bench/site.py: a course
notebook opened in the site (JupyterLite), a cell typed at its end and run."""

from __future__ import annotations

from typing import Any

from _chromium import WAIT_MS, wait_until
from labserver import wait_idle

__all__ = ["FIRST_BOARD_MS", "open_course_notebook", "run_new_cell"]

# A cold browser loads JupyterLite, Pyodide and its packages, then installs kum_widget (about
# 25 s here); the deadline is for a loaded 2-core machine.
FIRST_BOARD_MS = 300_000


def open_course_notebook(page: Any, site_url: str, name: str) -> None:
    """Open notebooks/``name`` of the site at ``site_url``; wait until its kernel (Pyodide) is idle."""
    page.goto(f"{site_url}lab/index.html?path=notebooks/{name}")
    page.wait_for_selector(".jp-NotebookPanel")
    wait_idle(page, timeout=FIRST_BOARD_MS)


def run_new_cell(page: Any, code: str, *, timeout: float = WAIT_MS) -> str:
    """Type ``code`` into a new cell at the end of the notebook, run it and return its output
    (waiting ``timeout`` ms at most for the run)."""
    page.locator(".jp-Notebook .jp-Cell").last.locator(".jp-InputPrompt").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")  # a new cell below, in command mode
    page.keyboard.press("Enter")
    page.keyboard.type(code)
    cell = page.locator(".jp-Notebook .jp-Cell.jp-mod-active").element_handle()  # Shift+Enter moves on
    page.keyboard.press("Shift+Enter")
    wait_until(page, "cell => /\\[\\d+\\]/.test(cell.querySelector('.jp-InputArea .jp-InputPrompt').textContent)",
               cell, what=f"the new cell {code!r} to run", show="cell => cell.textContent", timeout=timeout)
    return "\n".join(o.text_content() for o in cell.query_selector_all(".jp-OutputArea-output"))
