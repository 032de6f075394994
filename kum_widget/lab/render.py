"""How a lab result reads: its table as a class reads it (whole counts without decimals,
rates in per cent, an estimate and its 95% interval in one cell, columns in words) and its
plot drawn twice, for a light page and a dark one.

Used by :class:`~kum_widget.lab.result.LabResult` in a notebook and by the design report's
page (:mod:`kum_widget.lab.report_html`). Every text goes out escaped. pandas and
matplotlib are only ever handed in (this module imports neither).
"""

from __future__ import annotations

import base64
import colorsys
import html
import io
import math
import numbers
import re
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["CSS", "WORDS", "column_words", "images_html", "pngs", "result_html", "table_html", "table_text"]

WORDS: dict[str, str] = {
    "shared": "shared wins", "win_rate": "win rate", "low": "95% low", "high": "95% high", "fair": "even game",
    "shared_rate": "shared wins", "mean_score": "mean score", "score_low": "score, 95% low",
    "score_high": "score, 95% high", "mean_low": "mean, 95% low", "mean_high": "mean, 95% high",
    "std": "spread (SD)", "min": "lowest", "q25": "lower quartile", "q75": "upper quartile", "max": "highest",
    "10%": "10th percentile", "50%": "median", "90%": "90th percentile", "count": "games",
    "with": "games with it", "rate": "share of games with it", "rate_low": "share, 95% low",
    "rate_high": "share, 95% high", "mean_count": "mean count", "score_with": "mean score with",
    "score_without": "mean score without", "difference": "with minus without", "diff_low": "difference, 95% low",
    "diff_high": "difference, 95% high", "opponent": "against", "first": "moved first", "n_winners": "winners",
}
"""The lab's column names in words (any other name: its underscores read as spaces)."""

INTERVALS = (("win_rate", "low", "high"), ("mean", "mean_low", "mean_high"), ("mean_score", "score_low", "score_high"),
             ("rate", "rate_low", "rate_high"), ("difference", "diff_low", "diff_high"), ("value", "low", "high"),
             ("difference", "low", "high"), ("legal actions (mean)", "low", "high"), ("stronger's share", "low", "high"))
"""An estimate and the bounds of its 95% interval, shown in one cell: "52.4% [48.9%, 55.8%]"."""

MISSING = "\u2013"  # an en dash: no value


def column_words(name: Any, labels: Mapping[Any, str] | None = None) -> str:
    """A column's name in words: from ``labels``, else :data:`WORDS`, else its underscores as spaces."""
    if labels and name in labels:
        return str(labels[name])
    if isinstance(name, tuple):
        return " / ".join(column_words(n, labels) for n in name)
    text = str(name)
    return WORDS.get(text, text.replace("_", " ").strip() or text)


def guess_percent(columns: Sequence[Any]) -> set[Any]:
    """The columns that hold rates, by the lab's names: ``win_rate``, ``rate``, ``fair``,
    ``*_rate``, ``rate_*``, and ``low``/``high`` beside a ``win_rate``."""
    out = {c for c in columns if isinstance(c, str)
           and (c in ("rate", "fair") or c.endswith("_rate") or c.startswith("rate_"))}
    if "win_rate" in columns:
        out |= {c for c in ("low", "high") if c in columns}
    return out


# -- cells ------------------------------------------------------------------------------


def _floats(series: Any) -> list[float | None]:
    """The column as floats (None where it holds no number: NA, text)."""
    out: list[float | None] = []
    for v in series.tolist():
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            out.append(None)
        else:
            x = float(v)
            out.append(None if math.isnan(x) else x)
    return out


