"""A design report as HTML: :func:`fragment` for a notebook output, :func:`page` for one
standalone file to hand to a class (no network: the styles inline, every plot a data URI,
no script, font or link to anything outside the file).

The report is read by its attributes, whatever class holds them: ``title`` and
``subtitle`` (text), ``sections`` (each with ``key``, ``title``, ``question`` and
``result``, a :class:`~kum_widget.lab.result.LabResult` whose ``reading``, ``about``,
``table`` and ``figure`` it shows), ``settings`` (name -> text) and ``timings``
(part -> seconds). Every text is escaped: a title, a column or a cell shows as written.

The layout: the title and what was played; a list of the questions, each with its
one-line answer, linking to its section; then each section (its question, its answer, the
table of the columns that answer it, the plot, what the figures mean); then how the games
were played and how long each part took.
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from collections.abc import Mapping
from typing import Any

from .render import CSS, result_html

__all__ = ["fragment", "page"]

PAGE_DPI = 144
"""Plots in the page are drawn at 1.5 times the screen's 96 dots per inch (sharp on paper
and on fine screens), shown at their size."""

REPORT_CSS = (
    ".kum-report{max-width:60rem;line-height:1.5}"
    ".kum-report h1{font-size:1.9em;margin:.2em 0 .1em;line-height:1.2}"
    ".kum-report h2{font-size:1.35em;margin:1.6em 0 .3em;line-height:1.25}"
    ".kum-report h3{font-size:1.05em;margin:1.4em 0 .3em}"
    ".kum-report .kum-report-subtitle{margin:0 0 1em;opacity:.8}"
    ".kum-report .kum-report-toc{margin:1em 0 1.5em;padding:.6em 1.1em .8em;border:1px solid rgba(128,128,128,.35);"
    "border-radius:6px}"
    ".kum-report .kum-report-toc h2{margin:.3em 0 .4em;font-size:1.1em}"
    ".kum-report .kum-report-toc ol{margin:0;padding-left:1.4em}"
    ".kum-report .kum-report-toc li{margin:.45em 0}"
    ".kum-report .kum-report-toc .kum-report-q{font-weight:600}"
    ".kum-report .kum-report-toc .kum-report-a{display:block;opacity:.85}"
    ".kum-report a{color:inherit}"
    ".kum-report .kum-report-question{font-style:italic;margin:.1em 0 .4em;opacity:.85}"
    ".kum-report section{border-top:1px solid rgba(128,128,128,.3);margin-top:1.4em}"
    ".kum-report .kum-report-small table{border-collapse:collapse;font-size:.9em}"
    ".kum-report .kum-report-small th,.kum-report .kum-report-small td{text-align:left;padding:.15em .8em .15em 0;"
    "vertical-align:top;border-bottom:1px solid rgba(128,128,128,.25);background:none}"
    ".kum-report .kum-report-small td.num{text-align:right}"
    ".kum-report footer{margin-top:2em;font-size:.92em}"
    ".kum-report .kum-report-made{opacity:.7;font-size:.9em;margin-top:1.5em}"
)

PAGE_CSS = (
    ":root{color-scheme:light dark;--bg:#ffffff;--fg:#1d2126}"
    "@media screen and (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e4e6ea}}"
    "html{background:var(--bg);color:var(--fg)}"
    "body{margin:0;padding:2rem 1.5rem 3rem;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,"
    "'Helvetica Neue',Arial,sans-serif;background:var(--bg);color:var(--fg)}"
    ".kum-report{margin:0 auto}"
    "@page{margin:15mm 14mm}"
    "@media print{:root{color-scheme:light}html,body{background:#fff;color:#000}body{padding:0;font-size:11pt}"
    ".kum-report{max-width:none}.kum-report section{break-inside:auto}"
    ".kum-report h2,.kum-report h3,.kum-report .kum-report-question{break-after:avoid}"
    ".kum-lab img,.kum-lab table{break-inside:avoid}.kum-report .kum-report-toc{break-inside:avoid}"
    ".kum-report a{text-decoration:none}}"
)


def _text(value: Any) -> str:
    """Any value as escaped text (None as nothing)."""
    return "" if value is None else html.escape(str(value))


def _anchor(report: Any, key: Any, n: int) -> str:
    """An id for a section: unique to this report (two reports in one notebook keep their
    own links) and made of safe characters only."""
    seed = f"{getattr(report, 'title', '')}\n{getattr(report, 'subtitle', '')}".encode("utf-8", "replace")
    slug = re.sub(r"[^a-z0-9]+", "-", str(key).lower()).strip("-")[:40] or "part"
    return f"kum-report-{hashlib.sha1(seed).hexdigest()[:8]}-{n}-{slug}"


def _sections(report: Any) -> list[Any]:
    return list(getattr(report, "sections", None) or [])


def _toc(report: Any, sections: list[Any]) -> str:
    items = []
    for n, s in enumerate(sections, start=1):
        reading = getattr(s.result, "reading", "") if s.result is not None else ""
        items.append(
            f'<li><a href="#{_anchor(report, s.key, n)}"><span class="kum-report-q">{_text(s.question or s.title)}</span></a>'
            + (f'<span class="kum-report-a">{_text(reading)}</span>' if reading else "") + "</li>"
        )
    return f'<nav class="kum-report-toc"><h2>The questions, and the short answers</h2><ol>{"".join(items)}</ol></nav>'


def _section(report: Any, s: Any, n: int, dpi: float) -> str:
    head = f'<h2 id="{_anchor(report, s.key, n)}">{n}. {_text(s.title)}</h2>'
    question = f'<p class="kum-report-question">{_text(s.question)}</p>' if s.question else ""
    body = "" if s.result is None else result_html(s.result, heading=False, dpi=dpi, style=False)
    return f"<section>{head}{question}{body}</section>"


def _seconds(x: Any) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return _text(x)
    if math.isnan(v):
        return ""
    return f"{v:.1f} s" if v < 120 else f"{int(v // 60)} min {round(v % 60):02d} s"


def _small_table(rows: list[tuple[str, str, bool]]) -> str:
    """Rows of (name, value (escaped already), whether the value is a number)."""
    body = "".join(f'<tr><th scope="row">{name}</th><td class="{"num" if number else "txt"}">{value}</td></tr>'
                   for name, value, number in rows)
    return f'<div class="kum-report-small"><table><tbody>{body}</tbody></table></div>'


def _footer(report: Any, sections: list[Any]) -> str:
    parts = []
    settings = getattr(report, "settings", None)
    if isinstance(settings, Mapping) and settings:
        parts.append("<h3>How the games were played</h3>"
                     + _small_table([(_text(k), _text(v), False) for k, v in settings.items()]))
    timings = getattr(report, "timings", None)
    if isinstance(timings, Mapping) and timings:
        titles = {getattr(s, "key", None): getattr(s, "title", None) for s in sections}
        rows = [(_text(titles.get(k) or k), _seconds(v), True) for k, v in timings.items()]
        try:
            total = sum(float(v) for v in timings.values())
            rows.append(("in all", _seconds(total), True))
        except (TypeError, ValueError):
            pass
        parts.append("<h3>How long each part took</h3>" + _small_table(rows))
    parts.append('<p class="kum-report-made">Made with kum_widget\'s design lab, from games played between bots. '
                 "Read every result as &ldquo;between players who play like these bots&rdquo;.</p>")
    return f"<footer>{''.join(parts)}</footer>"


def _body(report: Any, dpi: float) -> str:
    sections = _sections(report)
    subtitle = getattr(report, "subtitle", "")
    return (
        f'<div class="kum-report kum-lab-report"><header><h1>{_text(getattr(report, "title", "") or "Design report")}</h1>'
        + (f'<p class="kum-report-subtitle">{_text(subtitle)}</p>' if subtitle else "") + "</header>"
        + (_toc(report, sections) if sections else "<p>This report has no sections.</p>")
        + "".join(_section(report, s, n, dpi) for n, s in enumerate(sections, start=1))
        + _footer(report, sections) + "</div>"
    )


def fragment(report: Any) -> str:
    """The report as HTML for a notebook output: the questions with their short answers,
    then a section each, the styles scoped to it (``.kum-report``, ``.kum-lab``)."""
    return f"<style>{REPORT_CSS}{CSS}</style>{_body(report, 96)}"


def page(report: Any) -> str:
    """The report as one standalone HTML document: open it offline in any browser, print
    it, mail it. Light or dark as the reader's system is (light on paper)."""
    title = _text(getattr(report, "title", "") or "Design report")
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{title}</title><style>{PAGE_CSS}{REPORT_CSS}{CSS}</style></head>"
        f"<body>{_body(report, PAGE_DPI)}</body></html>\n"
    )
