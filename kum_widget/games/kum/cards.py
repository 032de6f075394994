"""Cards, races and deck tables.

Every card is double-sided: a creature face (race and value) and a mine face
(defense, size, points and maybe an overseer sign). A :class:`Deck` is the
table of all cards of a game; the ``standard`` table ships as a CSV file.
"""

from __future__ import annotations

import csv
import enum
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, SupportsIndex

from ...core.errors import cut
from ...core.files import read_text_file
from .errors import InvalidCardError, InvalidDeckError, shown

__all__ = ["Race", "MineFace", "Card", "Deck", "RACES", "MAX_VALUE", "match_ids"]

MAX_DECK_FILE = 1_000_000  # bytes: a deck of a few hundred cards is some 10,000
MAX_VALUE = 9  # a 0 may be played on this value (the wrap-around rule)


class Race(enum.Enum):
    """The four races. Each has a King card; ``value`` is the race's name."""

    ORC = "orc"
    DWARF = "dwarf"
    GOBLIN = "goblin"
    GIANT = "giant"

    @property
    def index(self) -> int:
        """Position in :data:`RACES` (orc 0, dwarf 1, goblin 2, giant 3)."""
        return _RACE_INDEX[self]

    @property
    def letter(self) -> str:
        """One-letter code, distinct for every race: O, D, G, T (giants are Titans)."""
        return _LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Race:
        """Parse a race name (``"goblin"``, ``"goblins"``, ``"G"``), case-insensitive.

        >>> Race.parse("Giants")
        Race.GIANT
        """
        if isinstance(text, Race):
            return text
        if not isinstance(text, str):
            raise InvalidCardError(f"a race must be text, not {type(text).__name__}")
        key = text.strip().lower()
        race = _RACE_NAMES.get(key)
        if race is None:
            raise InvalidCardError(
                f"unknown race {shown(text)}: expected one of orc, dwarf, goblin, giant"
            )
        return race

    def __repr__(self) -> str:
        return f"Race.{self.name}"

    def __str__(self) -> str:
        return self.value


RACES: tuple[Race, ...] = (Race.ORC, Race.DWARF, Race.GOBLIN, Race.GIANT)
_RACE_INDEX = {race: i for i, race in enumerate(RACES)}
_LETTERS = {Race.ORC: "O", Race.DWARF: "D", Race.GOBLIN: "G", Race.GIANT: "T"}
_RACE_NAMES: dict[str, Race] = {}
for _race in RACES:
    _RACE_NAMES[_race.value] = _race
    _RACE_NAMES[_race.value + "s"] = _race
    _RACE_NAMES[_LETTERS[_race].lower()] = _race
_RACE_NAMES["dwarves"] = Race.DWARF


