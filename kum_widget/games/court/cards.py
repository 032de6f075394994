"""The card table of Court of the Three Clans (decision C1): one row per card.

A table is CSV with the columns ``id, clan, role, cost, vp, strength``. Court cards
have a clan (sun, moon, earth) and a role (minister, tax collector, general, poet,
courtesan); the Daemon Princes have the clan ``fire`` and the role ``daemon prince``.
The standard table ships in ``data/court_cards.csv``; COURT.md gives every value's reason.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, SupportsIndex

from ...core.errors import InvalidOptionError, shown

__all__ = ["CLANS", "ROLES", "PRINCE", "POWERS", "Card", "CardTable", "table_for"]

CLANS = ("sun", "moon", "earth")
ROLES = ("minister", "tax collector", "general", "poet", "courtesan")
PRINCE = "daemon prince"
FIRE = "fire"
COLUMNS = ("id", "clan", "role", "cost", "vp", "strength")

POWERS = {
    "minister": "When bought, gain 1 CP for each other card in its row of the Royal Court.",
    "tax collector": "Each pass (phase 1B) pays 1 CP more.",
    "general": "Adds its strength to every fight.",
    "poet": "At the end, scores 1 VP for each clan among the cards next to it (left, right, above, below).",
    "courtesan": "At the end, scores 1 VP for each other card of her clan in her row of the Royal Court.",
    PRINCE: "Defeat it for its VP; while one is in the row, the daemons take a court card each turn.",
}

STANDARD = Path(__file__).resolve().parent / "data" / "court_cards.csv"


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
        # ten times slower, and the table goes to ISMCTS's helper at every decision.
        if type(self) is not Card:  # a subclass: the dataclass's own way, which knows its fields
            return object.__reduce_ex__(self, protocol)  # (not super(): slots=True makes a new class)
        return (Card, (self.id, self.clan, self.role, self.cost, self.vp, self.strength))

    def to_json(self) -> dict[str, int | str]:
        return {"id": self.id, "name": self.name, "clan": self.clan, "role": self.role,
                "cost": self.cost, "vp": self.vp, "strength": self.strength}


class CardTable:
    """All the cards of a game, by id (0..n-1)."""

    def __init__(self, cards: list[Card], name: str = "custom") -> None:
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
        if isinstance(card, Card):
            card = card.id
        if type(card) is int:
            if 0 <= card < len(self.cards):
                return card
            raise InvalidOptionError(f"{where}: {card} is not a card (ids 0..{len(self.cards) - 1})")
        if isinstance(card, str) and len(card) < 80:
            key = " ".join(card.lower().split())
            if key.startswith("#") and key[1:].isdigit() and len(key) < 6:
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
        """Load a table from a CSV file; a bad row raises InvalidOptionError naming the row and field."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, TypeError, ValueError) as exc:
            raise InvalidOptionError(f"cannot read card table {shown(str(path))}: {getattr(exc, 'strerror', None) or shown(str(exc))}") from None
        return cls.from_csv_text(text, name=Path(path).stem)

    @classmethod
    def from_csv_text(cls, text: str, name: str = "custom") -> CardTable:
        reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
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
            raise InvalidOptionError(f"card table {name!r}: row {len(cards) + 1}: not valid CSV ({exc})") from None
        return cls(cards, name)


def _card(row: dict[str, str | None], n: int, expected_id: int, table: str) -> Card:
    def field(key: str) -> str:
        value = row.get(key)
        if value is None:
            raise InvalidOptionError(f"card table {table!r}: row {n}, field {key!r}: missing")
        return value.strip().lower()

    def number(key: str) -> int:
        text = field(key)
        if not text.isdigit() or len(text) > 3:
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


_CACHE: dict[tuple[str, float, int], CardTable] = {}


def table_for(option: str) -> CardTable:
    """The table a ``table`` rule option names: ``"standard"``, the path of a CSV file, or
    CSV text (a table given as an object travels in records this way). A file is read
    again when it changes (a table being tuned in a notebook)."""
    if option == "standard":
        path = STANDARD
    elif "\n" in option:
        key = (option, 0.0, 0)
        if key not in _CACHE:
            _remember(key, CardTable.from_csv_text(option))
        return _CACHE[key]
    else:
        path = Path(option)
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime, stat.st_size)
    except (OSError, ValueError):
        return CardTable.from_csv(option)  # says what is wrong with the path
    if key not in _CACHE:
        table = CardTable.from_csv(path)
        if option == "standard":
            table.name = "standard"
        _remember(key, table)
    return _CACHE[key]


def _remember(key: tuple[str, float, int], table: CardTable) -> None:
    if len(_CACHE) > 32:  # tables tried in a notebook: keep the cache small
        _CACHE.clear()
    _CACHE[key] = table
