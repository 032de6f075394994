"""A class's games handed in, read for the lab: ``kum.lab.load(folder_or_files)``.

>>> import tempfile
>>> from pathlib import Path
>>> import kum_widget as kum
>>> from kum_widget.core import Session
>>> folder = Path(tempfile.mkdtemp())
>>> for seed in (1, 2):
...     game = Session(kum.lab.play.the_game("bust"), ["Ada", "Bo"], seed=seed)
...     while not game.is_over: _ = game.apply(game.legal_actions()[-1])
...     _ = (folder / f"game-{seed}.kum.txt").write_text(game.record())
>>> _ = (folder / "notes.md").write_text("who played where")
>>> hand = kum.lab.load(folder)
>>> len(hand), hand.files, hand.skipped
(2, ('game-1.kum.txt', 'game-2.kum.txt'), ('notes.md',))
>>> import shutil; shutil.rmtree(folder)

It reads what a game leaves behind, in any mix: records (``game.record()``, ``.kum.txt``: the
board's "Save for the lab" writes one), saved games (``game.to_dict()`` as JSON, ``.json``)
and replays (``kum.save_replay``, the board's "Save replay", ``.html``). A record, a saved
game and a full-table replay hold the whole game: each is played again here, move by move,
and measured as a bot's game is. A replay drawn for one seat (or the public) holds only what
that seat saw, so it is read as its outcome alone (who played, the scores and winners, who
moved first, its length: :class:`Outcome`), and the report names what it cannot compute
from outcomes instead of computing it wrongly. The same game handed in twice (its record
and its replay, or the replays of each of its seats: the same public course) counts once.

Every file must be a finished game of one game under one set of rules (the first file's,
or ``game=``) with one number of players; anything else is refused, naming the file, before
a result is made. :class:`HandIn`, the result, goes to ``kum.lab.report(..., pooled=...)``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, cut, shown
from ..core.files import read_text_file
from ..core.game import CardGame
from ..core.records import FORMAT, split_record
from ..core.registry import game_class
from ..core.results import RESULT_FORMAT, RESULT_VERSION, public_result
from ..core.session import Session
from .play import FIRST_COLUMN, bot_label, changed_options, finished_row, the_game, title_of
from .trace import trace_session

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["HandIn", "MAX_FILES", "MAX_FILE_BYTES", "Outcome", "load"]

MAX_FILE_BYTES = 32 * 2**20
"""The largest file :func:`load` reads (a replay of a long game is a few hundred kilobytes)."""

MAX_FILES = 5000
"""The most files :func:`load` reads in one call."""

KINDS = {".txt": "record", ".json": "saved game", ".html": "replay", ".htm": "replay"}
"""The files :func:`load` reads, by their ending; a folder's other files are skipped."""

_REPLAY_MARK = '<meta name="generator" content="kum_widget replay">'
_RESULT = re.compile(r'<script type="application/x-kum-result">([^<]*)</script>')  # (board.replay.RESULT_TYPE)
_RECORD_MARK = re.compile(r'^\s*\[Format "' + re.escape(FORMAT) + " ", re.M)
_HEX = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Outcome:
    """A finished game known by its outcome alone (from a replay drawn for one seat, or for
    the public): the players, each seat's final score, the winning seats, the seat that moved
    first, the actions and turns it took, whom the replay was drawn for (``seen_by``: "seat 1",
    "the public"), its ``file`` and ``fingerprint`` (a digest of its public course: how the
    replays of one game are known as one)."""

    file: str
    players: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    first: int
    actions: int
    turns: int
    seen_by: str
    fingerprint: str


