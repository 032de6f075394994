"""``Session``: one game being played, for any :class:`~kum_widget.core.CardGame`.

Every game gets the same session: players' names, a seeded start, the history with
undo and redo (a snapshot every ``CHECKPOINT_EVERY`` actions, so undo costs the same
early and late), the seat that took each action, the events of each action, a state
id that grows at every change, listeners (the board), refusal with a reason before
any change, and records. Every public method checks its input first, so a refused
call leaves the session exactly as it was.

>>> from kum_widget.core.examples import Bust
>>> s = Session(Bust(), ["Ada", "Bo"], seed=1)
>>> s.current_player, s.legal_actions()
(0, [Action(2, 'play 3'), Action(4, 'play 5'), Action(8, 'play 9'), Action(100, 'draw')])
>>> s.apply("play 3")
[Note(text='{player} played a 3: the pile is at 3.', seat=0, others='')]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from . import records
from .actions import Action
from .errors import GameError, GameFault, IllegalMoveError, InvalidOptionError, cut, shown
from .events import Note, read_named, render
from .frame import LOG_LINES, Frame, check_viewer, frame_of
from .game import CardGame, GameType, action_kinds, game_type
from .scores import finite_scores

__all__ = ["Session", "CHECKPOINT_EVERY", "check_names", "new_session"]

CHECKPOINT_EVERY = 32  # undo replays at most this many actions from a snapshot (a snapshot costs a clone)
S = TypeVar("S", bound="Session")


def check_names(players: Any, game: CardGame) -> tuple[str, ...]:
    """Seat names from a count or a list; each 1-40 printable characters, all different."""
    lo, hi = game_type(game).players  # (the game's declarations, checked)
    span = str(lo) if lo == hi else f"{lo}..{hi}"
    if type(players) is int:
        game.check_players(players)
        return ("You",) if players == 1 else tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidOptionError(f"players must be {span} or a list of {span} names, got {shown(players)}")
    names = tuple(players)
    game.check_players(len(names))
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip() or len(name) > 40 or not name.isprintable() or name != name.strip():
            raise InvalidOptionError(
                f"players[{i}]: a name is 1-40 printable characters, no line breaks, no spaces at either end; got {shown(name)}"
            )
    if len(set(names)) != len(names):
        raise InvalidOptionError(f"players: names must differ, got {list(names)}")
    return names


def new_session(game: CardGame, players: Any = None, *, seed: int | None = None, **setup: Any) -> Session:
    """A new game of ``game``: the game's own kind of session when its
    :meth:`~kum_widget.core.CardGame.new_session` gives one (Kings Under Mountains gives a
    ``kum.Game`` and takes ``races``), else a :class:`Session`."""
    if not isinstance(game, CardGame):
        raise InvalidOptionError(f"game must be a CardGame (the rules), got {type(game).__name__}")
    session = game.new_session(players, seed=seed, **setup)  # (it refuses setup options it does not take)
    if session is None:
        return Session(game, players, seed=seed)
    if not isinstance(session, Session):
        raise InvalidOptionError(f"{type(game).__name__}.new_session() must return a core Session, got {type(session).__name__}")
    return session


class Session:
    """``Session(game, players, seed=None)``: a game of ``game`` between ``players`` (a
    count or a list of names), dealt from ``seed`` (None: a random one).

    A game's own kind of session (Kings Under Mountains' ``kum.Game``) subclasses it to add
    reads and moves in the game's words, built on the public methods, and deals with
    options of its own through ``start`` and ``setup``: ``start`` is the position it dealt
    from ``seed``, ``setup`` the options it dealt it with (a dict of JSON values), which
    records keep so as to deal it again through the game's ``new_session(players,
    seed=..., **setup)``."""

    def __init__(self, game: CardGame, players: int | Sequence[str] | None = None, *, seed: int | None = None,
                 start: Any = None, setup: Mapping[str, Any] | None = None) -> None:
        if not isinstance(game, CardGame):
            raise InvalidOptionError(f"game must be a CardGame (the rules), got {type(game).__name__}")
        names = check_names(game.min_players if players is None else players, game)
        if seed is None:
            import secrets  # only here: it costs import time

            seed = secrets.randbelow(2**31)
        if type(seed) is not int or not 0 <= seed < 2**64:
            raise InvalidOptionError(f"seed must be a whole number 0..2**64-1, got {shown(seed)}")
        if setup is not None and (start is None or not isinstance(setup, Mapping) or not all(isinstance(k, str) for k in setup)):
            raise InvalidOptionError(f"setup is the options a start position was dealt with (a dict, with start), got {shown(setup)}")
        self._play(game)
        self._names = names
        self._seed: int | None = seed
        self._setup = None if setup is None else dict(setup)
        self._start(game.setup(len(names), random.Random(seed)) if start is None else start)

    @classmethod
    def from_position(cls: type[S], game: CardGame, state: Any, players: int | Sequence[str] | None = None) -> S:
        """A session that starts from ``state`` (a position built by hand, say by the
        game's scenario constructor) instead of a deal: no seed; its records keep the
        position (the game's ``save_position`` hook) so they replay it."""
        if not isinstance(game, CardGame):
            raise InvalidOptionError(f"game must be a CardGame (the rules), got {type(game).__name__}")
        session = cls.__new__(cls)
        session._play(game)
        session._names = check_names(game.min_players if players is None else players, game)
        session._seed, session._setup = None, None
        session._start(game.clone(state))
        return session

    @classmethod
    def dealt(cls: type[S], game: CardGame, players: Any = None, *, seed: Any, setup: Any = None) -> S:
        """A session of this class dealt from ``seed``: ``cls(game, players, seed=seed)``;
        with ``setup`` (the options a game's own kind of session was dealt with, its
        :attr:`setup`), the game's ``new_session(players, seed=seed, **setup)``. Records read
        a dealt save through it; a subclass whose constructor takes other arguments
        overrides it (``kum.Court``)."""
        if setup is None:
            try:
                return cls(game, players, seed=seed)
            except TypeError:  # a subclass that deals with options of its own: a save of it has them
                raise InvalidOptionError(f"setup: a {cls.__name__} is dealt with setup options, and this save has none") from None
        if not isinstance(setup, Mapping) or not all(isinstance(k, str) for k in setup):
            raise InvalidOptionError(f"setup: expected a mapping of option names to values, got {shown(setup)}")
        try:
            session = game.new_session(players, seed=seed, **setup)
        except TypeError:  # a game's new_session that takes no setup options
            session = None
        if session is None:
            raise InvalidOptionError(f"setup: {game.title or game.name} is dealt with no setup options, got {shown(sorted(setup))}")
        if not isinstance(session, cls):
            raise InvalidOptionError(f"setup: {game.title or game.name} deals a {type(session).__name__}, not a {cls.__name__}")
        return session

    def _start(self, state: Any) -> None:
        self._state = state
        self._initial = self.game.clone(state)
        self._history: list[int] = []
        self._movers: list[int] = []  # the seat that took each action of the history
        self._logs: list[list[Any]] = []
        self._future: list[int] = []  # undone actions, the next to redo last
        self._future_movers: list[int] = []
        self._checkpoints: list[Any] = [self._initial]  # after 0, K, 2K... actions; never mutated
        self._listeners: list[Callable[[Any], None]] = []
        self._state_id = getattr(self, "_state_id", -1) + 1
        self._last_click: tuple[int, dict[str, Any]] | None = None  # (state id, where the last action went)

    def _play(self, game: CardGame) -> None:
        """Become a session of ``game``: what it can do (its GameType, read once per class)
        and the rules methods every move calls, each looked up here once, not per move."""
        kind = game_type(game)
        self.game = game
        self._type: GameType = kind
        self._game_is_over: Callable[[Any], Any] = game.is_over
        self._game_legal: Callable[[Any], Sequence[int]] = game.legal_actions
        self._game_actions: Callable[[Any], Any] | None = game.actions if kind.has("actions") else None
        self._game_is_legal: Callable[[Any, int], Any] = game.is_legal
        self._game_mover: Callable[[Any], int] = game.current_player
        self._game_apply: Callable[[Any, int], Any] = game.apply

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in _BOUND:  # read again after unpickling (a GameType holds read-only mappings)
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._play(self.game)

    # -- reading -----------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self._names

    @property
    def num_players(self) -> int:
        return len(self._names)

    @property
    def seed(self) -> int | None:
        """The seed that dealt this game (None for one built from a position)."""
        return self._seed

    @property
    def setup(self) -> dict[str, Any] | None:
        """The options this session was dealt with beside its players and seed (a game's
        own kind of session: Kings Under Mountains' Kings); None when it has none."""
        return None if self._setup is None else dict(self._setup)

    @property
    def state(self) -> Any:
        """A copy of the position (the game's own object), for reading and searching."""
        return self.game.clone(self._state)

    @property
    def initial_state(self) -> Any:
        """A copy of the position the session started from (the deal, or the position built by hand)."""
        return self.game.clone(self._initial)

    @property
    def current_player(self) -> int:
        return self._game_mover(self._state)

    @property
    def to_act(self) -> list[int]:
        """The seats choosing in this step (several in a simultaneous step: those before
        ``current_player`` have chosen); ``[current_player]`` in a game of turns."""
        if not self.game.simultaneous:
            return [self.current_player]
        return [int(p) for p in self.game.to_act(self._state)]

    @property
    def is_over(self) -> bool:
        return bool(self._game_is_over(self._state))

    @property
    def state_id(self) -> int:
        """Grows by one at every change (apply, undo, redo, load): a stale id means a stale view."""
        return self._state_id

    def scores(self) -> list[Any]:
        """The game's score per seat (final once over): finite numbers, else a GameFault
        naming the game's ``scores()`` and the seat (the lab, the record and the board read
        them here)."""
        return finite_scores(self.game, self.game.scores(self._state))

    def winners(self) -> list[int]:
        return list(self.game.winners(self._state))

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: the full table), JSON-safe."""
        return self.game.view(self._state, None if seat is None else self._seat(seat))

    def summary(self) -> dict[str, Any]:
        """The lab's columns for this game (scores included)."""
        out = {f"score_{p}": v for p, v in enumerate(self.scores())}
        out.update(self.game.summary(self._state, self._logs))
        return out

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied since the start, oldest first: each an :class:`Action` (its
        id) with the text it read as when it was taken."""
        return tuple(self._taken())

    @property
    def history_ids(self) -> tuple[int, ...]:
        """The ids of :attr:`history`, oldest first (cheaply: no texts)."""
        return tuple(self._history)

    @property
    def move_number(self) -> int:
        """How many actions have been applied since the start (``len(history)``, cheaply)."""
        return len(self._history)

    @property
    def last_action(self) -> Action | None:
        """The last action applied (None at the start)."""
        return self.history[-1] if self._history else None

    @property
    def movers(self) -> tuple[int, ...]:
        """The seat that took each action of :attr:`history`."""
        return tuple(self._movers)

    @property
    def redo_movers(self) -> tuple[int, ...]:
        """The seat that takes each undone action, next to redo first."""
        return tuple(reversed(self._future_movers))

    @property
    def redo_count(self) -> int:
        return len(self._future)

    @property
    def redo_actions(self) -> tuple[int, ...]:
        """The ids of the undone actions, next to redo first."""
        return tuple(reversed(self._future))

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._future)

    @property
    def logs(self) -> tuple[tuple[Any, ...], ...]:
        """The events of each action since the start: ``logs[i]`` is what ``history[i]`` caused."""
        return tuple(tuple(events) for events in self._logs)

    def recent_logs(self, count: int) -> list[list[Any]]:
        """The events of the last ``count`` actions (cheap: the board reads it every move)."""
        if type(count) is not int:
            raise self._type.option_error(f"recent_logs: count must be a whole number, got {shown(count)}")
        return [list(events) for events in self._logs[-count:]] if count > 0 else []

    def describe(self, event: Any, viewer: int | None = None, *, spectator: bool = False) -> str | None:
        """``event`` as a sentence for ``viewer`` (None: the full table); ``spectator=True``
        says only what is public. None when the event is hidden from that viewer."""
        if viewer is not None:
            viewer = self._seat(viewer)
        who = -1 if spectator else viewer
        if isinstance(event, Note) and event.to is not None:
            problem = event.to_problem(self.num_players)
            if problem:
                raise GameFault(f"{event.name_for(who)}: {problem}")
        try:
            text = self.game.describe(self._state, event, who)
        except RecursionError:  # str() of a deeply nested value
            raise InvalidOptionError(f"cannot describe {type(event).__name__} event: it is nested too deeply") from None
        except ValueError as exc:  # str() of an int past Python's 4300 digits; a game's own ValueError stays its bug
            if "integer string conversion" not in str(exc):
                raise
            raise InvalidOptionError(f"cannot describe {type(event).__name__} event: a number too long to write") from None
        if text is None:
            return None
        if not isinstance(text, str):
            raise GameFault(f"{self._title()}'s describe() must give text or None, got {shown(text)}")
        # Only the text this viewer reads is rendered, so no error can quote another's; and a
        # line not every seat reads is named by what the others read, never quoted.
        seat = getattr(event, "seat", None)
        try:
            return render(text, self._names, seat)
        except GameFault:
            if who == -1 or self._public_line(event) == text:
                raise
        called = event.name_for(-1) if isinstance(event, Note) else f"a {type(event).__name__} event"
        return render(text, self._names, seat, called=f"a private line of the log ({called}; its words are not shown)")

    def _public_line(self, event: Any) -> Any:
        """What a spectator reads of ``event`` (None when that fails too: the line is then private)."""
        try:
            return self.game.describe(self._state, event, -1)
        except Exception:  # (a game's bug: told by the fault being raised)
            return None

    def named(self, text: str, seat: int | None = None) -> str:
        """A game's text (an action's, a click's ``label`` or ``choice``) with the players'
        names: ``{seat0}``, ``{seat1}``... name those seats, ``{player}`` names ``seat``
        (default: the seat to act); ``{{`` and ``}}`` are braces. A placeholder naming no
        seat is a :class:`GameFault` (see GAMES.md, "Texts that name seats")."""
        if not isinstance(text, str):
            raise InvalidOptionError(f"named takes a game's text, got {shown(text)}")
        return render(text, self._names, self._acting() if seat is None else self._seat(seat))

    def _acting(self) -> int | None:
        """The seat to act, for ``{player}`` in an action's text (None once nobody is)."""
        try:
            seat = self.game.current_player(self._state)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):  # "any value once the game is over"
            return None
        return seat if type(seat) is int and 0 <= seat < len(self._names) else None

    # -- actions -----------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a stable order: each an
        :class:`Action`, its id with its text (``Action(2, 'play 3')``)."""
        made = self._game_actions
        if made is not None:  # the game's own Actions, made once (Kings Under Mountains': per deck)
            out = made(self._state)
            return out if type(out) is list else list(out)  # (a new list each call: GAMES.md)
        return [self._public_action(a) for a in self._game_legal(self._state)]

    def legal_action_ids(self) -> list[int]:
        return list(self._game_legal(self._state))

    def heuristic_scores(self, ids: Sequence[int] | None = None) -> list[float] | None:
        """The game's heuristic score of each legal action id in ``ids`` (default: every
        legal action, in ``legal_action_ids()`` order) for the player to act; None when the
        game has no heuristic. Only for a game whose heuristic reads nothing that player
        cannot see (``fair_heuristic``): a greedy bot is handed these scores, not the position."""
        if not self.game.fair_heuristic:
            raise GameError(f"{self._title()} does not declare fair_heuristic: its heuristic may read hidden cards")
        legal = self.game.legal_actions(self._state)
        if ids is None:
            ids = list(legal)
        elif not isinstance(ids, (list, tuple)) or any(not _is_id(a) for a in ids) or not set(ids) <= set(legal):
            bad = ids if not isinstance(ids, (list, tuple)) else next((a for a in ids if not _is_id(a) or a not in legal), ids)
            raise IllegalMoveError(f"heuristic_scores takes legal action ids of the player to act, got {shown(bad)}")
        return self.game.heuristic(self._state, [int(a) for a in ids])

    def action_kinds(self, ids: Sequence[int] | None = None) -> list[str]:
        """The kind of each legal action id in ``ids`` (default: every legal action, in
        ``legal_action_ids()`` order), as the game declares them (``CardGame.action_kind``)
        or read from their texts: what the lab's restricted play and "what wins" count."""
        legal = self.game.legal_actions(self._state)
        if ids is None:
            ids = legal
        elif not isinstance(ids, (list, tuple)) or any(not _is_id(a) or a not in legal for a in ids):
            raise IllegalMoveError(f"action_kinds takes legal action ids of the player to act, got {shown(ids)}")
        return action_kinds(self.game, self._state, [int(a) for a in ids])

    def action_text(self, action: Any) -> str:
        """The text of an action (an :class:`Action` or id, text to normalise, or the game's action object),
        with the players' names in place of its placeholders (``{player}``: the seat to act)."""
        return self._text(self._resolve(action))

    def _text(self, aid: int) -> str:
        text = self._raw_text(aid)
        return text if "{" not in text and "}" not in text else render(text, self._names, self._acting())

    def _raw_text(self, aid: int) -> str:
        """The game's own text of an action, placeholders unfilled (records keep it)."""
        try:
            return str(self.game.action_text(self._state, aid))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            raise self._type.illegal_error(f"{shown(aid)} is not an action of {self._title()}") from None

    def _shown_text(self, aid: int) -> str:
        """An action's text for an error message: named if it can be, else as the game wrote it."""
        try:
            return self._text(aid)
        except GameFault:
            return self._raw_text(aid)

    def action(self, action_id: int) -> Action:
        """The legal action whose id is ``action_id``, as :meth:`legal_actions` holds it
        (a bot's chosen id handed back as the session hands actions out).

        >>> from kum_widget.core.examples import Bust
        >>> s = Session(Bust(), ["Ada", "Bo"], seed=1)
        >>> s.action(100)
        Action(100, 'draw')
        >>> s.action(3)
        Traceback (most recent call last):
        ...
        kum_widget.core.errors.IllegalMoveError: play 4 (action 3): not a legal action now
        """
        if type(action_id) is not int:
            raise InvalidOptionError(f"an action id is a whole number, got {shown(action_id)}")
        if not self._is_legal(action_id):
            raise self._refused(action_id)
        return self._public_action(action_id)

    def action_id(self, action: Any, *, as_written: bool = False) -> int:
        """The id of an action (its text, the game's own object, or an id: checked to be one
        the game can name). ``as_written``: text as the game wrote it, placeholders unfilled
        (as records keep it), read so first when a player's name looks like a placeholder."""
        if as_written and isinstance(action, str) and any("{" in n or "}" in n for n in self._names):
            try:
                return self.game.parse_action(self._state, action)
            except GameError:
                found = self._named_action(action, written_first=True)
                if found is not None:
                    return found
        aid = self._resolve(action)
        self._text(aid)
        return aid

    def apply(self, action: Any) -> list[Any]:
        """Apply one legal action (its id, text, or object); return the events it caused.
        An illegal one raises (the reason in words) and changes nothing."""
        if type(action) is int:  # (_resolve's first two cases, written out: the hot path)
            aid = action
        elif type(action) is Action:
            aid = int(action)
        else:
            aid = self._resolve(action)
        state = self._state
        if not self._game_is_legal(state, aid):  # the legal list decides; refusal() says why
            raise self._refused(aid)
        events = self._push(aid)  # the list the log keeps, taken before a board's bots reply
        if self._future:
            self._future.clear()
            self._future_movers.clear()
        self._state_id += 1  # _changed(), written out: this is every game's hot path
        if self._listeners:
            self._notify()
        return events

    def undo(self, steps: int = 1) -> int:
        """Take back up to ``steps`` actions; return how many were undone."""
        steps = min(self._steps(steps), len(self._history))
        if steps:
            self._take_back(steps)
            self._changed()
        return steps

    def _take_back(self, steps: int) -> None:
        """Undo's work, without telling listeners. The slow part (the position rebuilt)
        comes first, so a Ctrl-C during it leaves the session as it was."""
        keep = len(self._history) - steps
        state = self._position_after(keep)
        self._future.extend(reversed(self._history[keep:]))
        self._future_movers.extend(reversed(self._movers[keep:]))
        del self._history[keep:], self._logs[keep:], self._movers[keep:]
        del self._checkpoints[keep // CHECKPOINT_EVERY + 1:]
        self._state = state

    def redo(self, steps: int = 1) -> int:
        """Re-apply up to ``steps`` undone actions; return how many were redone."""
        steps = min(self._steps(steps), len(self._future))
        done = 0
        try:
            for _ in range(steps):
                self._push(self._future[-1])  # taken off the redo list only once it is played
                self._future.pop()
                self._future_movers.pop()
                done += 1
        except BaseException:  # a game fault or Ctrl-C part-way: the steps already redone go back
            if done:
                self._take_back(done)
            raise
        if steps:
            self._changed()
        return steps

    def load(self, other: Session) -> None:
        """Become ``other`` (a loaded record, a new deal), keeping listeners: a board
        showing this session follows."""
        if not isinstance(other, Session) or type(other.game) is not type(self.game):
            raise InvalidOptionError(f"load takes a session of the same game, got {type(other).__name__}")
        state = other.game.clone(other._state)  # first: a Ctrl-C during the copy changes nothing
        self._play(other.game)
        self._names, self._seed, self._setup = other._names, other._seed, other._setup
        self._state = state
        self._copy_history(other, self)
        self._changed()

    def clone(self: S) -> S:
        """An independent copy (history included; listeners are not copied)."""
        copy = type(self).__new__(type(self))
        copy.__dict__.update({name: self.__dict__[name] for name in _BOUND})  # the game's, as bound here
        copy.game, copy._names, copy._seed, copy._setup = self.game, self._names, self._seed, self._setup
        copy._state = self.game.clone(self._state)
        self._copy_history(self, copy)
        copy._listeners, copy._state_id = [], self._state_id
        return copy

    # -- saving -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe and versioned: the game and its options, players, seed, actions, redo list."""
        return records.session_to_dict(self)

    def record(self) -> str:
        """The game as readable text, one line per turn (like a chess PGN)."""
        return records.session_record(self)

    @classmethod
    def from_dict(cls: type[S], data: Any, *, game: Any = None) -> S:
        """Inverse of :meth:`to_dict`; ``game`` (a CardGame or its class) for an unregistered game."""
        return records.session_from_dict(cls, data, game)  # type: ignore[return-value]

    @classmethod
    def from_record(cls: type[S], text: Any, *, game: Any = None) -> S:
        """Inverse of :meth:`record`: the identical game, history included."""
        return records.session_from_record(cls, text, game)  # type: ignore[return-value]

    @staticmethod
    def _copy_history(src: Session, dst: Session) -> None:
        dst._initial = src._initial
        dst._history, dst._movers, dst._logs = src._history[:], src._movers[:], src._logs[:]
        dst._future, dst._future_movers = src._future[:], src._future_movers[:]
        dst._checkpoints = src._checkpoints[:]  # snapshots are never mutated: share them

    # -- listeners (the board re-renders on change) ---------------------------------------

    def on_change(self, callback: Callable[[Any], None], *, remove: bool = False) -> None:
        """Call ``callback(session)`` after every change (or stop, with ``remove=True``)."""
        if not callable(callback):
            raise InvalidOptionError(f"on_change takes a function of the session, got {shown(callback)}")
        if remove:
            if callback in self._listeners:
                self._listeners.remove(callback)
        elif callback not in self._listeners:
            self._listeners.append(callback)

    def _changed(self) -> None:
        self._state_id += 1
        if self._listeners:
            self._notify()

    def _notify(self) -> None:
        for callback in list(self._listeners):
            try:
                callback(self)
            except Exception:  # the change has happened: a failing listener must not hide it
                import logging  # only here: it costs import time

                logging.getLogger("kum_widget").exception("a listener of %r failed (the game changed; the listener missed it)", self)

    # -- helpers ---------------------------------------------------------------------------

    def _resolve(self, action: Any) -> int:
        """An action id from what a caller passed: an id (an :class:`Action` is one), or text."""
        if type(action) is int:
            return action  # apply asks the game's refusal() whether it is legal
        if type(action) is Action:
            return int(action)  # its id: the game is handed plain ints
        if isinstance(action, str):
            if len(action) > 500:
                raise self._type.illegal_error(f"action text of {len(action)} characters is too long to be an action")
            if any("{" in n or "}" in n for n in self._names):  # "{seat1}" may be a name here: names first
                found = self._named_action(action)
                return self.game.parse_action(self._state, action) if found is None else found
            try:
                return self.game.parse_action(self._state, action)  # the text as typed, as before
            except GameError:
                found = self._named_action(action)
                if found is None:
                    raise
                return found
        if self._type.has("encode"):  # the game's own objects (and what is not one: its encode says so)
            return self._encoded(action)
        raise self._type.illegal_error(f"an action is an id or its text, got {shown(action)}")

    def _encoded(self, move: Any) -> int:
        """The id of one of the game's own objects (its ``encode``, in the view of the seat to act)."""
        try:
            seat = self.game.current_player(self._state)
            aid = self.game.encode(self.game.view(self._state, seat), move)
        except GameError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise self._type.illegal_error(f"{shown(move)} is not an action of {self._title()} ({type(exc).__name__})") from None
        if type(aid) is not int:
            raise GameFault(f"{self._title()}'s encode() must give an action id (an int), got {shown(aid)}")
        return aid

    def _named_action(self, text: str, *, written_first: bool = False) -> int | None:
        """The legal action whose text has placeholders and reads ``text``, named or as
        written (case and spaces aside, the closest match first); None if none does."""
        texts = ((aid, self._raw_text(aid)) for aid in self.game.legal_actions(self._state))
        return read_named(text, ((aid, t) for aid, t in texts if "{" in t or "}" in t), self._names, self._acting(),
                          written_first=written_first)

    def _is_legal(self, aid: int) -> bool:
        """``aid in legal_actions()``: the game's ``is_legal`` (which may answer without building the list)."""
        return bool(self._game_is_legal(self._state, aid))

    def _public_action(self, aid: int) -> Action:
        """What ``legal_actions`` (and a bot's move) hands out for an id in the position now:
        its :class:`Action`, with the game's own object as ``move`` if it has them."""
        return Action(aid, self._text(aid), self.game.move(self._state, aid) if self._type.has("move") else None)

    def _taken(self) -> list[Action]:
        """The history as Actions, each named in the position it was taken in (its text then,
        ``{player}`` the seat that took it), kept between calls while the history starts the
        same way: undo keeps the part still played."""
        history = self._history
        kept = self.__dict__.get("_history_named")
        ids: list[int] = []
        named: list[Action] = []
        if kept is not None and kept[0] is self._initial and kept[1] == self._names:
            n = min(len(kept[2]), len(history))
            if kept[2][:n] == history[:n]:
                ids, named = kept[2][:n], kept[3][:n]
        if len(ids) < len(history):
            game, names, state = self.game, self._names, self._position_after(len(ids))
            moves = self._type.has("move")
            for aid in history[len(ids):]:
                text = str(game.action_text(state, aid))
                if "{" in text or "}" in text:
                    try:
                        seat = game.current_player(state)
                    except (KeyError, IndexError, TypeError, ValueError, AttributeError):  # "any value once the game is over"
                        seat = None
                    text = render(text, names, seat if type(seat) is int and 0 <= seat < len(names) else None)
                named.append(Action(aid, text, game.move(state, aid) if moves else None))
                ids.append(aid)
                game.step(state, aid)
        self.__dict__["_history_named"] = (self._initial, self._names, ids, named)
        return named[: len(history)]

    def _refused(self, aid: int) -> GameError:
        """The error for an action the legal list refused, with the game's reason."""
        try:
            reason = self.game.refusal(self._state, aid) or "not a legal action now"
        except GameError as exc:  # the game's own clear error for an id it does not know: its words
            return exc
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):  # an id the game does not know
            reason = "not an action of this game"
        return self._illegal(aid, reason)

    def _illegal(self, aid: int, reason: str) -> GameError:
        try:
            text = f"{self._shown_text(aid)} (action {aid})"
        except Exception:  # an id the game cannot even name
            text = f"action {shown(aid)}"
        return self._type.illegal_error(f"{text}: {reason}")

    def _push(self, aid: int) -> list[Any]:
        state = self._state
        mover = self._game_mover(state)
        try:
            events = self._game_apply(state, aid)
        except Exception as exc:  # a bug in the game's apply(): put the position back, say so
            self._state = self._rebuilt()
            raise GameFault(f"{self._title()}'s apply() failed on {self._shown_text(aid)!r} "
                            f"({type(exc).__name__}: {cut(str(exc))}); the position is as it was") from exc
        except BaseException:  # Ctrl-C (KeyboardInterrupt) part-way through: the position as it was
            self._state = self._rebuilt()
            raise
        events = list(events) if events else []  # the log's own list, whatever the game kept
        history = self._history
        history.append(aid)
        self._movers.append(mover)
        self._logs.append(events)
        n = len(history)
        if not n % CHECKPOINT_EVERY and len(self._checkpoints) * CHECKPOINT_EVERY == n:
            self._checkpoints.append(self.game.clone(state))
        return events

    def _position_after(self, n: int) -> Any:
        """The position after the first ``n`` actions of the history, from the snapshot
        before them (at most CHECKPOINT_EVERY - 1 actions replayed)."""
        base = max(0, n) // CHECKPOINT_EVERY
        state = self.game.clone(self._checkpoints[base])
        for aid in self._history[base * CHECKPOINT_EVERY:n]:
            self.game.step(state, aid)
        return state

    def _rebuilt(self) -> Any:
        """The position after the whole history (undo; and a failed apply put back)."""
        return self._position_after(len(self._history))

    def _state_before_last(self) -> Any:
        """The position before the last action (the board marks where it went)."""
        return self._position_after(len(self._history) - 1)

    def _steps(self, steps: Any) -> int:
        if type(steps) is not int or steps < 0:
            raise self._type.option_error(f"steps must be a whole number >= 0, got {shown(steps)}")
        return steps

    def _seat(self, seat: Any) -> int:
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise self._type.option_error(f"seat must be 0..{self.num_players - 1}, got {shown(seat)}")
        return seat

    def _title(self) -> str:
        return self.game.title or self.game.name or type(self.game).__name__

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self._names[self.current_player]} to act"
        return f"<{self._title()}: {', '.join(self._names)}; seed={self._seed}; {len(self._history)} actions; {state}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Session) and other.game == self.game and other._names == self._names
            and other._history == self._history and self.game.same(other._state, self._state)
        )

    __hash__ = None  # type: ignore[assignment]

    # -- what a board draws: public reads, so that no board reads a private field ---------------

    @property
    def title(self) -> str:
        """The game's title, as a board heads it (its ``title``, else its ``name``)."""
        return self._title()

    def public_view(self) -> dict[str, Any]:
        """What a spectator sees (a board's pass screen): only what is public, as the
        game's ``public_view`` draws it."""
        return self.game.public_view(self._state)

    def frame(self, viewer: int | str | None, *, offer: Sequence[int] | None = None, log_lines: int = LOG_LINES) -> Frame:
        """Everything ``viewer`` may know now, in one value (:class:`~kum_widget.core.frame.Frame`):
        the board as the game draws that viewer's view, the actions that viewer may take now
        (with ids and texts), who is to act, the status line, the last move, that viewer's log
        lines (the last ``log_lines`` actions), the state id and how many actions were taken.
        ``viewer``: a seat, None (the full table) or ``"public"`` (a spectator); ``offer``:
        only these of the viewer's legal action ids (a board offers none on a bot's turn).

        >>> from kum_widget.core.examples import Bust
        >>> s = Session(Bust(), ["Ada", "Bo"], seed=1)
        >>> s.frame(0).action(2)
        Offered(id=2, text='play 3', source='card 2', target='pile', label=None, choice=None)
        >>> s.frame(5)
        Traceback (most recent call last):
        ...
        kum_widget.core.errors.InvalidOptionError: a viewer is a seat 0..1, None (the full table) or 'public', got 5
        """
        seen = check_viewer(viewer, self.num_players)
        if offer is not None and (isinstance(offer, (str, bytes)) or not isinstance(offer, Sequence)
                                  or not all(type(a) is int for a in offer)):
            raise InvalidOptionError(f"offer must be a list of action ids, got {shown(offer)}")
        if type(log_lines) is not int or log_lines < 0:
            raise InvalidOptionError(f"log_lines must be a whole number, 0 or more, got {shown(log_lines)}")
        return frame_of(self, seen, offer, log_lines)

    def clicks(self, ids: Sequence[int] | None = None) -> list[dict[str, Any]]:
        """Where on the board each legal action id in ``ids`` is clicked (default: every
        legal action, in ``legal_action_ids()`` order): the game's ``click`` of it now,
        ``{}`` for a button with the action's text (GAMES.md, "The board")."""
        legal = self.game.legal_actions(self._state)
        if ids is None:
            ids = list(legal)
        elif not isinstance(ids, (list, tuple)) or any(not _is_id(a) for a in ids) or not set(ids) <= set(legal):
            bad = ids if not isinstance(ids, (list, tuple)) else next((a for a in ids if not _is_id(a) or a not in legal), ids)
            raise IllegalMoveError(f"clicks takes legal action ids of the player to act, got {shown(bad)}")
        return [self._click(self._state, int(a)) for a in ids]

    def last_click(self) -> dict[str, Any] | None:
        """Where the last action was clicked: the game's ``click`` of it in the position it
        was taken in (a board marks where it went); None at the start."""
        if not self._history:
            return None
        cached = getattr(self, "_last_click", None)  # (a session pickled before it had one: none)
        if cached is not None and cached[0] == self._state_id:  # every viewer's frame asks it: worked out once a change
            return dict(cached[1])
        click = self._click(self._state_before_last(), self._history[-1])
        self._last_click = (self._state_id, click)
        return dict(click)

    def _click(self, state: Any, aid: int) -> dict[str, Any]:
        try:
            return self.game.click(state, aid) or {}
        except Exception as exc:  # a bug in the game's click(): named, as apply() names its own
            raise GameFault(f"{self._title()}'s click() failed on action {aid} ({type(exc).__name__}: {cut(str(exc))})") from exc


_BOUND = ("_type", "_game_is_over", "_game_legal", "_game_actions", "_game_is_legal", "_game_mover", "_game_apply")
"""What :meth:`Session._play` binds of a game: dropped when pickled, bound again when read."""


def _is_id(action: Any) -> bool:
    """An action id as a session takes one: an ``int`` (not a bool) or an :class:`Action`."""
    return type(action) is int or type(action) is Action

