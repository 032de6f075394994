"""The design report as HTML: a notebook fragment and one standalone page, offline, every
text escaped (the page in a real browser: test_e2e_report_html.py)."""

from __future__ import annotations

import base64
import re

from _report_helpers import IMG, SCRIPT, fake_report

from kum_widget.lab.render import CSS
from kum_widget.lab.report_html import REPORT_CSS, fragment, page


def _rules(css: str) -> list[str]:
    """The selectors of a stylesheet's rules (inside @media blocks too)."""
    css = re.sub(r"@media[^{]*\{", "", css)
    return [sel.strip() for sel in re.findall(r"([^{}]+)\{[^{}]*\}", css)]


def test_the_page_is_one_document_with_nothing_from_outside() -> None:
    text = page(fake_report())
    assert text.startswith("<!doctype html>\n<html") and text.rstrip().endswith("</html>")
    low = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", text).lower()  # the pictures' own bytes aside
    for outside in ("http", "<script", "<link", "@import", "url(", "<iframe", "<object", "srcset", "//"):
        assert outside not in low, outside
    sources = re.findall(r'src="([^"]*)"', text)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert text.count("<style>") == 1 and '<meta charset="utf-8">' in text


def test_every_plot_is_embedded_twice_for_light_and_dark_pages() -> None:
    text = page(fake_report())
    light = re.findall(r'<img class="kum-light" src="data:image/png;base64,([^"]+)"', text)
    dark = re.findall(r'<img class="kum-dark" src="data:image/png;base64,([^"]+)"[^>]*style="display:none"', text)
    assert len(light) == len(dark) == 2
    for data in light + dark:
        png = base64.b64decode(data)
        assert png.startswith(b"\x89PNG") and b"matplotlib.org" not in png  # no URL in its metadata either
    # a dark page shows the dark picture, a printed page the light one
    assert "prefers-color-scheme:dark" in text and 'data-jp-theme-light="false"' in text
    assert "@media print" in text


def test_hostile_text_is_escaped_everywhere() -> None:
    for text in (page(fake_report()), fragment(fake_report())):
        assert SCRIPT not in text and IMG not in text and "<script" not in text.lower()
        assert "onerror=" not in text.replace("onerror=&quot;", "")  # only as escaped text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text  # the title, the reading, a setting
        assert html_escaped(IMG) in text  # a table cell, a question, a setting's name


def html_escaped(s: str) -> str:
    import html

    return html.escape(s)


def test_the_contents_list_each_question_with_its_answer_and_link_to_its_section() -> None:
    report = fake_report()
    text = fragment(report)
    toc = text[text.index('<nav class="kum-report-toc">'):text.index("</nav>")]
    links = re.findall(r'href="#([^"]+)"', toc)
    assert len(links) == 2 and all(f'id="{a}"' in text for a in links)
    assert all(re.fullmatch(r"kum-report-[0-9a-f]{8}-\d+-[a-z0-9-]+", a) for a in links)
    assert html_escaped("How do scores move?") in toc and "The mean score hardly moves." in toc
    assert "1. Balance" in text and "2. Scores" in text


def test_a_wide_table_shows_the_columns_that_answer_and_the_rest_on_request() -> None:
    text = fragment(fake_report())
    section = text[text.index("2. Scores"):]
    shown = section[:section.index("<details")]
    assert "mean score (95% interval)" in shown and "23.68 [22.87, 24.49]" in shown and "extra 3" not in shown
    assert ">800<" in shown and "800.0" not in shown  # whole counts
    assert "<summary>all 35 columns</summary>" in section and "extra 29" in section


def test_the_fragment_styles_only_itself() -> None:
    text = fragment(fake_report())
    assert "<html" not in text and "<body" not in text and "<!doctype" not in text.lower()
    for selector in _rules(REPORT_CSS + CSS):
        for part in selector.split(","):
            words = part.split()
            assert words and (words[0].startswith((".kum-report", ".kum-lab")) or (
                words[0].startswith("body") and words[1] == ".kum-lab")), part


def test_settings_and_timings_are_small_tables_in_words() -> None:
    text = page(fake_report())
    assert "How the games were played" in text and "<th scope=\"row\">bots</th><td class=\"txt\">greedy</td>" in text
    assert "How long each part took" in text and "12.5 s" in text and "2 min 10 s" in text and "2 min 22 s" in text
    assert "<th scope=\"row\">Balance</th>" in text  # a part named by its section's title


def test_a_report_without_sections_or_settings_still_renders() -> None:
    report = fake_report()
    report.sections, report.settings, report.timings = [], {}, {}
    text = page(report)
    assert "no sections" in text and "How the games" not in text