@dataclass(frozen=True, repr=False)
class HandIn:
    """Finished games of one game under one set of rules, with one number of players, as
    :func:`load` read them: ``game`` (the rules), ``sessions`` (the games read whole: played
    again, so every measure can be taken), ``outcomes`` (the games known by their outcome
    alone: :class:`Outcome`), the ``files`` read (in order), the ``skipped`` files of a folder
    (not a record, a saved game or a replay), and ``same``: each file that repeats a game
    another file holds, with that file (``(file, other)``: counted once).
    ``kum.lab.report(game, pooled=hand_in)`` sets them beside the bots' games."""

    game: CardGame
    sessions: tuple[Session, ...]
    outcomes: tuple[Outcome, ...] = ()
    files: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    same: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.game, CardGame):
            raise GameError(f"HandIn: game must be a CardGame (the rules of every game here), got {shown(self.game)}")
        if not isinstance(self.sessions, tuple) or not all(isinstance(s, Session) for s in self.sessions):
            raise GameError(f"HandIn: sessions must be a tuple of finished games (sessions), got {shown(self.sessions)}")
        if not isinstance(self.outcomes, tuple) or not all(isinstance(o, Outcome) for o in self.outcomes):
            raise GameError(f"HandIn: outcomes must be a tuple of Outcome, got {shown(self.outcomes)}")
        if not self.sessions and not self.outcomes:
            raise GameError("HandIn: no game: give finished sessions (or what kum.lab.load read)")
        for i, s in enumerate(self.sessions):
            if type(s.game) is not type(self.game) or s.game.options() != self.game.options():
                raise GameError(f"HandIn: game {i} is not a game of {title_of(self.game)} under these rules")
            if not s.is_over:
                raise GameError(f"HandIn: game {i} has not ended ({s.move_number} actions played)")
        seats = {s.num_players for s in self.sessions} | {len(o.players) for o in self.outcomes}
        if len(seats) > 1:
            raise GameError(f"HandIn: the games must have one number of players, got {sorted(seats)}")

    def __len__(self) -> int:
        return len(self.sessions) + len(self.outcomes)

    @property
    def players(self) -> int:
        """The number of seats of every game here."""
        return self.sessions[0].num_players if self.sessions else len(self.outcomes[0].players)

    def describe(self) -> str:
        """The games and files in one line (the report's settings say it)."""
        rules = ", ".join(f"{k}={v}" for k, v in changed_options(self.game).items()) or "standard rules"
        kinds = f"{len(self.sessions)} whole"
        if self.outcomes:
            kinds += f", {len(self.outcomes)} by outcome only (a seat's replay)"
        text = f"{_many(len(self), 'game')} of {title_of(self.game)} ({rules}), {_many(self.players, 'player')}: {kinds}"
        if self.files:
            text += f"; {_many(len(self.files), 'file')} read"
        if self.same:
            text += f" ({len(self.same)} repeating a game another file holds, counted once)"
        if self.skipped:
            text += f"; {_many(len(self.skipped), 'other file')} skipped"
        return text

    def __repr__(self) -> str:
        return f"<HandIn: {self.describe()}>"

    def results(self, *, label: str = "class") -> pd.DataFrame:
        """Every game, whole or by outcome, as one row of the lab's own columns (a results
        table as ``kum.simulate`` gives one: ``players``, ``actions``, ``n_winners``,
        ``winners``, ``bot_s`` (``label``), ``score_s``, ``win_s``), with who moved first
        (``first_player``), the turns (``trace_turns``) and ``whole`` (the game read whole)."""
        import pandas as pd

        label = _label(label)
        n = self.players
        rows = []
        for i, s in enumerate(self.sessions):
            summary = s.game.summary(s.state, s.logs)
            first = summary.get(FIRST_COLUMN, s.movers[0] if s.movers else 0)
            result = public_result(s)
            rows.append(_row(i, s.seed, n, s.move_number, s.winners(), s.scores(), int(first), result["turns"], label, True))
        for k, o in enumerate(self.outcomes, start=len(self.sessions)):
            rows.append(_row(k, None, n, o.actions, list(o.winners), list(o.scores), o.first, o.turns, label, False))
        df = pd.DataFrame(rows)
        df["seed"] = pd.Series([r["seed"] for r in rows], dtype=object)  # (None for an outcome: no seed is known)
        df.attrs.update(players=n, bots=(bot_label(label),), source=label, games=len(df), game=self.game.name,
                        unfinished=(), files=self.files)
        return df

    def traced(self, *, evaluator: Any = "auto", label: str = "class") -> pd.DataFrame:
        """The games read whole, each played again from its first position and measured as
        ``kum.lab.traced`` measures a bot's game (its ``trace_...`` columns; every seat's
        "bot" is ``label``). Games known by their outcome alone have no course to measure:
        with none read whole, this is refused."""
        import pandas as pd

        label = _label(label)
        if not self.sessions:
            raise GameError("hand-in: no game here was read whole (only outcomes, from seats' replays): "
                            "there is no course of a game to measure")
        rows = []
        for i, s in enumerate(self.sessions):
            row = finished_row(s, i, (label,) * s.num_players)
            row.update(trace_session(s, evaluator=evaluator, where="hand-in"))
            rows.append(row)
        df = pd.DataFrame(rows)
        df.attrs.update(players=self.players, bots=(bot_label(label),), source=label, games=len(df), game=self.game.name,
                        unfinished=())
        return df