@dataclass(frozen=True, slots=True)
class MineFace:
    """The mine side of a card.

    ``defense`` creatures claim it, ``size`` creatures develop it; an overseer
    mine also needs one creature of its owner's own race on top.

    >>> MineFace.parse("d3 s2 p4")
    MineFace.parse('d3 s2 p4')
    """

    defense: int
    size: int
    points: int
    overseer: bool = False

    @classmethod
    def parse(cls, text: str) -> MineFace:
        """Parse ``"d3 s2 p4"`` or ``"d3 s3 p7 ov"`` (the overseer sign)."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a mine face must be text, not {type(text).__name__}")
        m = _FACE_RE.fullmatch(text.strip().lower())
        if m is None:
            raise InvalidCardError(
                f"cannot read mine face {shown(text)}: expected like 'd3 s2 p4' or 'd3 s3 p7 ov'"
            )
        return cls(int(m["d"]), int(m["s"]), int(m["p"]), m["ov"] is not None)

    def __str__(self) -> str:
        return f"d{self.defense} s{self.size} p{self.points}" + (" ov" if self.overseer else "")

    def __repr__(self) -> str:
        return f"MineFace.parse({str(self)!r})"

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # A plain tuple: a slotted dataclass pickles field by field through dataclasses.fields(),
        # ten times slower, wherever a card is pickled or deep-copied.
        if type(self) is not MineFace:  # a subclass: the dataclass's own way, which knows its fields
            return object.__reduce_ex__(self, protocol)  # (not super(): slots=True makes a new class)
        return (MineFace, (self.defense, self.size, self.points, self.overseer))


_FACE_RE = re.compile(r"d(?P<d>[0-9]{1,6})\s+s(?P<s>[0-9]{1,6})\s+p(?P<p>-?[0-9]{1,6})(?:\s+(?P<ov>ov|overseer))?")
_CARD_RE = re.compile(
    r"(?P<race>[a-z]+)\s*(?P<value>[0-9]{1,6})\s*#(?P<id>[0-9]{1,6})\s*\[(?P<face>[^\]]*)\]"
)


@dataclass(frozen=True, slots=True)
class Card:
    """One double-sided card: creature face (race, value) and mine face.

    ``str(card)`` is its full text form and parses back:

    >>> c = Card(34, Race.GOBLIN, 7, MineFace(3, 2, 4))
    >>> str(c)
    'goblin 7 #34 [d3 s2 p4]'
    >>> Card.parse(str(c)) == c
    True
    """

    id: int
    race: Race
    value: int
    mine: MineFace

    @property
    def defense(self) -> int:
        return self.mine.defense

    @property
    def size(self) -> int:
        return self.mine.size

    @property
    def points(self) -> int:
        return self.mine.points

    @property
    def overseer(self) -> bool:
        return self.mine.overseer

    @property
    def creature(self) -> str:
        """The creature face as text, e.g. ``'goblin 7'``."""
        return f"{self.race.value} {self.value}"

    @property
    def label(self) -> str:
        """Creature face and id, the form actions use: ``'goblin 7 #34'``."""
        return f"{self.race.value} {self.value} #{self.id}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the full text form ``'goblin 7 #34 [d3 s2 p4]'``."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a card must be text, not {type(text).__name__}")
        m = _CARD_RE.fullmatch(text.strip().lower())
        if m is None:
            raise InvalidCardError(
                f"cannot read card {shown(text)}: expected like 'goblin 7 #34 [d3 s2 p4]'"
            )
        return cls(int(m["id"]), Race.parse(m["race"]), int(m["value"]), MineFace.parse(m["face"]))

    def __str__(self) -> str:
        return f"{self.label} [{self.mine}]"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        if type(self) is not Card:  # a subclass: the dataclass's own way, which knows its fields
            return object.__reduce_ex__(self, protocol)  # (not super(): slots=True makes a new class)
        return (Card, (self.id, self.race, self.value, self.mine))  # as MineFace's, for speed


_COLUMNS = ("id", "race", "value", "defense", "size", "points", "overseer")
_TRUE = {"yes", "true", "1", "y", "ov", "overseer"}
_FALSE = {"no", "false", "0", "n", ""}


class Deck(Sequence[Card]):
    """An immutable table of every card in a game, indexed by card id.

    Card ids run 0..n-1. The engine reads the flat tuples (``races``,
    ``values``...) on its hot paths; users read :class:`Card` objects.

    >>> deck = Deck.standard()
    >>> len(deck), deck.name
    (80, 'standard')
    """

    __slots__ = (
        "_csv",
        "cards",
        "creature_ids",
        "defenses",
        "face_ids",
        "name",
        "overseers",
        "points",
        "races",
        "sizes",
        "values",
    )

    def __init__(self, cards: Iterable[Card], *, name: str = "custom") -> None:
        cards = tuple(cards)
        for i, card in enumerate(cards):
            if not isinstance(card, Card):
                raise InvalidDeckError(f"row {i + 1}: expected a Card, got {type(card).__name__}")
            if card.id != i:
                raise InvalidDeckError(f"row {i + 1}: card ids must run 0..{len(cards) - 1} in order, got id {card.id}")
            _check_card(card, f"row {i + 1}")
        if len(cards) < 2:
            raise InvalidDeckError(f"a deck needs cards: got {len(cards)}")
        self.name = name
        self._csv: str | None = None  # to_csv_text, once (the table is immutable)
        self.cards = cards
        self.races = tuple(c.race.index for c in cards)
        self.values = tuple(c.value for c in cards)
        self.defenses = tuple(c.mine.defense for c in cards)
        self.sizes = tuple(c.mine.size for c in cards)
        self.points = tuple(c.mine.points for c in cards)
        self.overseers = tuple(c.mine.overseer for c in cards)
        # The ids sharing each face: what a seat that sees one face knows of the card.
        faces: dict[tuple[int, int, int, bool], list[int]] = {}
        creatures: dict[tuple[int, int], list[int]] = {}
        for c in cards:
            faces.setdefault((c.defense, c.size, c.points, c.overseer), []).append(c.id)
            creatures.setdefault((c.race.index, c.value), []).append(c.id)
        self.face_ids = {k: tuple(v) for k, v in faces.items()}
        self.creature_ids = {k: tuple(v) for k, v in creatures.items()}

    @classmethod
    def standard(cls) -> Deck:
        """The shipped 80-card table (see RULES.md, D7, for how it was designed)."""
        global _STANDARD
        if _STANDARD is None:
            text = (Path(__file__).parent / "data" / "standard_deck.csv").read_text(encoding="utf-8")
            _STANDARD = cls.from_csv_text(text, name="standard")
        return _STANDARD

    @classmethod
    def from_csv(cls, path: str | Path, *, name: str | None = None) -> Deck:
        """Load a deck table from a CSV file with columns id (optional), race,
        value, defense, size, points, overseer (yes/no). Bad rows raise
        :class:`InvalidDeckError` naming the row and the field."""
        where, text = read_text_file(path, what="deck", limit=MAX_DECK_FILE, error=InvalidDeckError)
        return cls.from_csv_text(text, name=name or Path(where).stem)

    @classmethod
    def from_csv_text(cls, text: str, *, name: str = "custom") -> Deck:
        """Like :meth:`from_csv`, from the CSV text itself."""
        if not isinstance(text, str):
            raise InvalidDeckError(f"a deck table is CSV text, got {type(text).__name__}")
        if len(text) > MAX_DECK_FILE:  # a saved game's deck option is this text: bounded as a file is
            raise InvalidDeckError(f"deck table: {len(text):,} characters of CSV text, more than the {MAX_DECK_FILE:,} a deck may have")
        if text.startswith("\ufeff"):  # a byte-order mark, as spreadsheets save UTF-8 CSV
            text = text[1:]
        reader = csv.DictReader(io.StringIO(text))
        try:
            return cls._from_rows(reader, name)
        except csv.Error as exc:
            row = max(1, reader.line_num - 1)
            raise InvalidDeckError(f"deck table: row {row}: not valid CSV ({cut(str(exc), 80)})") from None

    @classmethod
    def _from_rows(cls, reader: csv.DictReader[str], name: str) -> Deck:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
        missing = [c for c in _COLUMNS[1:] if c not in header]
        if missing:
            raise InvalidDeckError(f"deck table: missing column(s) {', '.join(missing)} in header {header}")
        reader.fieldnames = header
        cards: list[Card] = []
        for n, row in enumerate(reader, start=1):
            cards.append(_card_from_row(row, n, len(cards)))
        return cls(cards, name=name)

    def to_csv_text(self) -> str:
        """The table as CSV text, readable by :meth:`from_csv_text`."""
        if self._csv is not None:
            return self._csv
        out = io.StringIO()
        out.write(",".join(_COLUMNS) + "\n")
        for c in self.cards:
            out.write(
                f"{c.id},{c.race.value},{c.value},{c.defense},{c.size},{c.points},"
                f"{'yes' if c.overseer else 'no'}\n"
            )
        self._csv = out.getvalue()
        return self._csv

    def find(self, text: str) -> list[Card]:
        """Cards matching a loose reference: ``'#34'``, ``'goblin 7'``, ``'goblin 7 #34'``
        or the full form. Returns every match (two copies share a creature face)."""
        return [self.cards[i] for i in match_ids(self, text)]

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        return self.cards[index]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Deck) and self.cards == other.cards)

    def __hash__(self) -> int:
        return hash(self.cards)

    def __repr__(self) -> str:
        if self.name == "standard" and self == Deck.standard():
            return "Deck.standard()"
        return f"<Deck {self.name!r}: {len(self)} cards>"


_STANDARD: Deck | None = None
_REF_RE = re.compile(r"(?:(?P<race>[a-z]+)\s*(?P<value>[0-9]{1,6}))?\s*(?:#(?P<id>[0-9]{1,6}))?\s*(?:\[(?P<face>[^\]]*)\])?")


def match_ids(deck: Deck, text: str) -> list[int]:
    """The ids of the cards of ``deck`` that a reference names ("goblin 7", "#34", "goblin 7 #34")."""
    if not isinstance(text, str):
        raise InvalidCardError(f"a card reference must be text, not {type(text).__name__}")
    m = _REF_RE.fullmatch(text.strip().lower())
    if m is None or not (m["race"] or m["id"]):
        raise InvalidCardError(
            f"cannot read card {shown(text)}: expected like 'goblin 7', '#34' or 'goblin 7 #34'"
        )
    if m["id"] is not None:
        cid = int(m["id"])
        if cid >= len(deck):
            raise InvalidCardError(f"no card #{cid}: this deck has ids 0..{len(deck) - 1}")
        ids = [cid]
    else:
        ids = list(range(len(deck)))
    if m["race"]:
        race, value = Race.parse(m["race"]).index, int(m["value"])
        ids = [i for i in ids if deck.races[i] == race and deck.values[i] == value]
        if not ids:
            raise InvalidCardError(f"{shown(text.strip())} names no card of this deck")
    if m["face"]:
        face = MineFace.parse(m["face"])
        ids = [i for i in ids if deck.cards[i].mine == face]
        if not ids:
            raise InvalidCardError(f"{shown(text.strip())} names no card of this deck")
    return ids


def _check_card(card: Card, where: str) -> None:
    if not 0 <= card.value <= MAX_VALUE:
        raise InvalidDeckError(f"{where}: field 'value' must be 0..{MAX_VALUE}, got {card.value}")
    if not 1 <= card.defense <= 9:
        raise InvalidDeckError(f"{where}: field 'defense' must be 1..9, got {card.defense}")
    if not 1 <= card.size <= 9:
        raise InvalidDeckError(f"{where}: field 'size' must be 1..9, got {card.size}")


def _card_from_row(row: dict[str | None, str | None], n: int, index: int) -> Card:
    where = f"row {n}"
    if None in row:
        raise InvalidDeckError(f"{where}: more fields than the header has columns")

    def field(name: str) -> str:
        value = row.get(name)
        if value is None or not value.strip():
            if name == "overseer":
                return "no"
            raise InvalidDeckError(f"{where}: field '{name}' is empty")
        return value.strip()

    def number(name: str) -> int:
        text = field(name)
        if not re.fullmatch(r"-?[0-9]{1,6}", text):
            raise InvalidDeckError(f"{where}: field '{name}' must be a whole number, got {text[:20]!r}")
        try:
            return int(text)
        except ValueError:
            raise InvalidDeckError(f"{where}: field '{name}' must be a whole number, got {shown(text)}") from None

    if row.get("id") not in (None, ""):
        cid = number("id")
        if cid != index:
            raise InvalidDeckError(f"{where}: field 'id' must be {index} (ids run 0..n-1 in row order), got {cid}")
    try:
        race = Race.parse(field("race"))
    except InvalidCardError as exc:
        raise InvalidDeckError(f"{where}: field 'race': {exc}") from None
    flag = field("overseer").lower()
    if flag not in _TRUE | _FALSE:
        raise InvalidDeckError(f"{where}: field 'overseer' must be yes or no, got {shown(flag)}")
    card = Card(index, race, number("value"), MineFace(number("defense"), number("size"), number("points"), flag in _TRUE))
    _check_card(card, where)
    return card
