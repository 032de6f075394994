"""``LabResult``: a table and its plot, shown together in a notebook."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, cut, shown

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["LabResult", "axes_of", "check_axes", "new_figure"]


@dataclass
class LabResult:
    """What an analysis helper returns: ``table`` (a DataFrame), ``figure`` and ``axes``
    (matplotlib), and for helpers that simulate, the raw results in ``data``.

    It unpacks as ``table, figure = result`` and, as the last line of a notebook cell,
    shows its title, ``reading`` (the answer in a sentence), the table, the plot (drawn
    for a light and for a dark theme) and ``about``. The table shows counts as whole
    numbers, rates in per cent, an estimate and its 95% interval in one cell, and the
    columns in words; ``shown`` picks the columns to show (the others stay under "all N
    columns"): ``dataclasses.replace(result, shown=("rules", "mean_score"))``. Save the
    plot with ``result.figure.savefig("plot.png")``.
    """

    table: pd.DataFrame
    figure: Figure
    axes: Any
    title: str = ""
    data: pd.DataFrame | None = field(default=None, repr=False)
    reading: str = ""
    """The answer in one plain sentence ("the first player wins 56% [52, 60] of decisive games: a real edge")."""
    about: str = ""
    """What the figures mean and where the method comes from, in a few lines."""
    shown: tuple[str, ...] = ()
    """The columns the table shows (an estimate's ``low``/``high`` beside it join its cell); () shows them all."""
    percent: tuple[str, ...] | None = None
    """The columns that hold rates, shown in per cent; None: the lab's rate columns, by name."""
    labels: dict[str, str] = field(default_factory=dict, repr=False)
    """Words for columns (and index values) the table names otherwise (``{"bought_poet": "bought a poet"}``)."""

    def __post_init__(self) -> None:
        if isinstance(self.shown, str) or not all(isinstance(c, str) for c in self.shown):
            raise GameError(f"LabResult: shown must be a tuple of column names, got {shown(self.shown)}")
        self.shown = tuple(self.shown)
        columns = getattr(self.table, "columns", ())
        missing = [c for c in self.shown if c not in columns]
        if missing:
            raise GameError(f"LabResult: shown names no column {', '.join(map(repr, missing))} "
                            f"(columns: {cut(', '.join(map(str, columns)), 300)})")

    def __iter__(self) -> Iterator[Any]:
        return iter((self.table, self.figure))

    def png(self) -> bytes:
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", dpi=96, bbox_inches="tight", metadata={"Software": None})
        return buf.getvalue()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        from .render import result_html, table_text

        shown_ = [c for c in self.shown if c in self.table.columns]
        text = [self.title, self.reading,
                table_text(self.table, shown_ or None, percent=None if self.percent is None else set(self.percent),
                           labels=self.labels)]
        if shown_ and len(shown_) < len(self.table.columns):
            text.append(f"({len(self.table.columns)} columns in all: result.table)")
        return {"text/plain": "\n".join(t for t in text if t), "text/html": result_html(self)}

    def __repr__(self) -> str:
        return f"<LabResult {self.title!r}: table {self.table.shape[0]}x{self.table.shape[1]}>"


def new_figure(ncols: int = 1, *, width: float = 6.0, height: float = 3.6) -> tuple[Figure, Any]:
    """A figure outside pyplot (nothing shows twice; no global figure list to leak)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width * ncols, height), layout="constrained")
    axes = fig.subplots(1, ncols)
    return fig, axes


def check_axes(ax: Any, ncols: int = 1, where: str = "") -> list[Any] | None:
    """``ax`` as a helper takes it: None (a new figure), a matplotlib Axes, or for a
    helper that draws ``ncols`` plots, ``ncols`` of them (a list, or the array
    ``plt.subplots`` gives); anything else is a GameError. The Axes as a list."""
    if ax is None:
        return None
    from matplotlib.axes import Axes

    want = "a matplotlib Axes" if ncols == 1 else f"{ncols} matplotlib Axes (a list of them)"
    if ncols == 1:
        axes = [ax]
    else:
        try:
            axes = [] if isinstance(ax, (str, bytes, Axes)) else list(ax)
        except TypeError:
            axes = []
    if len(axes) != ncols or not all(isinstance(a, Axes) for a in axes):
        raise GameError(f"{where + ': ' if where else ''}ax must be None (a new figure) or {want}, got {shown(ax)}")
    return axes


def axes_of(ax: Any, ncols: int = 1, **kw: Any) -> tuple[Figure, Any]:
    """Draw into ``ax`` (an Axes, or ``ncols`` of them as a sequence) when the caller gave
    one, else into a new figure."""
    axes = check_axes(ax, ncols)
    if axes is None:
        return new_figure(ncols, **kw)
    if ncols > 1:
        return axes[0].figure, axes
    return axes[0].figure, axes[0]