def _number_format(values: Sequence[float | None], percent: bool) -> Callable[[float], str]:
    """How a column of numbers reads: a rate in per cent, whole numbers (counts, and means
    that happen to be whole) without decimals, anything else to about 3 significant digits
    (1 decimal from 100 up, 2 from 1, else 3)."""
    if percent:
        return lambda x: f"{x:.1%}" if math.isfinite(x) else str(x)
    finite = [x for x in values if x is not None and math.isfinite(x)]
    if all(x == int(x) and abs(x) < 1e15 for x in finite):
        return lambda x: f"{int(x):,}" if math.isfinite(x) else str(x)
    top = max(abs(x) for x in finite)
    digits = 1 if top >= 100 else 2 if top >= 1 else 3  # about 3 significant digits: 123.4, 23.68, 0.065
    return lambda x: f"{x:,.{digits}f}" if math.isfinite(x) else str(x)


def _is_numeric(series: Any) -> bool:
    kind = getattr(series.dtype, "kind", "O")
    return kind in "iuf" or (kind == "O" and bool(len(series)) and all(
        v is None or (isinstance(v, numbers.Real) and not isinstance(v, bool)) for v in series.tolist()))


def _text(v: Any, labels: Mapping[Any, str] | None = None) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)) or type(v).__name__ in ("NAType", "NaTType"):
        return MISSING
    if isinstance(v, bool) or type(v).__name__ in ("bool", "bool_"):  # numpy's too
        return "yes" if v else "no"
    if labels and isinstance(v, str) and v in labels:
        return str(labels[v])
    if isinstance(v, tuple):
        return ", ".join(_text(x, labels) for x in v)
    if isinstance(v, float) and v == int(v) and abs(v) < 1e15:
        return f"{int(v):,}"
    if isinstance(v, numbers.Integral):
        return f"{int(v):,}"
    if isinstance(v, float):
        return f"{v:,.3f}"
    return str(v)


def _column(series: Any, percent: bool, labels: Mapping[Any, str] | None) -> list[str]:
    if not _is_numeric(series):
        return [_text(v, labels) for v in series.tolist()]
    values = _floats(series)
    fmt = _number_format(values, percent)
    return [MISSING if x is None else fmt(x) for x in values]


def _merged(table: Any, value: Any, low: Any, high: Any, percent: bool) -> list[str]:
    """"estimate [low, high]" per row, the three numbers formatted alike."""
    v, lo, hi = (_floats(table[c]) for c in (value, low, high))
    fmt = _number_format([*v, *lo, *hi], percent)
    out = []
    for x, a, b in zip(v, lo, hi, strict=True):
        if x is None:
            out.append(MISSING)
        elif a is None or b is None:
            out.append(fmt(x))
        else:
            out.append(f"{fmt(x)} [{fmt(a)}, {fmt(b)}]")
    return out


