"""Saving a session: a versioned dict and a readable record, for any game.

A session is its game (name and rule options), its players, its seed and the actions
taken (as text), so both forms replay it exactly:

    [Game "high-low"]
    [Format "kum-widget-session 1"]
    [Player0 "Ada"]
    [Player1 "Bo"]
    [Seed "7"]
    [Options "{\\"cards\\": 5}"]

    1. Ada: guess high
    2. Bo: guess low

An action's text is kept as the game wrote it, placeholders unfilled ("{player} plays
the Priest on {seat1}", GAMES.md "Texts that name seats"): a record then reads back
whatever the players' names hold (a ";" splits a line's actions), and with the names
changed in its tags. A record with the names filled in by hand reads back as well.

Every game writes this one format; what a game needs beyond it goes through three
extension points, each optional:

- ``Options``: the game's rule options (``CardGame.options()``);
- ``Start``: in place of the seed, the start position of a game built by hand (the
  game's ``save_position``; ``load_position`` reads it back);
- ``Setup``: the options a game's own kind of session was dealt with beside the seed
  (its ``setup``; Kings Under Mountains' Kings). A dealt save reads back through the
  session class's ``dealt``: the game's ``new_session(players, seed=..., **setup)``.

A dict also holds ``state``, the position now (``save_position``, for a game that has
it), which is checked when the dict is read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Protocol

from .errors import GameError, GameFault, InvalidSaveError, cut, shown
from .game import CardGame
from .registry import game_class

__all__ = ["FORMAT", "Saved", "action_texts", "session_to_dict", "session_from_dict", "session_record",
           "session_from_record", "split_record"]


class Saved(Protocol):
    """What saving reads of a session, all of it public: a core ``Session`` (whose module
    imports this one, so this one names it only by what it reads)."""

    game: CardGame

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def setup(self) -> dict[str, Any] | None: ...
    @property
    def title(self) -> str: ...
    @property
    def state(self) -> Any: ...
    @property
    def initial_state(self) -> Any: ...
    @property
    def history_ids(self) -> tuple[int, ...]: ...
    @property
    def redo_actions(self) -> tuple[int, ...]: ...
    @property
    def movers(self) -> tuple[int, ...]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def current_player(self) -> int: ...
    def scores(self) -> list[Any]: ...
    def apply(self, action: Any) -> list[Any]: ...
    def undo(self, steps: int = 1) -> int: ...
    def action_id(self, action: Any, *, as_written: bool = False) -> int: ...
    @classmethod
    def from_position(cls, game: CardGame, state: Any, players: Any = None) -> Saved: ...
    @classmethod
    def dealt(cls, game: CardGame, players: Any = None, *, seed: Any, setup: Any = None) -> Saved: ...


FORMAT, VERSION = "kum-widget-session", 1
_TAG = re.compile(r'\[(?P<key>[A-Za-z][A-Za-z0-9]*) "(?P<value>(?:[^"\\]|\\.)*)"\]')
_MOVE = re.compile(r"(?P<turn>\d{1,6})\.\s+(?P<rest>.+)")


def _setup_of(s: Saved) -> dict[str, Any] | None:
    """The options ``s`` was dealt with beside its seed (its ``setup``)."""
    return None if s.seed is None else s.setup


def _position_json(s: Saved, state: Any) -> Any:
    """``state`` as the game saves a position, as it reads back from JSON (None: no hook)."""
    data = s.game.save_position(state)
    if data is None:
        return None
    try:
        return json.loads(json.dumps(data, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as exc:
        raise GameFault(f"{s.title}'s save_position() must give JSON ({type(exc).__name__}: {cut(str(exc))})") from None


def _dealt(cls: type[Saved], rules: CardGame, players: Any, seed: Any, setup: Any) -> Saved:
    """The session a save dealt from ``seed`` (the class's ``dealt``: as the board and the lab deal it)."""
    if players is None:
        raise InvalidSaveError("players: a dealt save names its players, and this one has none")
    try:
        return cls.dealt(rules, players, seed=seed, setup=setup)
    except GameError as exc:
        raise InvalidSaveError(f"{'players or seed' if setup is None else 'players, seed or setup'}: {exc}") from None


def _game_from(name: Any, options: Any, game: CardGame | type[CardGame] | None) -> CardGame:
    if game is not None:
        if not (isinstance(game, CardGame) or (isinstance(game, type) and issubclass(game, CardGame))):
            raise InvalidSaveError(f"game: a CardGame or its class, got {shown(game)}")
        cls = game if isinstance(game, type) else type(game)
        if name != cls.name:
            raise InvalidSaveError(f"game: this save is of {shown(name)}, not {cls.name!r}")
    else:
        if not isinstance(name, str):
            raise InvalidSaveError(f"game: expected a game's name, got {shown(name)}")
        try:
            cls = game_class(name)
        except GameError as exc:
            raise InvalidSaveError(f"game: {exc}") from None
    if not isinstance(options, Mapping):
        raise InvalidSaveError(f"options: expected a mapping of rule options, got {shown(options)}")
    try:
        return cls(**options)
    except GameError as exc:
        raise InvalidSaveError(f"options: {exc}") from None
    except Exception as exc:  # a game whose __init__ takes other arguments, or fails on a value it did not expect
        raise InvalidSaveError(f"options: {cls.__name__}(...) refused them ({type(exc).__name__}: {cut(str(exc))})") from None


def _replay(session: Saved, texts: Any, where: str) -> None:
    if not isinstance(texts, list):
        raise InvalidSaveError(f"{where}: expected a list of action texts")
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise InvalidSaveError(f"{where}[{i}]: expected action text, got {type(text).__name__}")
        try:
            session.apply(session.action_id(text, as_written=True))
        except GameError as exc:
            raise InvalidSaveError(f"{where}[{i}] {text[:60]!r}: {exc}") from None


def action_texts(s: Saved, turns: list[Any] | None = None) -> tuple[list[str], list[str]]:
    """Each action's text in the position it was (or will be) taken in: history, redo list
    (and, into ``turns``, the game's turn number before each action of the history)."""
    game, state, history = s.game, s.initial_state, s.history_ids
    taken = len(history)
    texts = []
    for i, aid in enumerate((*history, *s.redo_actions)):
        texts.append(game.action_text(state, aid))
        if turns is not None and i < taken:
            turns.append(game.turn(state))
        game.apply(state, aid)
    return texts[:taken], texts[taken:]


def session_to_dict(s: Saved) -> dict[str, Any]:
    actions, redo = action_texts(s)
    setup, state = _setup_of(s), _position_json(s, s.state)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": s.game.name,
        "options": s.game.options(),
        "players": list(s.players),
        "seed": s.seed,
        **({"setup": setup} if setup is not None else {}),
        "actions": actions,
        "redo": redo,
        **({"start": _encoded(s)} if s.seed is None else {}),
        **({"state": state} if state is not None else {}),
    }


