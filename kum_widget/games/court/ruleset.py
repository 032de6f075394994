"""``CourtRules``: every rule option of the court solitaire as a named field (C1-C10).

Immutable; ``rules.with_(price="printed")`` makes a changed copy. The defaults are the
project's reading of the source (COURT.md gives each decision and its reason).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ...core.errors import InvalidOptionError, shown
from .cards import SHIPPED, CardTable, table_for

__all__ = ["CourtRules"]


@dataclass(frozen=True, slots=True, init=False, eq=False)
class CourtRules:
    """The rules of one game of Court of the Three Clans.

    >>> CourtRules().price, CourtRules(price="printed").price
    ('descending', 'printed')
    >>> CourtRules(ranks=(20, 30, 40))
    CourtRules(ranks=(20, 30, 40))
    """

    table: str | CardTable = "standard"
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

    def __init__(
        self,
        *,
        table: str | os.PathLike[str] | CardTable = "standard",
        first_refill: Literal["open", "court"] = "open",
        price: Literal["descending", "printed"] = "descending",
        full_court: Literal["replace", "closed"] = "replace",
        empty_pass_pays: bool = True,
        fights_per_turn: int = 1,
        last_prince_ends: bool = True,
        court_vp: bool = True,
        row_princes_subtract: bool = False,
        ranks: tuple[int, int, int] = (25, 50, 75),
        start_cp: int = 10,
        **unknown: Any,
    ) -> None:
        # Written out so that an unknown option is an InvalidOptionError naming it, like
        # any other bad value, while help() and completion still list every option.
        from .rules import CourtOfTheThreeClans

        if unknown:
            raise InvalidOptionError(f"CourtRules: unknown rule option {shown(sorted(unknown)[0], 44)} (options: {', '.join(f.name for f in dataclasses.fields(CourtRules))})")
        if not (isinstance(ranks, (tuple, list)) and len(ranks) == 3 and all(type(r) is int and -9999 <= r <= 9999 for r in ranks)):
            raise InvalidOptionError(f"CourtRules: ranks are three whole numbers -9999..9999 like (25, 50, 75), got {shown(ranks)}")
        values = dict(table=_table(table, files=True), first_refill=first_refill, price=price, full_court=full_court, empty_pass_pays=empty_pass_pays,
                      fights_per_turn=fights_per_turn, last_prince_ends=last_prince_ends, court_vp=court_vp,
                      row_princes_subtract=row_princes_subtract, ranks=tuple(ranks), start_cp=start_cp)
        for name, value in values.items():
            object.__setattr__(self, name, value)
        CourtOfTheThreeClans(**self.options())  # every other check, with the same messages

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
        from .rules import parse_ranks

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
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise InvalidOptionError(f"CourtRules has no option {shown(unknown[0], 44)}")
        return CourtRules(**{**{f.name: getattr(self, f.name) for f in dataclasses.fields(self)}, **changes})

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
