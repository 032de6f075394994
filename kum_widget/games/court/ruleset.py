"""``CourtRules``: every rule option of the court solitaire as a named field (C1-C10),
declared once: the game (``CourtOfTheThreeClans.options_class``), its constructor, its
records and ``inspect.signature`` all read these fields.

Immutable; ``rules.with_(price="printed")`` makes a changed copy. The defaults are the
project's reading of the source (COURT.md gives each decision and its reason).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ...core.declare import RuleOptions
from ...core.errors import InvalidOptionError, shown
from .cards import SHIPPED, CardTable, table_for

__all__ = ["CourtRules", "parse_ranks"]

_RANK = re.compile(r"-?[0-9]{1,4}")  # ASCII digits: int() takes other digits, and isdigit() "²" that int() refuses


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class CourtRules(RuleOptions):
    """The rules of one game of Court of the Three Clans.

    >>> CourtRules().price, CourtRules(price="printed").price
    ('descending', 'printed')
    >>> CourtRules(ranks=(20, 30, 40))
    CourtRules(ranks=(20, 30, 40))
    """

    table: str | os.PathLike[str] | CardTable = "standard"
    """C1: the card table: "standard" (the shipped table) or a CardTable. Given as CSV text
    or as the path of a CSV file (read once, when the rules are made), it is a CardTable."""
    first_refill: Literal["open", "court"] = "open"
    """C2: after the setup choice the row refills from the whole pile ("open": princes may
    appear) or with court cards only ("court")."""
    price: Literal["descending", "printed"] = "descending"
    """C3: a card's price falls by 1 CP per place it has aged, or is its printed cost."""
    full_court: Literal["replace", "closed"] = "replace"
    """C4: with 8 cards in the court a bought card replaces one ("replace") or nothing can be bought."""
    empty_pass_pays: bool = True
    """C5: a pass that finds no court card in the row to discard still pays its CP."""
    fights_per_turn: int = 1
    """C6: how many Daemon Princes may be fought in one phase 2 (0-4)."""
    last_prince_ends: bool = True
    """C7: the game ends once no prince is left in the draw pile."""
    court_vp: bool = True
    """C8: the printed VP of the Royal Court's cards count at the end."""
    row_princes_subtract: bool = False
    """C9: undefeated princes left in the row subtract their VP too."""
    ranks: tuple[int, int, int] = (25, 50, 75)
    """C10: the scores that reach Troubled Reign, Prosperous Reign and Golden Age."""
    start_cp: int = 10
    """The copper pieces the ruler starts with (the source says 10)."""

    def check(self) -> None:
        """What the fields' types do not say: the ranks, the table, the ranges."""
        ranks = self.ranks
        if not (isinstance(ranks, (tuple, list)) and len(ranks) == 3 and all(type(r) is int and -9999 <= r <= 9999 for r in ranks)):
            raise InvalidOptionError(f"CourtRules: ranks are three whole numbers -9999..9999 like (25, 50, 75), got {shown(ranks)}")
        if not ranks[0] < ranks[1] < ranks[2]:
            raise InvalidOptionError(f"option 'ranks' must rise, got {shown(ranks)}")
        object.__setattr__(self, "ranks", tuple(ranks))
        object.__setattr__(self, "table", _table(self.table, files=True))
        if not 0 <= self.fights_per_turn <= 4:
            raise InvalidOptionError(f"option 'fights_per_turn' must be 0..4, got {shown(self.fights_per_turn)}")
        if not 0 <= self.start_cp <= 100:
            raise InvalidOptionError(f"option 'start_cp' must be 0..100, got {shown(self.start_cp)}")

    def options(self) -> dict[str, Any]:
        """The rule options as the game (and a record) keeps them: JSON-safe. The table is
        the name of a table the package ships (the table itself, ``Court().table``), else its
        CSV text, so that a save replays on the cards it was played with: never a file's path."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["ranks"] = ",".join(map(str, self.ranks))
        table = self.table
        if isinstance(table, CardTable):
            out["table"] = table.name if table.name in SHIPPED and table == table_for(table.name) else table.to_csv()
        return out

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CourtRules:
        """Inverse of :meth:`options` (the options of a saved game: a table is a shipped
        table's name, CSV text or a CardTable, never a file to read)."""
        if not isinstance(options, Mapping):
            raise InvalidOptionError(f"CourtRules.from_options takes a mapping of rule options, got {shown(options)}")
        values = dict(options)
        bad = [k for k in values if not isinstance(k, str)]
        if bad:
            raise InvalidOptionError(f"CourtRules.from_options: an option's name is text, got {shown(bad[0])}")
        if "ranks" in values:
            if not isinstance(values["ranks"], str):
                raise InvalidOptionError(f"option 'ranks' is text like '25,50,75' in saved options, got {shown(values['ranks'])}")
            values["ranks"] = parse_ranks(values["ranks"])
        if "table" in values:
            values["table"] = _table(values["table"], files=False)
        return cls(**values)

    def with_(self, **changes: Any) -> CourtRules:
        return dataclasses.replace(self, **changes)

    def diff(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        mine, base = self.options(), CourtRules().options()
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if mine[f.name] != base[f.name]}

    def __eq__(self, other: object) -> bool:  # the same options: a custom table compares by its cards, however it was given
        return isinstance(other, CourtRules) and other.options() == self.options()

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.options().items())))

    def __repr__(self) -> str:
        return f"CourtRules({', '.join(f'{k}={v!r}' for k, v in self.diff().items())})"


def _table(table: object, *, files: bool) -> str | CardTable:
    """The ``table`` option as CourtRules keeps it: a shipped table's name or a CardTable.
    CSV text is read here; a path (``files``: your own call, not saved options) is read
    once, here, with :meth:`CardTable.from_csv`."""
    if isinstance(table, CardTable) or (isinstance(table, str) and table in SHIPPED):
        return table
    if isinstance(table, str) and "\n" in table:
        return table_for(table)
    if files and isinstance(table, (str, os.PathLike)):
        return CardTable.from_csv(table)
    if files:
        raise InvalidOptionError(f"CourtRules: table is {' or '.join(map(repr, SHIPPED))}, a CardTable, CSV text "
                                 f"or a CSV file's path, got {shown(table)}")
    return table_for(table)  # refuses anything else by name, without a look at the disk


def parse_ranks(text: str) -> tuple[int, int, int]:
    """C10's three thresholds, like ``"25,50,75"``."""
    parts = text.split(",")
    if len(parts) != 3 or not all(_RANK.fullmatch(p.strip()) for p in parts):
        raise InvalidOptionError(f"option 'ranks' is three whole numbers of at most 4 digits like '25,50,75', got {shown(text)}")
    a, b, c = (int(p) for p in parts)
    if not a < b < c:
        raise InvalidOptionError(f"option 'ranks' must rise, got {shown(text)}")
    return a, b, c
