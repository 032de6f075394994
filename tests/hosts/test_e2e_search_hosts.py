"""End to end (issue 42, item 8c) in the other hosts: Voila and marimo, as
tests/hosts/test_e2e_search_live.py shows it in JupyterLab. On a variant whose games never end
(Bust with a limit of 100: its cards add up to 90) the Hint's search runs a slice at a time,
so Ada's draw, clicked while it searches, is answered before the search is: the page sees the
draw's new state and never the hint (the draw changed the game, which stops the search). A
search that held the kernel would answer the hint first, up to its 3 s cap later.
The times are printed, not asserted. Screenshots go to test-artifacts/ (host-search-*.png).
Both run in make soak.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from _chromium import dismiss_intro, wait_board_changed, wait_until, watched_page
from hostservers import MarimoServer, VoilaServer
from labserver import notebook_of

SETUP = "import kum_widget as kum\nfrom kum_widget.core.examples import Bust"
BOARD = 'kum.GameWidget(Bust(limit=100), players=["Ada", "Bo"], bots={1: "ismcts"}, seed=1, bot_delay=0.05)'

VOILA_DONE = "() => !document.getElementById('loading') && document.getElementById('rendered_cells')?.style.display === ''"

# The page's own record, in order, of what it showed after the Hint's click: the hint's
# answer (its panel; the bot's own has data-kind "bot") and each state the board drew, each with its time (ms).
WATCH = """(el, sid) => {
  const seen = [];
  const note = () => {
    const t = performance.now();
    if (el.querySelector('.kum-thinking[data-kind="hint"]') && !seen.some(e => e.what === 'hint'))
      seen.push({what: 'hint', t});
    const now = el.dataset.stateId;
    if (now !== sid && !seen.some(e => e.what === 'state ' + now)) seen.push({what: 'state ' + now, t});
  };
  new MutationObserver(note).observe(el, {attributes: true, childList: true, subtree: true});
  el.__kumSeen = seen;
  el.__kumHintAt = performance.now();
}"""


def voila_notebook() -> dict[str, Any]:
    return notebook_of(SETUP, f"board = {BOARD}\nboard")


def marimo_app(path: Path) -> Path:
    path.write_text(f'''import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    {SETUP.replace(chr(10), chr(10) + "    ")}

    board = {BOARD}
    mo.ui.anywidget(board)
    return


if __name__ == "__main__":
    app.run()
''')
    return path


def draw_while_the_hint_searches(page: Any, board: Any) -> dict[str, float]:
    """Hint clicked, then Ada's draw while it searches: the draw's answer came first, and no
    hint after it. Returns the seconds measured (printed by the caller, not asserted)."""
    dismiss_intro(board)
    draw = board.locator('[data-action="draw"]:not([disabled])')
    draw.wait_for()
    sid = board.get_attribute("data-state-id")
    board.evaluate(WATCH, sid)
    start = time.perf_counter()
    board.locator('[data-control="hint"]').click()  # the search for Ada: seconds on this variant
    wait_until(page, "el => !el.hasAttribute('aria-busy')", board.element_handle(), what="the Hint's answer (its search goes on)")
    assert board.evaluate("el => el.__kumSeen.length") == 0, board.evaluate("el => el.__kumSeen")  # still searching, the game as it was
    clicked = time.perf_counter()
    draw.click()
    wait_board_changed(page, board, sid, "Ada's draw while the Hint searches")
    answered = time.perf_counter()
    seen = board.evaluate("el => el.__kumSeen")
    # The draw's state came first: the kernel took the click between two slices of the search.
    assert seen and seen[0]["what"].startswith("state "), seen
    # And no hint came after it: the draw changed the game, which stopped the search. (A kernel
    # held by the search would have answered the hint before it read the click.)
    hint_at = board.evaluate("el => el.__kumHintAt")
    wait_until(page, "el => !el.hasAttribute('aria-busy')", board.element_handle(), what="the board not busy after the draw")
    assert not any(e["what"] == "hint" for e in board.evaluate("el => el.__kumSeen")), board.evaluate("el => el.__kumSeen")
    return {"from the Hint's click to the draw's answer": answered - start,
            "from the draw's click to its answer": answered - clicked,
            "from the Hint's click to the draw drawn (the page's clock)": (seen[0]["t"] - hint_at) / 1000}


def a_hint_left_alone_is_shown(page: Any, board: Any) -> float:
    """Ada's Hint again, nothing clicked meanwhile: its answer reaches the page in this host
    (so the watch above would have seen the first one, had it come). Its seconds."""
    board.locator('[data-action="draw"]:not([disabled])').wait_for()  # Ada's decision again (after the bot's, if it moved)
    board.locator('[data-control="hint"]:not([disabled])').wait_for()
    board.evaluate(WATCH, board.get_attribute("data-state-id"))
    start = time.perf_counter()
    board.locator('[data-control="hint"]').click()
    wait_until(page, "el => el.__kumSeen.some(e => e.what === 'hint')", board.element_handle(),
               what="the Hint's answer, at most its 3 s search later", show="el => el.__kumSeen")
    took = time.perf_counter() - start
    assert [e["what"] for e in board.evaluate("el => el.__kumSeen")] == ["hint"]  # the game as it was: a hint plays nothing
    print("the hint said:", board.locator('.kum-thinking[data-kind="hint"]').text_content()[:300])
    return took


@pytest.mark.soak  # the same search answered in Voila (JupyterLab's runs in make test: test_e2e_search_live)
def test_voila_answers_a_click_while_the_hint_searches(browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    with VoilaServer(voila_notebook(), "looping.ipynb") as voila:
        page, errors = watched_page(browser, width=1280, height=1300)
        page.goto(voila.url())
        wait_until(page, VOILA_DONE, what="Voila to run the notebook and show its cells")
        board = page.locator(".kum-widget[data-state-id]").first
        board.wait_for()
        took = draw_while_the_hint_searches(page, board)
        took["the Hint's answer, left alone"] = a_hint_left_alone_is_shown(page, board)
        board.screenshot(path=str(artifacts / "host-search-voila.png"))
        print("measured in Voila:", {k: round(v, 3) for k, v in took.items()})
        assert errors == [], errors
        page.close()
        assert "Traceback" not in voila.log(), voila.log()[-3000:]


@pytest.mark.soak  # and in marimo (make test plays marimo's app: test_e2e_hosts, and its editor's keys: test_e2e_keys)
def test_marimo_answers_a_click_while_the_hint_searches(browser, artifacts: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with MarimoServer(marimo_app(tmp_path / "looping_marimo.py")) as marimo:
        page, errors = watched_page(browser, width=1280, height=1300)
        page.goto(marimo.url())
        board = page.locator("marimo-anywidget .kum-widget[data-state-id]").first  # in an open shadow root
        board.wait_for()
        took = draw_while_the_hint_searches(page, board)
        took["the Hint's answer, left alone"] = a_hint_left_alone_is_shown(page, board)
        board.screenshot(path=str(artifacts / "host-search-marimo.png"))
        print("measured in marimo:", {k: round(v, 3) for k, v in took.items()})
        assert errors == [], errors
        page.close()
        assert "Traceback" not in marimo.log(), marimo.log()[-3000:]
