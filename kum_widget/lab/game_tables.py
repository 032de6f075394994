"""Tables a game adds to the lab: a game's package names functions that give rows (one dict
per row), as entry points of the group ``kum_widget.tables`` in its pyproject.toml
(``deck_table = "my_game.tables:deck_table"``); ``kum.lab.<name>(...)`` calls one with its
arguments and gives its rows as a DataFrame. Kings Under Mountains adds its deck's tables
this way (``kum.lab.deck_table()``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["GROUP", "game_table", "table_names"]

GROUP = "kum_widget.tables"
"""The entry point group a game's package names its lab tables in."""


def _points() -> dict[str, str]:
    from importlib.metadata import entry_points  # only here: it costs import time

    return {point.name: point.value for point in entry_points(group=GROUP)}


def table_names() -> list[str]:
    """The names of the tables the installed games add (``kum.lab.<name>``)."""
    return sorted(_points())


def game_table(name: str) -> Callable[..., pd.DataFrame]:
    """The table ``name`` an installed game adds: a function taking the game's arguments and
    giving its rows as a DataFrame (the columns in the rows' order). A name no game adds
    raises AttributeError."""
    import importlib

    value = _points().get(name)
    if value is None:
        raise AttributeError(f"module 'kum_widget.lab' has no attribute {name!r}")
    module, _, attr = value.partition(":")
    rows_of: Any = importlib.import_module(module.strip())
    for part in filter(None, attr.strip().split(".")):
        rows_of = getattr(rows_of, part)

    @functools.wraps(rows_of)
    def table(*args: Any, **kwargs: Any) -> pd.DataFrame:
        import pandas as pd

        rows = rows_of(*args, **kwargs)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise GameError(f"{name}: the table's function ({value}) must give a list of rows (dicts), got {type(rows).__name__}")
        return pd.DataFrame(rows, columns=list(rows[0]) if rows else None)

    return table
