"""Saving games: ``to_dict`` / ``from_dict`` and the text record.

A record reads like a chess PGN: tag pairs, then one numbered line per turn::

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

A game built from a scenario has ``[Layout "..."]`` (its start position as JSON) in
place of the seed; non-default rules appear as ``[Rules "stuck=draw"]`` and a custom
deck as ``[Deck "..."]`` (its cards' text forms).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.records import _escape, split_record
from .cards import RACES, Card, Deck, Race
from .errors import InvalidRecordError, InvalidStateError, KumError, shown
from .rules import apply_id
from .ruleset import Rules
from .scenario import load_layout
from .seats import _kings, _player_names
from .state import setup

if TYPE_CHECKING:
    from .game import Game

__all__ = ["game_to_dict", "game_from_dict", "game_record", "game_from_record", "FORMAT_VERSION"]

FORMAT_VERSION = 1
_TAG_RE = re.compile(r'\[(?P<key>[A-Za-z0-9]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]')
_MOVE_RE = re.compile(r"(?P<turn>[0-9]{1,6})\. (?P<rest>.*)")
_DIGITS = 500  # per int()/str() call: within any limit sys.set_int_max_str_digits allows (640 at least)
_BIG = 10**_DIGITS


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "format": "kum-game",
        "version": FORMAT_VERSION,
        "players": list(game.players),
        "kings": [k.value for k in game.kings],
        "first_player": game.first_player,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "layout": None if game.seed is not None else game._initial.layout(),
        "actions": [game.action_text(a) for a in game._history],
        "redo": [game.action_text(a) for a in reversed(game._future)],
        "state": game._state.layout(),
    }


def _start_state(cls: type[Game], players: Any, kings: Any, rules: Rules, seed: Any, layout: Any, first: Any) -> Any:

    # Shapes first: Game's own checks quote a bad value whole, and a saved game may hold
    # anything (a value nested too deep to print, a number too long to write out).
    if not isinstance(players, (list, tuple)) and type(players) is not int:
        raise InvalidStateError(f"players: expected a list of 2-4 names, got {shown(players)}")
    if type(players) is int and not 2 <= players <= 4:
        raise InvalidStateError(f"players: expected 2-4 players, got {shown(players)}")
    for i, name in enumerate(players if isinstance(players, (list, tuple)) else []):
        if not isinstance(name, str):
            raise InvalidStateError(f"players[{i}]: a name is text, got {shown(name)}")
    names = _player_names(players)
    if kings is None:
        raise InvalidStateError("kings: missing")
    if not isinstance(kings, (list, tuple)) or len(kings) != len(names):
        got = f"{len(kings)}" if isinstance(kings, (list, tuple)) else shown(kings)
        raise InvalidStateError(f"kings: expected one King race per player ({len(names)} races), got {got}")
    king_ids = _kings(kings, len(names))
    if king_ids is None:
        raise InvalidStateError("kings: missing")
    if type(first) is not int or not 0 <= first < len(names):
        raise InvalidStateError(f"first_player: expected a seat 0..{len(names) - 1}, got {shown(first)}")
    if layout is not None:
        return load_layout(rules, names, king_ids, layout, seed=None, first=first, strict=True)
    if type(seed) is not int or not 0 <= seed < 2**64:  # as kum.Game(seed=...) takes them
        raise InvalidStateError(f"seed: expected a whole number 0..2**64-1 (or a layout), got {shown(seed)}")
    return setup(rules, names, seed, [RACES[k] for k in king_ids], first)


def _replay(game: Game, texts: list[Any], where: str) -> None:
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise InvalidStateError(f"{where}[{i}]: expected action text, got {type(text).__name__}")
        try:
            game.apply(text)
        except KumError as exc:
            raise InvalidStateError(f"{where}[{i}] {shown(text)}: {exc}") from None


def game_from_dict(cls: type[Game], data: Mapping[str, Any]) -> Game:
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"a saved game is a dict, got {type(data).__name__}")
    if type(data.get("format")) is not str or data.get("format") != "kum-game":
        raise InvalidStateError(f"format: expected 'kum-game', got {shown(data.get('format'))}")
    if type(data.get("version")) is not int or data.get("version") != FORMAT_VERSION:
        raise InvalidStateError(f"version: this kum_widget reads version {FORMAT_VERSION}, got {shown(data.get('version'))}")
    for key in ("players", "kings", "rules", "actions"):
        if key not in data:
            raise InvalidStateError(f"missing field {key!r}")
    try:
        rules = Rules.from_dict(data["rules"])
    except KumError as exc:
        raise InvalidStateError(f"rules: {exc}") from None
    state = _start_state(cls, data["players"], data["kings"], rules, data.get("seed"), data.get("layout"), data.get("first_player", 0))
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


def game_record(game: Game) -> str:
    tags = [("Game", "Kings Under Mountains"), ("Format", f"kum-record {FORMAT_VERSION}")]
    tags += [(f"Player{i}", name) for i, name in enumerate(game.players)]
    tags += [("Kings", " ".join(k.value for k in game.kings)), ("FirstPlayer", str(game.first_player))]
    rules = {k: v for k, v in game.rules.diff().items() if k != "deck"}
    if rules:
        tags.append(("Rules", " ".join(f"{k}={v}" for k, v in rules.items())))
    if game.rules.deck != Deck.standard():
        tags.append(("Deck", ", ".join(str(c) for c in game.rules.deck)))
    if game.seed is not None:
        tags.append(("Seed", _decimal(game.seed)))
    else:
        tags.append(("Layout", json.dumps(game._initial.layout(), separators=(",", ":"))))
    if game.is_over:
        sc = game.scores()
        won = " and ".join(game.players[w] for w in game.winners())
        verb = "wins" if len(game.winners()) == 1 else "share the win"
        tags.append(("Result", ", ".join(f"{n} {p}" for n, p in zip(game.players, sc, strict=True)) + f"; {won} {verb}"))
    lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
    lines.append("")
    replay = game._initial.clone()
    turn_line: list[str] = []
    turn_seat, turn_no = replay.current, replay.turn
    for aid in game._history:
        if replay.turn != turn_no or replay.current != turn_seat:
            lines.append(f"{turn_no + 1}. {game.players[turn_seat]}: " + "; ".join(turn_line))
            turn_line, turn_seat, turn_no = [], replay.current, replay.turn
        turn_line.append(game.action_text(aid))
        apply_id(replay, aid)
    if turn_line:
        lines.append(f"{turn_no + 1}. {game.players[turn_seat]}: " + "; ".join(turn_line))
    return "\n".join(lines) + "\n"


def game_from_record(cls: type[Game], text: str) -> Game:
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
        state = _start_state(cls, players, [Race.parse(k) for k in kings] if kings else None, rules, seed, layout, first)
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


def _decimal(n: int) -> str:
    """``str(n)`` of a whole number >= 0 of any size (str() refuses a few thousand digits)."""
    if n < _BIG:
        return str(n)
    half = int(n.bit_length() * 0.30103) // 2  # about half its digits
    high, low = divmod(n, 10**half)
    return _decimal(high) + _decimal(low).zfill(half)


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
