"""``LabResult``: a table and its plot, shown together in a notebook."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["LabResult", "axes_of", "check_axes", "new_figure"]


@dataclass
class LabResult:
    """What an analysis helper returns: ``table`` (a DataFrame), ``figure`` and ``axes``
    (matplotlib), and for helpers that simulate, the raw results in ``data``.

    It unpacks as ``table, figure = result`` and, as the last line of a notebook cell,
    shows the title, the table and the plot. Save the plot with
    ``result.figure.savefig("plot.png")``.
    """

    table: pd.DataFrame
    figure: Figure
    axes: Any
    title: str = ""
    data: pd.DataFrame | None = field(default=None, repr=False)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.table, self.figure))

    def png(self) -> bytes:
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", dpi=96, bbox_inches="tight")
        return buf.getvalue()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        img = base64.b64encode(self.png()).decode("ascii")
        return {
            "text/plain": f"{self.title}\n{self.table.to_string()}",
            "text/html": (
                f"<div><b>{html.escape(self.title)}</b>{self.table.to_html(float_format=_fmt)}"
                f'<img src="data:image/png;base64,{img}" alt="{html.escape(self.title)}"/></div>'
            ),
        }

    def __repr__(self) -> str:
        return f"<LabResult {self.title!r}: table {self.table.shape[0]}x{self.table.shape[1]}>"


def _fmt(x: float) -> str:
    return f"{x:.3f}"


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