def table_cells(table: Any, columns: Sequence[Any] | None = None, *, percent: set[Any] | None = None,
                labels: Mapping[Any, str] | None = None, merge: bool = True,
                ) -> tuple[list[str], list[str], list[list[str]], list[list[str]], list[bool]]:
    """``table`` (a DataFrame) as text cells: (index headers, column headers, index cells
    per row, cells per row, whether each column is numeric)."""
    if not table.columns.is_unique:  # a name twice: tell them apart by their place, to show each
        seen: dict[Any, int] = {}
        names = []
        for c in table.columns:
            seen[c] = seen.get(c, 0) + 1
            names.append(c if seen[c] == 1 else f"{column_words(c, labels)} ({seen[c]})")
        table = table.set_axis(names, axis=1)
    cols = [c for c in (table.columns if columns is None else columns) if c in table.columns]
    percent = guess_percent(list(table.columns)) if percent is None else set(percent)
    triples = {t[0]: t for t in INTERVALS if merge and all(c in cols for c in t)}
    triples.update({c: (c, f"{c} low", f"{c} high") for c in cols  # "x", "x low", "x high": a sweep's
                    if merge and isinstance(c, str) and f"{c} low" in cols and f"{c} high" in cols})
    bounds = {c for t in triples.values() for c in t[1:]}
    groups = [triples.get(c, (c,)) for c in cols if c not in bounds]  # a bound goes in its estimate's cell
    heads, body, numeric = [], [], []
    # A table of measures of different kinds (design.py's "measure"/"value" tables) says which
    # of its rows are shares (in per cent) and which are counts (whole numbers).
    by_row = {"percent": set(table.attrs.get("percent_rows", ())), "count": set(table.attrs.get("count_rows", ()))}
    for g in groups:
        if len(g) == 3:
            heads.append(f"{column_words(g[0], labels)} (95% interval)")
            body.append(_merged(table, *g, percent=g[0] in percent))
            numeric.append(True)
        else:
            heads.append(column_words(g[0], labels))
            body.append(_column(table[g[0]], g[0] in percent, labels))
            numeric.append(_is_numeric(table[g[0]]))
        if g[0] == "value" and (by_row["percent"] or by_row["count"]):
            for i in range(len(table)):
                if i in by_row["count"]:
                    x = _floats(table[g[0]].iloc[[i]])[0]
                    body[-1][i] = MISSING if x is None else f"{round(x):,}"
                elif i in by_row["percent"]:
                    part = table.iloc[[i]]
                    body[-1][i] = (_merged(part, *g, percent=True) if len(g) == 3 else _column(part[g[0]], True, labels))[0]
    names = list(table.index.names)
    plain = type(table.index).__name__ == "RangeIndex" and names == [None]  # row numbers: not worth a column
    index_heads = [] if plain else [column_words(n, labels) if n is not None else "" for n in names]
    index_rows = [[] if plain else [_text(x, labels) for x in (v if isinstance(v, tuple) and len(names) > 1 else (v,))]
                  for v in table.index.tolist()]
    rows = [list(r) for r in zip(*body, strict=True)] if body else [[] for _ in index_rows]
    return index_heads, heads, index_rows, rows, numeric


def table_html(table: Any, columns: Sequence[Any] | None = None, **kw: Any) -> str:
    """``table`` as an HTML table (see :func:`table_cells`), every text escaped."""
    index_heads, heads, index_rows, rows, numeric = table_cells(table, columns, **kw)
    e = html.escape
    head = "".join(f'<th scope="col">{e(h)}</th>' for h in index_heads)
    head += "".join(f'<th scope="col" class="{"num" if n else "txt"}">{e(h)}</th>'
                    for h, n in zip(heads, numeric, strict=True))
    lines = []
    for idx, row in zip(index_rows, rows, strict=True):
        cells = "".join(f'<th scope="row">{e(x)}</th>' for x in idx)
        cells += "".join(f'<td class="{"num" if n else "txt"}">{e(x)}</td>' for x, n in zip(row, numeric, strict=True))
        lines.append(f"<tr>{cells}</tr>")
    return f'<table class="kum-lab-table"><thead><tr>{head}</tr></thead><tbody>{"".join(lines)}</tbody></table>'


def table_text(table: Any, columns: Sequence[Any] | None = None, **kw: Any) -> str:
    """``table`` as aligned plain text (see :func:`table_cells`)."""
    index_heads, heads, index_rows, rows, numeric = table_cells(table, columns, **kw)
    grid = [index_heads + heads] + [idx + row for idx, row in zip(index_rows, rows, strict=True)]
    right = [False] * len(index_heads) + numeric
    widths = [max(len(r[k]) for r in grid) for k in range(len(right))]
    return "\n".join("  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right, strict=True)).rstrip()
                     for row in grid)


# -- plots: one for a light page, one for a dark page -----------------------------------------


def _for_dark(rgba: tuple[float, ...]) -> tuple[float, ...]:
    """A colour as it reads on a dark page: greys turned over (black text to light grey,
    white fills to near black), dark colours lightened, the rest (the data's) kept."""
    r, g, b, a = rgba
    if a == 0:
        return rgba
    h, light, s = colorsys.rgb_to_hls(r, g, b)
    if max(r, g, b) - min(r, g, b) < 0.12:
        light = 0.12 + 0.76 * (1 - light)
    elif light < 0.35:
        light = 1 - light
    else:
        return rgba
    return (*colorsys.hls_to_rgb(h, light, s), a)


