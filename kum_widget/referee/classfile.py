"""A class file: the tables a referee serves, in TOML, one ``[[table]]`` each.

.. code-block:: toml

    [[table]]
    name = "table 1"
    game = "kings-under-mountains"     # any installed game, by name
    players = ["Ada", "Bo", "Cy", "Di"]  # or a number of seats
    rules = { hand_size = 6 }          # optional: the game's rule options
    seed = 7                           # optional: a random deal without it
    bots = { 3 = "greedy" }            # optional: seats the referee's bots play (random, greedy, ismcts)

Every table is checked before any is dealt, and an error names the table and the key.
"""

from __future__ import annotations

import secrets
import tomllib
from pathlib import Path
from typing import Any

from ..core.errors import GameError, shown, shown_names
from ..core.registry import game_class, game_names
from ..core.session import new_session
from .table import Table

__all__ = ["read_class", "tables_of"]

KEYS = {"name", "game", "players", "rules", "seed", "bots"}
MAX_TABLES = 64


def read_class(path: str | Path) -> list[Table]:
    """The tables of the class file at ``path``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(f"cannot read the class file {shown(str(path))}: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameError(f"the class file {shown(str(path))} is not TOML: {exc}") from None
    return tables_of(data, where=path.name)


def tables_of(data: Any, *, where: str = "the class") -> list[Table]:
    """The tables ``data`` (a class file's contents) describes, each dealt."""
    if not isinstance(data, dict) or set(data) != {"table"} or not isinstance(data["table"], list):
        raise GameError(f"{where}: a class file is a list of [[table]] entries, got the keys {shown_names(data) if isinstance(data, dict) else shown(data)}")
    entries = data["table"]
    if not 1 <= len(entries) <= MAX_TABLES:
        raise GameError(f"{where}: a class has 1 to {MAX_TABLES} tables, got {len(entries)}")
    tables: list[Table] = []
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise GameError(f"{where}: table {i} is not a table of keys")
        name = entry.get("name", f"table {i}")
        here = f"{where}, {shown(name)}"
        unknown = set(entry) - KEYS
        if unknown:
            raise GameError(f"{here}: no key {shown_names(unknown)} (a table takes {', '.join(sorted(KEYS))})")
        if "game" not in entry:
            raise GameError(f"{here}: name its game (game = \"...\"), one of the installed games: {', '.join(game_names())}")
        if not isinstance(entry["game"], str):
            raise GameError(f"{here}: game is a game's name, got {shown(entry['game'])}")
        rules = entry.get("rules", {})
        if not isinstance(rules, dict):
            raise GameError(f"{here}: rules map rule options to values, got {shown(rules)}")
        seed = entry.get("seed", secrets.randbits(63))
        if type(seed) is not int:
            raise GameError(f"{here}: seed is a whole number, got {shown(seed)}")
        bots = entry.get("bots", {})
        if not isinstance(bots, dict) or not all(isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 3 for k in bots):
            raise GameError(f"{here}: bots map seat numbers to bots' names (bots = {{ 1 = \"greedy\" }}), got {shown(bots)}")
        try:
            game = game_class(entry["game"])().with_options(rules)
            session = new_session(game, entry.get("players"), seed=seed)
            table = Table(name, session, bots={int(k): v for k, v in bots.items()})
        except GameError as exc:
            raise GameError(f"{here}: {exc}") from None
        if any(t.name == table.name for t in tables):
            raise GameError(f"{here}: two tables have this name")
        tables.append(table)
    return tables
