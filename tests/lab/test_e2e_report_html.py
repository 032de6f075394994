"""The design report's page, saved and opened in a real Chromium with the network cut off:
every plot loads from the file itself, nothing is fetched, the sections and their answers
show, light or dark as the reader's system is. Screenshots: test-artifacts/report_page*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _chromium import new_page, wait_until
from _paths import TESTS
from _report_helpers import SCRIPT, lab_report
from labserver import code_cell, open_notebook, run_all, wait_idle

from kum_widget.lab.report_html import page


@pytest.fixture(scope="module")
def report() -> Any:
    return lab_report()


def _open(browser: Any, path: Path, requests: list[str], errors: list[str]) -> Any:
    tab = new_page(browser, width=1100, height=900)

    def route(r: Any) -> None:
        if r.request.url.startswith(("file://", "data:")):
            r.continue_()
        else:  # anything from a network: refused, and counted
            requests.append(r.request.url)
            r.abort()

    tab.route("**/*", route)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("requestfailed", lambda r: errors.append(f"failed: {r.url[:80]}"))
    tab.goto(path.as_uri())
    tab.wait_for_load_state("load")
    return tab


def _shown(tab: Any, selector: str) -> int:
    return int(tab.evaluate(f"() => [...document.querySelectorAll({selector!r})].filter(e => e.offsetParent !== null).length"))


def test_the_report_page_reads_offline(browser: Any, artifacts: Path, tmp_path: Path, report: Any) -> None:
    path = tmp_path / "report.html"
    path.write_text(page(report), encoding="utf-8")
    requests: list[str] = []
    errors: list[str] = []
    tab = _open(browser, path, requests, errors)
    # every picture, light and dark, decoded from the file; on a light page the light ones show
    sizes = tab.evaluate("() => [...document.images].map(i => [i.complete, i.naturalWidth])")
    assert len(sizes) == 2 * len(report.sections) and all(done and width > 0 for done, width in sizes)
    assert _shown(tab, "img.kum-light") == len(report.sections) and _shown(tab, "img.kum-dark") == 0
    # the title as text (nothing ran), the questions with their answers, then each section
    assert tab.title() == report.title and tab.evaluate("() => window.pwned") is None
    assert SCRIPT in tab.locator("h1").inner_text()
    toc = tab.locator("nav.kum-report-toc")
    for s in report.sections:
        assert s.question in toc.inner_text() and s.result.reading in toc.inner_text()
    headings = tab.locator("section h2").all_inner_texts()
    assert headings == [f"{n}. {s.title}" for n, s in enumerate(report.sections, start=1)]
    readings = tab.locator("section .kum-lab-reading").all_inner_texts()
    assert readings == [s.result.reading for s in report.sections]
    assert tab.locator("section .kum-lab-reading").nth(3).is_visible()
    # a question in the list takes the reader to its section
    toc.locator("a").nth(3).click()
    assert tab.evaluate("() => location.hash").startswith("#kum-report-")
    assert tab.locator("section h2").nth(3).evaluate("h => h.getBoundingClientRect().top") < 50
    tab.evaluate("() => window.scrollTo(0, 0)")
    # a wide table: the columns that answer; the rest under "all N columns", closed
    compare = tab.locator("section").nth(3)
    assert compare.locator("details.kum-lab-all").count() == 1 and not compare.locator("details.kum-lab-all table").is_visible()
    tab.screenshot(path=str(artifacts / "report_page.png"), full_page=True)
    # a dark system: a dark page and the dark pictures
    tab.emulate_media(color_scheme="dark")
    assert _shown(tab, "img.kum-dark") == len(report.sections) and _shown(tab, "img.kum-light") == 0
    background = tab.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(22, 24, 28)"
    tab.screenshot(path=str(artifacts / "report_page_dark.png"), full_page=True)
    # on paper: the light pictures, whatever the screen's scheme
    tab.emulate_media(media="print", color_scheme="dark")
    assert _shown(tab, "img.kum-light") == len(report.sections) and _shown(tab, "img.kum-dark") == 0
    assert requests == [] and errors == []
    tab.close()


RESULT_CELLS = [
    "import sys; sys.path.insert(0, {tests!r})\nimport kum_widget as kum\nfrom _report_helpers import fake_report\n"
    "df = kum.simulate(40, game='bust', bots=('greedy', 'random'), seed=1, progress=False)",
    "kum.lab.win_rate(df, by='bot')",
    "from IPython.display import HTML\nfrom kum_widget.lab.report_html import fragment\nHTML(fragment(fake_report()))",
]


@pytest.mark.parametrize("theme", ["JupyterLab Dark", pytest.param("JupyterLab Light", marks=pytest.mark.soak)])  # the light theme: make soak
def test_a_result_follows_jupyterlabs_theme(lab_room: Any, browser: Any, artifacts: Path, theme: str) -> None:
    tests = str(TESTS)
    nb = {"cells": [code_cell(c.format(tests=tests)) for c in RESULT_CELLS], "metadata": {}, "nbformat": 4,
          "nbformat_minor": 5}
    dark = theme == "JupyterLab Dark"
    lab = lab_room({"result.ipynb": nb}, theme=theme)
    tab = new_page(browser, width=1280, height=1400)
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    open_notebook(tab, lab, "result.ipynb")
    run_all(tab)
    tab.wait_for_selector(".kum-report .kum-lab img", state="attached")
    wait_idle(tab)
    assert tab.evaluate("() => document.body.dataset.jpThemeLight") == ("false" if dark else "true")
    shown, hidden = ("img.kum-dark", "img.kum-light") if dark else ("img.kum-light", "img.kum-dark")
    # the win rate, and the report's two sections: each shows the picture for the theme, only that one
    assert _shown(tab, shown) == 3 and _shown(tab, hidden) == 0
    result = tab.locator(".jp-OutputArea-output .kum-lab").first
    assert "The greedy bot wins" in result.locator(".kum-lab-reading").inner_text()
    if dark:
        result.screenshot(path=str(artifacts / "lab_result_dark.png"))
    else:  # a question in the report's list scrolls the notebook to its section
        heading = tab.locator(".kum-report section h2").nth(1)
        assert heading.evaluate("h => h.getBoundingClientRect().top") > 400  # not in view before
        tab.locator(".kum-report-toc a").nth(1).click()
        wait_until(tab, "h => { const r = h.getBoundingClientRect(); return r.top >= 0 && r.top < 400; }", heading.element_handle(),
                   what="the notebook scrolled to the section's heading")
    assert errors == []
    tab.close()