def _recolor_for_dark(fig: Any) -> list[tuple[Callable[[Any], Any], Any]]:
    """Recolour ``fig`` for a dark page in place; what undoes it, as (setter, old value) pairs."""
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgba, to_rgba_array
    from matplotlib.image import AxesImage
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text

    undo: list[tuple[Callable[[Any], Any], Any]] = []

    def recolor(art: Any, name: str, new: Callable[[Any], Any]) -> None:
        old = getattr(art, f"get_{name}")()
        if name != "facecolor" or id(art) not in backgrounds:
            colors = to_rgba_array(old)
            if not len(colors) or not colors[:, 3].any():  # nothing drawn (and a patch's alpha would show it)
                return
        put = getattr(art, f"set_{name}")
        undo.append((put, old))
        put(new(old))

    def one(color: Any) -> tuple[float, ...]:
        return _for_dark(to_rgba(color))

    def many(colors: Any) -> Any:
        return [_for_dark(tuple(c)) for c in to_rgba_array(colors)]

    backgrounds = {id(fig.patch)} | {id(ax.patch) for ax in fig.axes}
    on_images = {id(t) for ax in fig.axes if ax.images for t in ax.texts}  # labels drawn on a heatmap's cells
    art: Any
    for art in fig.findobj():
        if isinstance(art, AxesImage) or id(art) in on_images:
            continue
        if id(art) in backgrounds:
            recolor(art, "facecolor", lambda _: (0, 0, 0, 0))
        elif isinstance(art, Text):
            recolor(art, "color", one)
        elif isinstance(art, Line2D):
            for name in ("color", "markeredgecolor", "markerfacecolor"):
                recolor(art, name, one)
        elif isinstance(art, Patch):
            recolor(art, "facecolor", one)
            recolor(art, "edgecolor", one)
        elif isinstance(art, Collection) and art.get_array() is None:  # a colour-mapped one keeps its map
            recolor(art, "facecolor", many)
            recolor(art, "edgecolor", many)
    return undo


