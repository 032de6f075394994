"""Kings Under Mountains' own save formats, as it wrote them before its saves became the
core's (``kum-session 1``, see ``records``): read here, forever, never written again.

``kum.Game.from_record`` and ``kum.Game.from_dict`` hand a save of the old formats to this
module (``is_old_record`` / ``is_old_dict`` tell them apart); the game it gives is the
same ``kum.Game`` a new save would, and saves again in the core's format.

The old record (``[Format "kum-record 1"]``) reads like a chess PGN::

    [Game "Kings Under Mountains"]
    [Format "kum-record 1"]
    [Player0 "Ada"]
    [Player1 "Bo"]
    [Kings "orc goblin"]
    [FirstPlayer "0"]
    [Seed "42"]
    [Result "Ada 9, Bo -2; Ada wins"]

    1. Ada: play goblin 7 #34 on mine 2; draw deck
    2. Bo: play orc 0 #1 on mine 2; draw camp goblin

A game built from a scenario has ``[Layout "..."]`` (its start position as JSON) in place
of the seed; rules other than the defaults are ``[Rules "stuck=draw"]`` and a custom deck
``[Deck "..."]`` (its cards' text forms). The old dict (``"format": "kum-game"``, version 1)
holds ``players``, ``kings``, ``first_player``, ``rules`` (``Rules.to_dict``), ``seed`` or
``layout``, ``actions``, ``redo`` and ``state`` (the position the actions lead to, checked).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.records import split_record
from .cards import Card, Deck, Race
from .errors import InvalidRecordError, InvalidStateError, KumError, shown
from .records import start_state
from .ruleset import Rules

if TYPE_CHECKING:
    from .game import Game

__all__ = ["is_old_dict", "is_old_record", "read_dict", "read_record"]

VERSION = 1
_TAG_RE = re.compile(r'\[(?P<key>[A-Za-z0-9]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]')
_MOVE_RE = re.compile(r"(?P<turn>[0-9]{1,6})\. (?P<rest>.*)")
_FORMAT_RE = re.compile(r'^\s*\[Format\s+"kum-record\b', re.MULTILINE)
_DIGITS = 500  # per int() call: within any limit sys.set_int_max_str_digits allows (640 at least)


def is_old_record(text: Any) -> bool:
    """Whether ``text`` is a record in the old format (its Format tag says ``kum-record``)."""
    return isinstance(text, str) and _FORMAT_RE.search(text) is not None


def is_old_dict(data: Any) -> bool:
    """Whether ``data`` is a saved game in the old format (``"format": "kum-game"``)."""
    return isinstance(data, Mapping) and type(data.get("format")) is str and data.get("format") == "kum-game"


def _replay(game: Game, texts: list[Any], where: str) -> None:
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise InvalidStateError(f"{where}[{i}]: expected action text, got {type(text).__name__}")
        try:
            game.apply(text)
        except KumError as exc:
            raise InvalidStateError(f"{where}[{i}] {shown(text)}: {exc}") from None


def read_dict(cls: type[Game], data: Mapping[str, Any]) -> Game:
    """The game an old saved dict holds (InvalidStateError names a bad field)."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"a saved game is a dict, got {type(data).__name__}")
    if type(data.get("format")) is not str or data.get("format") != "kum-game":
        raise InvalidStateError(f"format: expected 'kum-game', got {shown(data.get('format'))}")
    if type(data.get("version")) is not int or data.get("version") != VERSION:
        raise InvalidStateError(f"version: this kum_widget reads version {VERSION}, got {shown(data.get('version'))}")
    for key in ("players", "kings", "rules", "actions"):
        if key not in data:
            raise InvalidStateError(f"missing field {key!r}")
    try:
        rules = Rules.from_dict(data["rules"])
    except KumError as exc:
        raise InvalidStateError(f"rules: {exc}") from None
    state = start_state(data["players"], data["kings"], rules, data.get("seed"), data.get("layout"), data.get("first_player", 0))
    game = cls.__new__(cls)
    game._start(state, data.get("layout"))
    for key in ("actions", "redo"):
        if not isinstance(data.get(key, []), list):
            raise InvalidStateError(f"{key}: expected a list of action texts")
    redo = data.get("redo", [])
    _replay(game, list(data["actions"]) + list(redo), "actions")
    game.undo(len(redo))
    if "state" in data and data["state"] != game._state.layout():
        raise InvalidStateError("state: does not match the position the actions lead to (edited by hand?)")
    return game


def read_record(cls: type[Game], text: str) -> Game:
    """The game an old record holds (InvalidRecordError names the line or tag)."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"a record is text, got {type(text).__name__}")
    tags, moves = split_record(text, InvalidRecordError, _TAG_RE)
    layout = _layout_from_tag(tags["Layout"]) if "Layout" in tags else None
    try:
        players = [tags[f"Player{i}"] for i in range(4) if f"Player{i}" in tags]
        kings = tags.get("Kings", "").split()
        rules = _rules_from_tags(tags)
        first = _number(tags.get("FirstPlayer", "0"))
        seed = _number(tags["Seed"]) if "Seed" in tags else None
        state = start_state(players, [Race.parse(k) for k in kings] if kings else None, rules, seed, layout, first)
    except KumError as exc:
        raise InvalidRecordError(f"record header: {exc}") from None
    game = cls.__new__(cls)
    game._start(state, layout)
    for n, line in moves:
        m = _MOVE_RE.fullmatch(line)
        if m is None:
            raise InvalidRecordError(f"line {n}: cannot read {line[:60]!r}: expected 'N. Name: action; action'")
        name = game.players[game.current_player]
        if game.is_over:
            raise InvalidRecordError(f"line {n}: the game is already over")
        if not m["rest"].startswith(name + ":"):
            raise InvalidRecordError(f"line {n}: expected {name}'s turn ('{m['turn']}. {name}: ...'), got {line[:60]!r}")
        for action in filter(None, (a.strip() for a in m["rest"][len(name) + 1:].split(";"))):
            try:
                game.apply(action)
            except KumError as exc:
                raise InvalidRecordError(f"line {n}: {exc}") from None
    return game


def _layout_from_tag(text: str) -> Any:
    # json.loads raises RecursionError on deep nesting and a bare ValueError on a number
    # past Python's int-conversion limit (its JSONDecodeError is a ValueError too).
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(f"tag Layout: not valid JSON ({exc.msg})") from None
    except (ValueError, RecursionError):
        raise InvalidRecordError("tag Layout: not a layout (nested too deep, or a number too long)") from None


def _number(text: str) -> int | str:
    """A tag's whole number (ASCII digits only, any number of them: a seed can be any
    size); other text is left for validation to refuse."""
    if not re.fullmatch(r"[0-9]+", text):
        return text
    return _whole(text)


def _whole(digits: str) -> int:
    if len(digits) <= _DIGITS:
        return int(digits)
    half = len(digits) // 2  # int() refuses more than a few thousand digits: halve, then join
    scale: int = 10**half
    return _whole(digits[:-half]) * scale + _whole(digits[-half:])


def _rules_from_tags(tags: Mapping[str, str]) -> Rules:
    options: dict[str, Any] = {}
    for item in tags.get("Rules", "").split():
        key, sep, value = item.partition("=")
        if not sep:
            raise InvalidRecordError(f"tag Rules: expected name=value, got {shown(item)}")
        options[key] = _number(value)
    if "Deck" in tags:
        try:
            options["deck"] = Deck([Card.parse(c) for c in tags["Deck"].split(", ")])
        except KumError as exc:
            raise InvalidRecordError(f"tag Deck: {exc}") from None
    return Rules.from_dict(options)
