"""The card table of Court of the Three Clans (decision C1): one row per card.

A table is CSV with the columns ``id, clan, role, cost, vp, strength``. Court cards
have a clan (sun, moon, earth) and a role (minister, tax collector, general, poet,
courtesan); the Daemon Princes have the clan ``fire`` and the role ``daemon prince``.
The standard table ships in ``data/court_cards.csv``; COURT.md gives every value's reason.

The ``table`` rule option (and so a saved game or record) holds the name of a shipped table
(``"standard"``) or the table's CSV text, at most 1,000,000 characters: never a path, so a
save cannot make the library open a file. Only :meth:`CardTable.from_csv`, called by your
code, reads one (a regular file, at most 1,000,000 bytes).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, SupportsIndex

from ...core.errors import InvalidOptionError, cut, shown
from ...core.files import read_text_file

__all__ = ["CLANS", "ROLES", "PRINCE", "POWERS", "MAX_TABLE_TEXT", "SHIPPED", "Card", "CardTable", "table_for"]

CLANS = ("sun", "moon", "earth")
ROLES = ("minister", "tax collector", "general", "poet", "courtesan")
PRINCE = "daemon prince"
FIRE = "fire"
COLUMNS = ("id", "clan", "role", "cost", "vp", "strength")
MAX_COLUMNS = 64  # the columns a table may have, its own six and others (notes) that are not read

POWERS = {
    "minister": "When bought, gain 1 CP for each other card in its row of the Royal Court.",
    "tax collector": "Each pass (phase 1B) pays 1 CP more.",
    "general": "Adds its strength to every fight.",
    "poet": "At the end, scores 1 VP for each clan among the cards next to it (left, right, above, below).",
    "courtesan": "At the end, scores 1 VP for each other card of her clan in her row of the Royal Court.",
    PRINCE: "Defeat it for its VP; while one is in the row, the daemons take a court card each turn.",
}

DATA = Path(__file__).resolve().parent / "data"
STANDARD = DATA / "court_cards.csv"
SHIPPED = {"standard": "court_cards.csv"}  # the tables the package ships, by the name a rule option gives
MAX_TABLE_TEXT = 1_000_000  # characters of CSV text (bytes of a file): the standard table is under 2,000


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    clan: str
    role: str
    cost: int
    vp: int
    strength: int

    @property
    def prince(self) -> bool:
        return self.role == PRINCE

    @property
    def name(self) -> str:
        return f"Daemon Prince {self.strength}" if self.prince else f"{self.clan.title()} {self.role.title()}"

    @property
    def label(self) -> str:
        """A short text that finds the card in the standard table: ``"sun poet 4"`` (clan,
        role, cost) or ``"daemon prince 7"`` (strength)."""
        return f"daemon prince {self.strength}" if self.prince else f"{self.clan} {self.role} {self.cost}"

    @property
    def power(self) -> str:
        return POWERS[self.role]

    def __str__(self) -> str:
        return self.name

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # A plain tuple: a slotted dataclass pickles field by field through dataclasses.fields(),
        # ten times slower, wherever a card is pickled or deep-copied.
        if type(self) is not Card:  # a subclass: the dataclass's own way, which knows its fields
            return object.__reduce_ex__(self, protocol)  # (not super(): slots=True makes a new class)
        return (Card, (self.id, self.clan, self.role, self.cost, self.vp, self.strength))

    def to_json(self) -> dict[str, int | str]:
        return {"id": self.id, "name": self.name, "clan": self.clan, "role": self.role,
                "cost": self.cost, "vp": self.vp, "strength": self.strength}


class CardTable:
    """All the cards of a game, by id (0..n-1)."""

    def __init__(self, cards: list[Card], name: str = "custom") -> None:
        _check_name(name)
        if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
            raise InvalidOptionError(f"card table {name!r}: the cards are a list of Cards, got {shown(cards)}")
        if len(cards) > 1000:
            raise InvalidOptionError(f"card table {name!r}: {len(cards)} cards, more than the 1000 a table may have (ids 0..999)")
        for index, card in enumerate(cards):
            _check_card(card, index, name)
        self.cards = tuple(cards)
        self.name = name
        self.princes = tuple(c.id for c in cards if c.prince)
        self.court_cards = tuple(c.id for c in cards if not c.prince)
        if len(self.court_cards) < 4:
            raise InvalidOptionError(f"card table {name!r}: needs at least 4 court cards for the first row, has {len(self.court_cards)}")
        if not self.princes:
            raise InvalidOptionError(f"card table {name!r}: needs at least one daemon prince")

    def __getitem__(self, card: int) -> Card:
        if type(card) is int and 0 <= card < len(self.cards):
            return self.cards[card]
        raise InvalidOptionError(f"{shown(card)} is not a card of this table (ids 0..{len(self.cards) - 1})")

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __repr__(self) -> str:
        return f"<CardTable {self.name!r}: {len(self.court_cards)} court cards, {len(self.princes)} Daemon Princes>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardTable) and other.cards == self.cards

    __hash__ = None  # type: ignore[assignment]

    def find(self, card: object, *, where: str = "card") -> int:
        """A card's id from its id, ``"#12"``, or its label (``"sun poet 4"``); a Card is its id."""
        if not isinstance(where, str) or len(where) > 80:
            raise InvalidOptionError(f"where is a short text that names the field, got {shown(where)}")
        if isinstance(card, Card):
            card = card.id
        if type(card) is int:
            if 0 <= card < len(self.cards):
                return card
            raise InvalidOptionError(f"{where}: {shown(card)} is not a card (ids 0..{len(self.cards) - 1})")
        if isinstance(card, str) and len(card) < 80:
            key = " ".join(card.lower().split())
            if key.startswith("#") and key[1:].isascii() and key[1:].isdigit() and len(key) < 6:
                return self.find(int(key[1:]), where=where)
            hits = [c.id for c in self.cards if c.label == key]
            if len(hits) == 1:
                return hits[0]
            if hits:
                raise InvalidOptionError(f"{where}: {card!r} names {len(hits)} cards of this table: use '#id' ({', '.join(f'#{h}' for h in hits)})")
        raise InvalidOptionError(f"{where}: {shown(card)} is not a card: give an id, '#12' or a label like 'sun poet 4' or 'daemon prince 7'")

    def to_csv(self) -> str:
        """The table as CSV text (``from_csv_text`` reads it back)."""
        lines = [",".join(COLUMNS)] + [f"{c.id},{c.clan},{c.role},{c.cost},{c.vp},{c.strength}" for c in self.cards]
        return "\n".join(lines) + "\n"

    def to_json(self) -> list[dict[str, int | str]]:
        return [c.to_json() for c in self.cards]

    def __len__(self) -> int:
        return len(self.cards)

    @classmethod
    def from_csv(cls, path: str | os.PathLike[str]) -> CardTable:
        """Load a table from a CSV file: your code's own call, the only one that reads a file
        (a saved game carries its table as CSV text). The file must be a regular file of at
        most 1,000,000 bytes of UTF-8; a bad row raises InvalidOptionError naming the row and field."""
        where, text = read_text_file(path, what="card table", limit=MAX_TABLE_TEXT, error=InvalidOptionError)
        return cls.from_csv_text(text, name=Path(where).stem[:40] or "custom")

    @classmethod
    def from_csv_text(cls, text: str, name: str = "custom") -> CardTable:
        """A table from its CSV text (at most 1,000,000 characters), as :meth:`to_csv` writes it."""
        _check_name(name)
        if not isinstance(text, str):
            raise InvalidOptionError(f"card table {name!r}: a table is CSV text, got {shown(text)}")
        if len(text) > MAX_TABLE_TEXT:
            raise InvalidOptionError(f"card table {name!r}: {len(text):,} characters of CSV text, more than the "
                                     f"{MAX_TABLE_TEXT:,} characters a table may have")
        reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
        try:
            header = [h.strip().lower() for h in (reader.fieldnames or [])]
        except csv.Error as exc:
            raise InvalidOptionError(f"card table {name!r}: the header line is not valid CSV ({cut(str(exc), 80)})") from None
        if len(header) > MAX_COLUMNS:  # every row is padded out to the header's width: refuse before reading them
            raise InvalidOptionError(f"card table {name!r}: the header line has {len(header):,} fields; a table has the "
                                     f"columns {', '.join(COLUMNS)} and at most {MAX_COLUMNS} in all")
        missing = [c for c in COLUMNS if c not in header]
        if missing:
            raise InvalidOptionError(f"card table {name!r}: missing column(s) {', '.join(missing)} in the header line "
                                     f"(it needs {', '.join(COLUMNS)}; it has {len(header)} field(s))")
        reader.fieldnames = header
        cards: list[Card] = []
        try:
            for n, row in enumerate(reader, start=1):
                cards.append(_card(row, n, len(cards), name))
        except csv.Error as exc:
            raise InvalidOptionError(f"card table {name!r}: row {len(cards) + 1}: not valid CSV ({cut(str(exc), 80)})") from None
        return cls(cards, name)