def _many(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _label(label: Any) -> str:
    if not isinstance(label, str) or not label.strip():
        raise GameError(f"hand-in: label must be a non-empty text, got {shown(label)}")
    return label


def _row(i: int, seed: Any, n: int, actions: int, winners: Sequence[int], scores: Sequence[Any], first: int, turns: int,
         label: str, whole: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"game": i, "seed": seed, "players": n, "actions": actions, "n_winners": len(winners),
                           "winners": tuple(winners)}
    for seat in range(n):
        row[f"bot_{seat}"] = label
    for seat in range(n):
        row[f"score_{seat}"] = scores[seat]
    for seat in range(n):
        row[f"win_{seat}"] = seat in winners
    row.update({FIRST_COLUMN: first, "trace_turns": turns, "whole": whole})
    return row


# -- reading ----------------------------------------------------------------------------------


def load(folder_or_files: Any, *, game: Any = None) -> HandIn:
    """The finished games in ``folder_or_files``: a folder (every record, saved game and replay
    in it, by name; its other files are skipped and named in ``skipped``), one file, or a list
    of files. ``game`` (a name, a CardGame or its class) is the game and rules every file must
    hold; by default the first file's. A folder's files of another game or other rules than
    ``game`` are skipped (a referee's ``games/`` holds every table's); without ``game``, and
    for a file named in the call, a file of another game, of other rules, with another
    number of players, of a game not over, or that cannot be read is refused with a GameError
    naming it, and nothing is returned. See the module for what each kind of file gives."""
    expected = None if game is None else the_game(game, "load")
    whose = "game="
    paths, skipped = _listed(folder_or_files)
    sessions: list[tuple[str, Session]] = []
    outcomes: list[Outcome] = []
    read: list[str] = []
    others: list[str] = []  # a folder's files of other games or rules than game=
    for path, name, given in paths:
        try:
            found = _read(path, name, given, expected, whose)
        except OtherGame as other:
            if given or game is None:  # a folder of several games: load(folder, game=...) picks one
                hint = "" if given else " (a folder of several games: load(folder, game=...) reads one game's and skips the others)"
                raise GameError(f"{other}{hint}") from None
            skipped.append(name)  # a folder's file of another game than the one asked for
            others.append(name)
            continue
        if found is None:  # a folder's file that is none of the kinds: skipped, as named
            skipped.append(name)
            continue
        rules, players, item = found
        if expected is None:
            expected, whose = rules, f"the first file's, {name}"
        seats = len(sessions[0][1].players) if sessions else len(outcomes[0].players) if outcomes else players
        if players != seats:
            raise GameError(f"load: {name}: a game of {players} players, the others' of {seats}: a report pools games of "
                            "one number of players (load each number apart)")
        if isinstance(item, Session):
            sessions.append((name, item))
        else:
            outcomes.append(item)
        read.append(name)
    skipped.sort()  # (the folder's order: the files sniffed and skipped among the others)
    if expected is not None and not read and others:
        raise GameError(f"load: no game of {title_of(expected)} under these rules in {_named(folder_or_files)} "
                        f"({len(others)} files of other games or rules skipped: {_few(others)})")
    if expected is None or not read:
        raise GameError(f"load: no record, saved game or replay in {_named(folder_or_files)}"
                        + (f" ({len(skipped)} other files skipped: {_few(skipped)})" if skipped else ""))
    whole, same = _once(sessions, outcomes)
    return HandIn(expected, tuple(s for _, s in whole[0]), tuple(whole[1]), tuple(read), tuple(skipped), tuple(same))


def _named(source: Any) -> str:
    return cut(str(os.fspath(source)), 160) if isinstance(source, (str, os.PathLike)) else "the files given"


def _few(names: Sequence[str]) -> str:
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _listed(source: Any) -> tuple[list[tuple[Path, str, bool]], list[str]]:
    """The files to read, each (path, its name in messages, given by name?), and a folder's
    other entries (skipped, by name)."""
    if isinstance(source, (str, os.PathLike)):
        try:
            path = Path(os.fspath(source))
            is_dir, is_file = path.is_dir(), path.is_file()
        except (TypeError, ValueError, OSError) as exc:
            raise GameError(f"load: cannot read {shown(source)}: {cut(str(exc), 120)}") from None
        if is_file:
            return [(path, cut(str(path), 160), True)], []
        if not is_dir:
            raise GameError(f"load: there is no file or folder {cut(str(path), 160)}")
        try:
            entries = sorted(path.iterdir(), key=lambda p: p.name)
        except OSError as exc:
            raise GameError(f"load: cannot list the folder {cut(str(path), 160)}: {exc.strerror or exc}") from None
        files, skipped = [], []
        for entry in entries:
            try:
                usable = entry.is_file() and not entry.name.startswith(".") and _suffix(entry) in KINDS
            except OSError:
                usable = False
            if usable:
                files.append((entry, entry.name, False))
            else:
                skipped.append(entry.name)
        _not_too_many(len(files))
        return files, skipped
    if isinstance(source, (bytes, dict)) or not isinstance(source, Sequence) or not source:
        raise GameError(f"load: give a folder, a file, or a list of files (paths), got {shown(source)}")
    _not_too_many(len(source))
    out = []
    for item in source:
        if not isinstance(item, (str, os.PathLike)):
            raise GameError(f"load: each file is a path (text or pathlib.Path), got {shown(item)}")
        try:
            path = Path(os.fspath(item))
            is_file = path.is_file()
        except (TypeError, ValueError, OSError):  # a path of bytes, a NUL in it, a name too long
            raise GameError(f"load: each file is a path (text or pathlib.Path), got {shown(item)}") from None
        if not is_file:
            raise GameError(f"load: {cut(str(path), 160)} is not a file (give a folder alone, or a list of files)")
        out.append((path, cut(str(path), 160), True))
    return out, []


def _not_too_many(count: int) -> None:
    if count > MAX_FILES:
        raise GameError(f"load: {count} files to read, more than the {MAX_FILES} one call reads: load them in parts")


def _suffix(path: Path) -> str:
    return path.suffix.lower()


def _read(path: Path, name: str, given: bool, expected: CardGame | None, whose: str) \
        -> tuple[CardGame, int, Session | Outcome] | None:
    """One file read: (its game's rules, its number of players, its game), or None for a
    folder's file that is none of the kinds :func:`load` reads."""
    kind = KINDS.get(_suffix(path))
    if kind is None:
        raise GameError(f"load: {name}: not a record (.kum.txt), a saved game (.json) or a replay (.html)")
    try:
        _, text = read_text_file(path, what=kind, limit=MAX_FILE_BYTES)
    except GameError as exc:
        raise GameError(f"load: {name}: {exc}") from None
    if kind == "record":
        if not _RECORD_MARK.search(text):
            _skip(given, name, f'not a game record (it has no [Format "{FORMAT} 1"] tag)')
            return None
        return _whole(name, _session(name, text, expected, whose, "record"), expected, whose)
    if kind == "saved game":
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            _skip(given, name, "not a saved game (not JSON)")
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            _skip(given, name, f"not a saved game (no \"format\": \"{FORMAT}\")")
            return None
        return _whole(name, _session(name, data, expected, whose, "saved game"), expected, whose)
    if _REPLAY_MARK not in text:
        _skip(given, name, "not a replay saved by kum_widget")
        return None
    found = _RESULT.findall(text)
    if len(found) != 1:
        raise GameError(f"load: {name}: a replay without the game's result in it (saved by an older kum_widget): "
                        "hand in the game's record instead (the board's \"Save for the lab\")")
    try:
        result = json.loads(found[0])
    except (ValueError, RecursionError):
        raise GameError(f"load: {name}: the replay's result is not readable JSON (edited by hand?)") from None
    return _from_replay(name, result, expected, whose)


def _skip(given: bool, name: str, why: str) -> None:
    """A folder's file that is none of the kinds is skipped; a file named by the caller: refused."""
    if given:
        raise GameError(f"load: {name}: {why}")


def _session(name: str, source: str | dict[str, Any], expected: CardGame | None, whose: str, kind: str) -> Session:
    """A record (text) or a saved game (dict), played again; of another game: refused by name."""
    said = source.get("game") if isinstance(source, dict) else _tags(source).get("Game")
    if expected is not None and said != expected.name:
        raise _another(name, said, expected, whose)
    cls = type(expected) if expected is not None else None
    try:
        return Session.from_record(source, game=cls) if isinstance(source, str) else Session.from_dict(source, game=cls)
    except GameError as exc:
        unknown = " (a game that is not installed: pass game=)" if expected is None and "game:" in str(exc) else ""
        raise GameError(f"load: {name}: cannot read this {kind}{unknown}: {cut(str(exc), 300)}") from None


class OtherGame(GameError):
    """A file of another game, or of other rules, than the hand-in's."""


def _another(name: str, said: Any, expected: CardGame, whose: str) -> GameError:
    return OtherGame(f"load: {name}: a game of {shown(said)}, not of {title_of(expected)} ({expected.name!r}, {whose})")


def _tags(text: str) -> dict[str, str]:
    """A record's tags, or none when it cannot be read (the record's own reading says why)."""
    try:
        return split_record(text)[0]
    except GameError:
        return {}


def _whole(name: str, s: Session, expected: CardGame | None, whose: str) -> tuple[CardGame, int, Session]:
    """A game read whole, checked: of the game and rules expected, and over."""
    if expected is not None:
        if type(s.game) is not type(expected):  # (a subclass may change any rule: the same name is not the same game)
            raise OtherGame(f"load: {name}: a game of {type(s.game).__name__}, not of {type(expected).__name__} ({whose})")
        _same_rules(name, s.game.options(), expected, whose)
    if not s.is_over:
        raise GameError(f"load: {name}: the game has not ended ({s.move_number} actions played): hand in finished games")
    return s.game, s.num_players, s


def _same_rules(name: str, theirs: dict[str, Any], expected: CardGame, whose: str) -> None:
    ours = expected.options()
    if theirs != ours:
        diff = [k for k in sorted(set(theirs) | set(ours)) if theirs.get(k) != ours.get(k)]
        told = ", ".join(f"{k}={shown(theirs.get(k), 40)} ({whose}: {shown(ours.get(k), 40)})" for k in diff[:4])
        raise OtherGame(f"load: {name}: played under other rules: {told}")


def _from_replay(name: str, r: Any, expected: CardGame | None, whose: str) -> tuple[CardGame, int, Session | Outcome]:
    """A replay's result: the whole game for the full table, else its outcome, checked field by field."""
    def bad(why: str) -> GameError:
        return GameError(f"load: {name}: the replay's result {why} (edited by hand?)")

    if not isinstance(r, dict) or r.get("format") != RESULT_FORMAT or r.get("version") != RESULT_VERSION:
        raise bad(f"is not a {RESULT_FORMAT} {RESULT_VERSION}")
    said, options, players = r.get("game"), r.get("options"), r.get("players")
    if not isinstance(said, str) or not isinstance(options, dict):
        raise bad("names no game and rules")
    if expected is not None and said != expected.name:
        raise _another(name, said, expected, whose)
    if r.get("over") is not True:
        raise GameError(f"load: {name}: the game had not ended when this replay was saved: hand in finished games")
    if r.get("seen_by") == "full":
        record = r.get("record")
        if not isinstance(record, str):
            raise bad("of the full table holds no record")
        return _whole(name, _session(name, record, expected, whose, "replay's record"), expected, whose)
    if not isinstance(players, list) or not 1 <= len(players) <= 64 or not all(isinstance(p, str) for p in players):
        raise bad("names no players")
    n = len(players)
    seen = r.get("seen_by")
    if seen != "public" and (type(seen) is not int or not 0 <= seen < n):
        raise bad(f"says it was drawn for {shown(seen)}")
    scores = r.get("scores")
    if not isinstance(scores, list) or len(scores) != n or not all(
            type(v) in (int, float) and math.isfinite(v) for v in scores):
        raise bad(f"holds no final score for each of its {n} players")
    winners = r.get("winners")
    if not isinstance(winners, list) or len(set(map(repr, winners))) != len(winners) or not all(
            type(w) is int and 0 <= w < n for w in winners):
        raise bad("names no winning seats")
    first: Any = r.get("first")
    actions: Any = r.get("actions")
    turns: Any = r.get("turns")
    if any(type(v) is not int or v < 0 for v in (first, actions, turns)) or first >= n:
        raise bad("holds no first seat, actions and turns")
    if not isinstance(r.get("fingerprint"), str) or not _HEX.fullmatch(r["fingerprint"]):
        raise bad("has no fingerprint")
    rules = _rules_of(name, said, options, expected, whose)
    outcome = Outcome(name, tuple(players), tuple(scores), tuple(winners), first, actions, turns,
                      "the public" if seen == "public" else f"seat {seen} ({players[seen]})", r["fingerprint"])
    return rules, n, outcome


def _rules_of(name: str, said: str, options: dict[str, Any], expected: CardGame | None, whose: str) -> CardGame:
    """The game a replay's result names under its rules, checked against the expected."""
    if expected is None:
        try:
            cls: type[CardGame] = game_class(said)
        except (GameError, ValueError) as exc:
            raise GameError(f"load: {name}: a game that is not installed ({cut(str(exc), 120)}): pass game=") from None
    else:
        cls = type(expected)
    try:
        rules = cls(**options)
    except Exception as exc:  # the game's own words, whatever it raises on options it does not take
        raise GameError(f"load: {name}: {getattr(cls, 'title', None) or cls.name} refuses the replay's rules "
                        f"({type(exc).__name__}: {cut(str(exc), 120)})") from None
    if expected is not None:
        _same_rules(name, rules.options(), expected, whose)
    return rules


def _once(sessions: list[tuple[str, Session]], outcomes: list[Outcome]) \
        -> tuple[tuple[list[tuple[str, Session]], list[Outcome]], list[tuple[str, str]]]:
    """Each game once: the same record read twice (a record and its full-table replay), or
    outcomes of a game read whole or already read (the same public course and scores)."""
    same: list[tuple[str, str]] = []
    by_record: dict[str, str] = {}
    by_print: dict[str, str] = {}
    kept: list[tuple[str, Session]] = []
    for name, s in sessions:
        record = s.record()
        if record in by_record:
            same.append((name, by_record[record]))
            continue
        by_record[record] = name
        by_print.setdefault(public_result(s)["fingerprint"], name)
        kept.append((name, s))
    known: list[Outcome] = []
    for o in outcomes:
        if o.fingerprint in by_print:
            same.append((o.file, by_print[o.fingerprint]))
            continue
        by_print[o.fingerprint] = o.file
        known.append(o)
    return (kept, known), same