def _png(fig: Any, dpi: float, **kw: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", metadata={"Software": None}, **kw)
    return buf.getvalue()


def pngs(fig: Any, dpi: float = 96) -> tuple[bytes, bytes]:
    """``fig`` as two PNGs: as drawn (for a light page) and recoloured on a transparent
    background (for a dark page). The figure is left as it was."""
    light = _png(fig, dpi)  # drawn first: every tick exists before the recolouring walks them
    undo = _recolor_for_dark(fig)
    try:
        dark = _png(fig, dpi, facecolor="none")
    finally:
        for setter, old in reversed(undo):
            setter(old)
    return light, dark


def png_width(data: bytes) -> int:
    """A PNG's width in pixels (from its header)."""
    return int(struct.unpack(">I", data[16:20])[0]) if data[:8] == b"\x89PNG\r\n\x1a\n" else 0


def images_html(fig: Any, alt: str, *, dpi: float = 96) -> str:
    """The light and the dark picture of ``fig``, as data URIs; CSS (:data:`CSS`) shows the
    one that fits the page. Where the page's CSS is stripped (an untrusted notebook) the
    light one shows, by its inline style. Drawn at ``dpi``, shown at 96 per inch."""
    light, dark = pngs(fig, dpi)
    width = round(png_width(light) * 96 / dpi)
    size = f' width="{width}"' if width else ""
    alt_text = html.escape(alt)
    return "".join(
        f'<img class="kum-{kind}" src="data:image/png;base64,{base64.b64encode(data).decode("ascii")}" alt="{alt_text}"{size}'
        + (' style="display:none"' if kind == "dark" else "") + "/>"
        for kind, data in (("light", light), ("dark", dark))
    )


# -- a result ------------------------------------------------------------------------------

def _dark_shows(page: str) -> str:
    """The rules that show the dark picture on ``page`` (a selector for a dark page)."""
    return (f"{page} .kum-lab img.kum-dark{{display:block!important}}"
            f"{page} .kum-lab img.kum-light{{display:none!important}}")


CSS = (
    ".kum-lab{max-width:64rem;margin:.3rem 0;line-height:1.45}"
    ".kum-lab .kum-lab-title{font-weight:600;font-size:1.05em;margin:0 0 .25rem}"
    ".kum-lab .kum-lab-reading{font-size:1.12em;margin:.25rem 0 .6rem;padding:.1rem 0 .1rem .7rem;"
    "border-left:4px solid #4C72B0}"
    ".kum-lab .kum-lab-about{font-size:.86em;opacity:.78;margin:.4rem 0 .2rem;max-width:52rem}"
    ".kum-lab .kum-lab-scroll{overflow-x:auto;max-width:100%}"
    ".kum-lab table.kum-lab-table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.3rem 0;"
    "font-size:.92em;width:auto}"
    ".kum-lab .kum-lab-table th,.kum-lab .kum-lab-table td{padding:.2rem .7rem;border:none;"
    "border-bottom:1px solid rgba(128,128,128,.35);text-align:left;vertical-align:top;background:none;"
    "white-space:nowrap}"
    ".kum-lab .kum-lab-table thead th{font-weight:600;border-bottom:2px solid rgba(128,128,128,.6);"
    "white-space:normal;vertical-align:bottom}"
    ".kum-lab .kum-lab-table .num{text-align:right}"
    ".kum-lab .kum-lab-table tbody th{font-weight:600}"
    ".kum-lab details.kum-lab-all{margin:.2rem 0 .5rem;font-size:.92em}"
    ".kum-lab details.kum-lab-all>summary{cursor:pointer;opacity:.8}"
    ".kum-lab img{max-width:100%;height:auto;display:block;margin:.4rem 0}"
    ".kum-lab img.kum-dark{display:none}"
    # JupyterLab marks its theme on the body (VS Code by a class); elsewhere the system's scheme decides
    "@media screen{" + _dark_shows('body[data-jp-theme-light="false"]') + _dark_shows("body.vscode-dark") + "}"
    "@media screen and (prefers-color-scheme:dark){"
    + _dark_shows('body:not([data-jp-theme-light="true"]):not(.vscode-light)') + "}"
    "@media print{.kum-lab details.kum-lab-all{display:none}}"
)
"""The styles of a lab result, every rule under ``.kum-lab``; the dark picture shows in
JupyterLab's dark themes (``body[data-jp-theme-light="false"]``), VS Code's, and on a page
of its own in a dark colour scheme."""


def result_html(result: Any, *, heading: bool = True, dpi: float = 96, style: bool = True) -> str:
    """A lab result as HTML: its title (``heading``), its reading, the table (the columns
    it shows, the rest under "all N columns"), the plot (light and dark) and what it is
    about. Every text escaped."""
    e = html.escape
    table = result.table
    labels = getattr(result, "labels", None) or None
    percent = getattr(result, "percent", None)
    percent = None if percent is None else set(percent)
    shown = [c for c in (getattr(result, "shown", ()) or ()) if c in table.columns]
    parts = [f"<style>{CSS}</style>" if style else ""]
    if heading and result.title:
        parts.append(f'<div class="kum-lab-title">{e(result.title)}</div>')
    if getattr(result, "reading", ""):
        parts.append(f'<p class="kum-lab-reading">{e(result.reading)}</p>')
    parts.append(f'<div class="kum-lab-scroll">{table_html(table, shown or None, percent=percent, labels=labels)}</div>')
    if shown and len(shown) < len(table.columns):
        parts.append(f'<details class="kum-lab-all"><summary>all {len(table.columns)} columns</summary>'
                     f'<div class="kum-lab-scroll">{table_html(table, None, percent=percent, labels=labels, merge=False)}'
                     "</div></details>")
    if result.figure is not None:
        parts.append(images_html(result.figure, result.title or "plot", dpi=dpi))
    if getattr(result, "about", ""):
        parts.append("".join(f'<p class="kum-lab-about">{e(p)}</p>' for p in _paragraphs(result.about)))
    return f'<div class="kum-lab">{"".join(parts)}</div>'


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]
