"""Pages in the tests' Chromium (conftest's ``browser`` fixture) that record every JavaScript
error, the waits every browser test uses, and a notebook opened and run in a real JupyterLab
(tests/labserver.py) with its board drawn.

Every wait is on a condition the page shows (a state id that changed, an element that
appeared, a box that stopped moving), never a fixed pause, and its deadline is generous:
it returns as soon as the condition holds, so the deadline only matters on a machine busy
enough to need it (CI's 2 cores under the whole suite)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labserver import LabRoom, LabServer

__all__ = ["AXE", "WAIT_MS", "axe_violations", "grave", "new_page", "offline_page", "open_board", "wait_board_changed", "wait_still", "wait_until", "watched_page"]

# How long a page waits for what a test expects before it fails (ms): a kernel's answer, a
# cell's run, an element, a click's target. Playwright's default (30 s), and the 5 to 20 s
# some waits here had, are too tight on a loaded 2-core machine.
WAIT_MS = 120_000


def new_page(browser: Any, *, width: int, height: int, **media: Any) -> Any:
    """A new ``width`` x ``height`` page (``media`` as Playwright's ``emulate_media`` takes it,
    e.g. ``forced_colors="active"``) whose waits, clicks and loads time out after ``WAIT_MS``."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(WAIT_MS)
    page.set_default_navigation_timeout(WAIT_MS)
    if media:
        page.emulate_media(**media)
    return page


def watched_page(browser: Any, *, width: int, height: int, **media: Any) -> tuple[Any, list[str]]:
    """``new_page``, and the list its JavaScript errors go to."""
    page = new_page(browser, width=width, height=height, **media)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def wait_until(page: Any, script: str, arg: Any = None, *, what: str, timeout: float = WAIT_MS, show: str | None = None) -> None:
    """Wait until ``script`` (a JavaScript function of ``arg``) returns something truthy in
    ``page`` (checked every animation frame); past ``timeout`` ms, fail saying ``what`` was
    awaited and, with ``show`` (a JavaScript function of ``arg``), what the page shows instead."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(script, arg=arg, timeout=timeout)
    except PlaywrightTimeoutError:
        seen = ""
        if show is not None:
            try:
                seen = f"; the page shows {page.evaluate(show, arg)!r}"
            except PlaywrightError as exc:
                seen = f"; (what the page shows could not be read: {exc})"
        raise AssertionError(f"waited {timeout / 1000:.0f} s for {what}{seen}") from None


def wait_board_changed(page: Any, board: Any, sid: str | None, what: str = "the kernel's update") -> None:
    """Wait until ``board`` (a locator of a ``.kum-widget``) shows a state other than ``sid``
    and is no longer busy: the kernel's update is drawn and the board takes clicks again."""
    wait_until(page, "([el, sid]) => el.dataset.stateId !== sid && !el.hasAttribute('aria-busy')",
               [board.element_handle(), sid], what=f"{what}: the board's state id to change from {sid} (and the board not busy)")


# True once the element's box has been the same for `frames` animation frames in a row and
# nothing in it is animating. The count lives on the element, under a key of this wait's own.
_STILL = """([el, key, frames]) => {
  const r = el.getBoundingClientRect(), box = [r.x, r.y, r.width, r.height].join();
  const s = el[key] || (el[key] = {box: null, n: 0});
  s.n = s.box === box ? s.n + 1 : 0;
  s.box = box;
  return s.n >= frames && el.getAnimations({subtree: true}).every(a => a.playState !== 'running');
}"""
_stills = 0


def wait_still(page: Any, locator: Any, what: str = "the page to settle", frames: int = 5) -> None:
    """Wait until ``locator``'s element stops moving (a new window size laid out, a scroll
    done, its flights landed): the same box ``frames`` frames running, no animation in it."""
    global _stills
    _stills += 1
    wait_until(page, _STILL, [locator.element_handle(), f"__kumStill{_stills}", frames],
               what=f"{what} (its box unchanged for {frames} frames, nothing in it animating)")


def open_board(browser: Any, lab: LabServer | LabRoom, name: str, *, width: int = 1280, height: int = 1300,
               own_page: bool = False, **media: Any) -> tuple[Any, Any, list[str]]:
    """Notebook ``name`` of ``lab`` opened and run: the page, its first board (drawn, the
    kernel idle) and the page's JavaScript errors. A room of the worker's JupyterLab
    (``lab_room``) opens it in the page JupyterLab is kept running in (``LabServer.tab``);
    a room with a theme or settings of its own, another server, or ``own_page`` (a test that
    reloads the page), in a new page."""
    from labserver import LabRoom, open_notebook, run_all, wait_idle  # (labserver imports this module's waits)

    if isinstance(lab, LabRoom) and lab.in_tab and not own_page:
        page, errors = lab.server.tab(browser, width=width, height=height, **media)
    else:
        page, errors = watched_page(browser, width=width, height=height, **media)
    open_notebook(page, lab, name)
    run_all(page)
    board = page.locator(".kum-widget").first
    board.wait_for()
    wait_idle(page)
    return page, board, errors


def offline_page(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    """A saved replay file (``path``) opened in a new page that may load nothing else: the
    page, the other addresses it asked for (refused) and its JavaScript errors."""
    page = new_page(browser, width=1100, height=900)
    requests: list[str] = []
    errors: list[str] = []

    def route(r: Any) -> None:
        if r.request.url == path.as_uri():
            r.continue_()
        else:
            requests.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector(".kum-replay[data-ready='true'] .kum-widget[data-state-id]")
    return page, requests, errors


# -- accessibility: axe-core (npm, a devDependency) run on the board's own DOM ------------------

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
WCAG21 = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]  # WCAG 2.1, levels A and AA

_AXE_RUN = """async ([el, tags]) => {
  const result = await window.axe.run(el, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
    where: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n').slice(1, 2).join('').trim())}));
}"""



def dismiss_intro(board: Any) -> None:
    """"Got it" on a game's first-time panel, when it shows: it lies over the board, as a player
    meets it (once dismissed, a board of the same game does not open it again in that browser)."""
    import time

    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    close = board.locator("[data-control='intro-close']")
    deadline = time.monotonic() + WAIT_MS / 1000
    while close.count():
        # A click can land as the board redraws the panel (a kernel update on a loaded machine)
        # and be lost with the old button: clicked again until the panel is gone.
        try:
            close.first.click(timeout=10_000)
            board.locator(".kum-intro").wait_for(state="detached", timeout=10_000)
            return
        except PlaywrightTimeoutError:
            if time.monotonic() > deadline:
                raise AssertionError(f"the first-time panel stayed open after {WAIT_MS / 1000:.0f} s of clicks on its close button") from None


def axe_violations(page: Any, element: Any) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 A and AA violations within ``element`` (a locator or an element
    handle: the board's root, a replay file's host), axe injected into ``page`` once from
    node_modules/axe-core (``npm ci`` installs it): ``[{id, impact, help, nodes, where}]``."""
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: run `npm ci` (axe-core is a devDependency in package.json)")
    if not page.evaluate("() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.add_script_tag(path=str(AXE))
    handle = element.element_handle() if hasattr(element, "element_handle") else element
    found: list[dict[str, Any]] = page.evaluate(_AXE_RUN, [handle, WCAG21])
    return found


def grave(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The serious and critical ones (what no state of the board may have)."""
    return [v for v in violations if v["impact"] in ("serious", "critical")]