def _encoded(s: Saved) -> Any:
    """The start position of a session built from one (the game's ``save_position`` hook)."""
    data = s.game.save_position(s.initial_state)
    if data is None:
        raise GameError(f"{s.title} cannot save a game that starts from a position built by hand "
                        "(the game has no save_position() hook)")
    return data


def _from_start(cls: type[Saved], rules: CardGame, players: Any, start: Any) -> Saved:
    try:
        state = rules.load_position(start)
    except GameError as exc:
        raise InvalidSaveError(f"start position: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise InvalidSaveError(f"start position: cannot read it ({type(exc).__name__}: {str(exc)[:80]})") from None
    try:
        return cls.from_position(rules, state, players)
    except GameError as exc:
        raise InvalidSaveError(f"players: {exc}") from None


def session_from_dict(cls: type[Saved], data: Any, game: CardGame | type[CardGame] | None = None) -> Saved:
    if not isinstance(data, Mapping):
        raise InvalidSaveError(f"a saved game is a dict, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise InvalidSaveError(f"format: expected {FORMAT!r}, got {shown(data.get('format'))}")
    if data.get("version") != VERSION:
        raise InvalidSaveError(f"version: this kum_widget reads version {VERSION}, got {shown(data.get('version'))}")
    unknown = set(data) - {"format", "version", "game", "options", "players", "seed", "setup", "actions", "redo", "start", "state"}
    if unknown:
        raise InvalidSaveError(f"unknown field {shown(sorted(map(str, unknown))[0])}")
    rules = _game_from(data.get("game"), data.get("options", {}), game)
    if "start" in data and data.get("seed") is not None:
        raise InvalidSaveError("a saved game has a seed (a dealt game) or a start position (a game built by hand), not both")
    if "start" in data and "setup" in data:
        raise InvalidSaveError("setup: a game built by hand has its start position, not setup options")
    if "start" in data:
        session = _from_start(cls, rules, data.get("players"), data["start"])
    elif data.get("seed") is None:
        raise InvalidSaveError("seed: a saved game replays from the seed that dealt it (or a start position), got None")
    else:
        session = _dealt(cls, rules, data.get("players"), data.get("seed"), data.get("setup"))
    redo = data.get("redo", [])
    actions = data.get("actions")
    if not isinstance(actions, list) or not isinstance(redo, list):
        raise InvalidSaveError("actions and redo: expected lists of action texts")
    _replay(session, actions + redo, "actions")
    session.undo(len(redo))
    if "state" in data and _position_json(session, session.state) != data["state"]:
        raise InvalidSaveError("state: does not match the position the actions lead to (edited by hand?)")
    return session


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def split_record(text: str, error: type[GameError] = InvalidSaveError, tag: re.Pattern[str] = _TAG) -> tuple[dict[str, str], list[tuple[int, str]]]:
    """A record's tags (``[Name "value"]``, unescaped) and its move lines with their line
    numbers; blank lines and ``%`` comments skipped, a leading byte-order mark dropped."""
    text = text.removeprefix("\ufeff")  # as some editors save UTF-8 text
    tags: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("["):
            m = tag.fullmatch(line)
            if m is None:
                raise error(f'line {n}: cannot read tag {line[:60]!r}: expected [Name "value"]')
            if m["key"] in tags:
                raise error(f"line {n}: a second {m['key']} tag (a record has each tag once)")
            tags[m["key"]] = _unescape(m["value"])
        else:
            moves.append((n, line))
    return tags, moves


def session_record(s: Saved) -> str:
    tags = [("Game", s.game.name), ("Format", f"{FORMAT} {VERSION}")]
    tags += [(f"Player{i}", name) for i, name in enumerate(s.players)]
    if s.seed is not None:
        tags.append(("Seed", str(s.seed)))
        setup = _setup_of(s)
        if setup is not None:
            tags.append(("Setup", json.dumps(setup, sort_keys=True)))
    else:
        tags.append(("Start", json.dumps(_encoded(s), sort_keys=True)))
    if s.game.options():
        tags.append(("Options", json.dumps(s.game.options(), sort_keys=True)))
    if s.is_over:
        tags.append(("Result", _result(s)))
    lines = [f'[{k} "{_escape(v)}"]' for k, v in tags] + [""]
    numbers: list[Any] = []
    texts, _ = action_texts(s, numbers)
    # One line per turn: the actions a seat takes in a row (within one of the game's turns).
    turns: list[tuple[tuple[int, Any], list[str]]] = []
    for text, seat, number in zip(texts, s.movers, numbers, strict=True):
        if not turns or turns[-1][0] != (seat, number):
            turns.append(((seat, number), []))
        turns[-1][1].append(text)
    lines += [f"{k}. {s.players[key[0]]}: " + "; ".join(acts) for k, (key, acts) in enumerate(turns, start=1)]
    return "\n".join(lines) + "\n"


def session_from_record(cls: type[Saved], text: Any, game: CardGame | type[CardGame] | None = None) -> Saved:
    if not isinstance(text, str):
        raise InvalidSaveError(f"a record is text, got {type(text).__name__}")
    tags, moves = split_record(text)
    if tags.get("Format") != f"{FORMAT} {VERSION}":
        raise InvalidSaveError(f"tag Format: expected '{FORMAT} {VERSION}', got {shown(tags.get('Format'))}")
    try:
        options = json.loads(tags.get("Options", "{}"), parse_int=_small_int)
    except (ValueError, RecursionError) as exc:
        raise InvalidSaveError(f"tag Options: not valid JSON of rule options ({type(exc).__name__})") from None
    rules = _game_from(tags.get("Game"), options, game)
    players = [tags[f"Player{i}"] for i in range(64) if f"Player{i}" in tags]
    seed_text = tags.get("Seed", "")
    if "Start" in tags and "Seed" in tags:
        raise InvalidSaveError("a record has a Seed (a dealt game) or a Start position (a game built by hand), not both")
    if "Start" in tags and "Setup" in tags:
        raise InvalidSaveError("tag Setup: a game built by hand has its Start position, not setup options")
    if "Start" in tags:
        try:
            start = json.loads(tags["Start"], parse_int=_small_int)
        except (ValueError, RecursionError) as exc:
            raise InvalidSaveError(f"tag Start: not valid JSON of a position ({type(exc).__name__})") from None
        session = _from_start(cls, rules, players, start)
    elif not seed_text.isascii() or not seed_text.isdigit() or len(seed_text) > 20:
        raise InvalidSaveError(f"tag Seed: the seed must be a whole number 0..2**64-1, got {shown(seed_text)}")
    else:
        setup = None
        if "Setup" in tags:
            try:
                setup = json.loads(tags["Setup"], parse_int=_small_int)
            except (ValueError, RecursionError) as exc:
                raise InvalidSaveError(f"tag Setup: not valid JSON of setup options ({type(exc).__name__})") from None
        try:
            session = _dealt(cls, rules, players, int(seed_text), setup)
        except InvalidSaveError as exc:
            raise InvalidSaveError(f"record header: {exc}") from None
    for n, line in moves:
        m = _MOVE.fullmatch(line)
        if m is None:
            raise InvalidSaveError(f"line {n}: cannot read {line[:60]!r}: expected 'N. Name: action; action'")
        if session.is_over:
            raise InvalidSaveError(f"line {n}: the game is already over")
        name = session.players[session.current_player]
        if not m["rest"].startswith(name + ":"):
            raise InvalidSaveError(f"line {n}: expected {name}'s turn ('{m['turn']}. {name}: ...'), got {line[:60]!r}")
        for action in filter(None, (a.strip() for a in m["rest"][len(name) + 1:].split(";"))):
            try:
                session.apply(session.action_id(action, as_written=True))
            except GameError as exc:
                raise InvalidSaveError(f"line {n}: {action[:60]!r}: {exc}") from None
    if "Result" in tags and tags["Result"] != _result(session):
        raise InvalidSaveError(f"tag Result: the record says {shown(tags['Result'])}, its moves give {shown(_result(session) or 'a game not over')}")
    return session


def _result(s: Saved) -> str:
    return ", ".join(f"{n} {v}" for n, v in zip(s.players, s.scores(), strict=True)) if s.is_over else ""


def _small_int(text: str) -> int:
    if len(text) > 20:
        raise ValueError("number too long")
    return int(text)