def _check_name(name: object) -> None:
    if not isinstance(name, str) or len(name) > 40:
        raise InvalidOptionError(f"a card table's name is text of at most 40 characters, got {shown(name)}")


def _check_card(card: object, index: int, table: str) -> None:
    """A Card built by hand, checked as a CSV row is (ids count up from 0, the values 0..999)."""
    if not isinstance(card, Card):
        raise InvalidOptionError(f"card table {table!r}: card {index} is not a Card, got {shown(card)}")
    numbers = {"id": card.id, "cost": card.cost, "vp": card.vp, "strength": card.strength}
    for key, value in numbers.items():
        if type(value) is not int or not 0 <= value <= 999:
            raise InvalidOptionError(f"card table {table!r}: card {index}: {key} is a whole number 0..999, got {shown(value)}")
    if card.id != index:
        raise InvalidOptionError(f"card table {table!r}: card {index} has the id {card.id} (ids count up from 0)")
    if card.role == PRINCE:
        kind_ok = card.clan == FIRE and card.strength >= 1
    else:
        kind_ok = card.role in ROLES and card.clan in CLANS and (card.strength >= 1) == (card.role == "general")
    if not kind_ok:
        raise InvalidOptionError(f"card table {table!r}: card {index} ({shown(card.clan, 30)}, {shown(card.role, 30)}, strength "
                                 f"{card.strength}) is neither a court card of a clan nor a daemon prince of the fire clan")


def _card(row: dict[str, str | None], n: int, expected_id: int, table: str) -> Card:
    def field(key: str) -> str:
        value = row.get(key)
        if value is None:
            raise InvalidOptionError(f"card table {table!r}: row {n}, field {key!r}: missing")
        return value.strip().lower()

    def number(key: str) -> int:
        text = field(key)
        if not (text.isascii() and text.isdigit()) or len(text) > 3:  # int() takes digits isdigit() does not, and "²" that it refuses
            raise InvalidOptionError(f"card table {table!r}: row {n}, field {key!r}: expected a whole number 0..999, got {shown(text)}")
        return int(text)

    card_id = number("id")
    if card_id != expected_id:
        raise InvalidOptionError(f"card table {table!r}: row {n}, field 'id': expected {expected_id} (ids count up from 0), got {card_id}")
    role = field("role")
    clan = field("clan")
    if role == PRINCE:
        if clan != FIRE:
            raise InvalidOptionError(f"card table {table!r}: row {n}, field 'clan': a daemon prince is of the fire clan, got {shown(clan)}")
    elif role not in ROLES:
        raise InvalidOptionError(f"card table {table!r}: row {n}, field 'role': expected one of {', '.join((*ROLES, PRINCE))}, got {shown(role)}")
    elif clan not in CLANS:
        raise InvalidOptionError(f"card table {table!r}: row {n}, field 'clan': expected one of {', '.join(CLANS)}, got {shown(clan)}")
    strength = number("strength")
    if role in (PRINCE, "general") and strength < 1:
        raise InvalidOptionError(f"card table {table!r}: row {n}, field 'strength': a {role} needs a strength of at least 1")
    if role not in (PRINCE, "general") and strength:
        raise InvalidOptionError(f"card table {table!r}: row {n}, field 'strength': only generals and daemon princes have a strength")
    return Card(card_id, clan, role, number("cost"), number("vp"), strength)


_SHIPPED: dict[str, CardTable] = {}
_CACHE: dict[str, CardTable] = {}


def table_for(option: object) -> CardTable:
    """The table a ``table`` rule option names: a shipped table by its name (``"standard"``)
    or the table's CSV text (a table given as an object travels in saved games this way).
    Never a file: the option comes from saved games and records, and those must not make
    the library open one (your code reads a file with :meth:`CardTable.from_csv`)."""
    if not isinstance(option, str):
        raise InvalidOptionError(f"option 'table' is the name of a shipped table ({', '.join(map(repr, SHIPPED))}) "
                                 f"or a table's CSV text, got {shown(option)}")
    if option in SHIPPED:
        if option not in _SHIPPED:
            text = (DATA / SHIPPED[option]).read_text(encoding="utf-8")  # the package's own file, not a name from a save
            _SHIPPED[option] = CardTable.from_csv_text(text, name=option)
        return _SHIPPED[option]
    if "\n" not in option:  # a table has a header line and rows: this names something else, a file perhaps
        raise InvalidOptionError(f"option 'table': {shown(option)} is neither a shipped table ({', '.join(map(repr, SHIPPED))}) "
                                 "nor a table's CSV text; a saved game carries its table and never names a file "
                                 "(your code reads one with CardTable.from_csv(path))")
    table = _CACHE.get(option)
    if table is None:
        table = CardTable.from_csv_text(option)
        if len(_CACHE) >= 16:  # tables tried in a notebook: keep the cache small
            _CACHE.clear()
        _CACHE[option] = table
    return table
