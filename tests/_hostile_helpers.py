"""Bad input for any game's session: hostile values, the public calls that take them, and
what each call's refusal must name (not a test module; ``tests/core/test_conformance.py`` uses it).

Every public call that takes input refuses a bad value with a ``GameError`` (a ValueError)
whose message names what is wrong, briefly, and leaves the session exactly as it was: no
KeyError, IndexError, TypeError, RecursionError or other exception escapes."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from _conformance_helpers import CASES, Case, check_secrets, play, snapshot
from hypothesis import strategies as st

from kum_widget.core import GameError, IllegalMoveError, InvalidOptionError, InvalidSaveError, Session
from kum_widget.core.session import new_session


def _nested(depth: int) -> list[Any]:
    deep: list[Any] = []
    inner = deep
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return deep


DEEP = _nested(50_000)  # repr, json and == recurse: a RecursionError must not escape
HOSTILE: list[Any] = [
    None, -1, 7, 2**200, -(2**200), 10**5000, math.nan, math.inf, -math.inf, 1.0, 1.5, True, False, "0", "x" * 100_000, "", "   ",
    "\x00", "a\x00b", "{seat9}", "{player}", "}{", b"pass", [], [1, 2], list(range(100_000)), {}, {"a": 1}, {1: [2]},
    {((1,),): 1}, (), (1,), {1, 2}, DEEP, {"a": DEEP}, object(), Ellipsis, float, Session,
]


@dataclass(frozen=True)
class Call:
    """A public call that takes a value; ``word`` is what its refusal must name (None: any
    message), ``valid(value, session)`` says the value is good input (then it may succeed)."""

    name: str
    call: Callable[[Session, Any], Any]
    word: str | None
    valid: Callable[[Any, Session], bool] = lambda v, s: False
    changes: bool = True  # a call on the session (else a constructor, a loader: the session is only read)
    own: bool = True  # the game's own session refuses it (else the core does, for every game, with the core's errors)
    kind: type[GameError] = InvalidOptionError  # the core's class of its refusal (a game's own classes subclass it)
    names: Callable[[Any, Session], str | None] = lambda v, s: None  # another text naming the value (an action's own)


def _is_int(v: Any) -> bool:
    return type(v) is int


def _seat(v: Any, s: Session) -> bool:
    return v is None or (_is_int(v) and 0 <= v < s.num_players)


def _legal(v: Any, s: Session) -> bool:
    """Does ``v`` name a legal action (its id, or text that reads as one)?"""
    if not _is_int(v) and not isinstance(v, str):
        return False
    try:
        return s.action_id(v) in s.legal_action_ids()
    except GameError:
        return False


def _action_text(v: Any, s: Session) -> str | None:
    """The text of the action id ``v`` (a refusal may name the action so, with the rule it breaks)."""
    try:
        return s.action_text(v) if _is_int(v) else None
    except GameError:
        return None


def _legal_ids(v: Any, s: Session) -> bool:
    return v is None or (isinstance(v, (list, tuple)) and all(_is_int(a) and a in s.legal_action_ids() for a in v))


def _event(s: Session) -> Any:
    return next(e for events in reversed(s.logs) for e in events)


CALLS: list[Call] = [
    Call("apply", lambda s, v: s.apply(v), "action", _legal, kind=IllegalMoveError, names=_action_text),
    Call("action_id", lambda s, v: s.action_id(v), "action", lambda v, s: _is_int(v) or _legal(v, s),  # a game may name any id
         kind=IllegalMoveError),
    Call("action_text", lambda s, v: s.action_text(v), "action", lambda v, s: _is_int(v) or _legal(v, s), kind=IllegalMoveError),
    Call("undo", lambda s, v: s.undo(v), "steps", lambda v, s: _is_int(v) and v >= 0),
    Call("redo", lambda s, v: s.redo(v), "steps", lambda v, s: _is_int(v) and v >= 0),
    Call("view", lambda s, v: s.view(v), "seat", _seat),
    Call("describe(event, viewer)", lambda s, v: s.describe(_event(s), v), "seat", _seat),
    # text is an event too: a sentence, or a GameFault when it names a seat the game lacks ("{seat9}", GAMES.md)
    Call("describe(event)", lambda s, v: s.describe(v), None, lambda v, s: True, kind=GameError),
    Call("named(text)", lambda s, v: s.named(v), "text", lambda v, s: isinstance(v, str), own=False, kind=GameError),
    Call("named(text, seat)", lambda s, v: s.named("x", v), "seat", _seat),
    Call("heuristic_scores", lambda s, v: s.heuristic_scores(v), "heuristic", lambda v, s: s.game.fair_heuristic and _legal_ids(v, s),
         own=False, kind=GameError),  # (IllegalMoveError for ids; a game without a fair heuristic refuses them all)
    Call("recent_logs", lambda s, v: s.recent_logs(v), "count", lambda v, s: _is_int(v)),
    Call("load", lambda s, v: s.load(v), "load"),
    Call("on_change", lambda s, v: s.on_change(v), "function", lambda v, s: callable(v), own=False),
    Call("from_dict", lambda s, v: type(s).from_dict(v), None, changes=False, kind=InvalidSaveError),
    Call("from_record", lambda s, v: type(s).from_record(v), None, changes=False, kind=InvalidSaveError),
    Call("new session: players", lambda s, v: new_session(s.game, v, seed=1), "player",
         lambda v, s: v is None or (_is_int(v) and s.game.min_players <= v <= s.game.max_players), changes=False),
    Call("new session: seed", lambda s, v: new_session(s.game, s.num_players, seed=v), "seed",
         lambda v, s: v is None or (_is_int(v) and 0 <= v < 2**64), changes=False),
    Call("Session(game)", lambda s, v: Session(v, s.num_players), "game", changes=False, own=False),
    Call("Session.from_position: players", lambda s, v: Session.from_position(s.game, s.state, v), "player",
         lambda v, s: v is None or v == s.num_players, changes=False, own=False),
]


def midgame(case: Case, seed: int = 5, moves: int = 10) -> Session:
    """A game some moves in, with two of them undone (a redo list)."""
    s, rng = case.new(seed), random.Random(seed)
    for _ in range(moves):
        if not s.is_over:
            s.apply(rng.choice(s.legal_action_ids()))
    s.undo(2)
    return s


def outcome(call: Callable[[], Any]) -> GameError | None:
    """None when ``call()`` succeeds, its GameError when refused; anything else fails the test."""
    try:
        call()
    except GameError as exc:
        return exc
    except Exception as exc:  # the point: no other exception may escape a public call
        raise AssertionError(f"{type(exc).__name__} escaped: {str(exc)[:200]}") from exc
    return None


def check_refusal(s: Session, how: Call, value: Any, errors: type[GameError] = GameError) -> None:
    """``how`` with ``value`` on a copy of ``s``: good input may pass; bad input is refused by
    name (with an ``errors``, the game's own class, when the game's session answers), briefly,
    and leaves the copy exactly as it was."""
    g = s.clone()
    before = snapshot(g)
    error = outcome(lambda: how.call(g, value))
    where = f"{how.name}({type(value).__name__})"
    if error is None:
        assert how.valid(value, s), f"{where} was accepted"
        return
    message = str(error)
    assert isinstance(error, errors) or not how.own, f"{where}: {type(error).__name__} is not a {errors.__name__}: {message}"
    assert isinstance(error, how.kind), f"{where}: {type(error).__name__} is not a {how.kind.__name__}: {message}"
    assert message.strip() and len(message) < 400, f"{where}: the message is {len(message)} characters"
    also = how.names(value, s)
    assert how.word is None or how.word in message.lower() or (also is not None and also.lower() in message.lower()), \
        f"{where}: {message!r} does not name the {how.word}"
    assert snapshot(g) == before, f"{where} was refused but changed the session"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (dict keys and list indices), the value's own () first."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*path, i))
    return out


def replaced(data: Any, path: tuple[Any, ...], value: Any, *, drop: bool = False) -> Any:
    """A copy of the JSON ``data`` with the node at ``path`` replaced by ``value`` (or, in a
    dict, dropped)."""
    if not path:
        return value
    out = json.loads(json.dumps(data))
    node = out
    for key in path[:-1]:
        node = node[key]
    if drop and isinstance(node, dict):
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


def reads_or_refused(load: Callable[[], Any], where: str, errors: type[GameError] = GameError) -> None:
    """A save read back, or refused by an InvalidSaveError (an ``errors`` too: the game's own
    class) with a brief message; nothing else escapes."""
    error = outcome(load)
    assert error is None or isinstance(error, errors), f"{where}: {type(error).__name__} is not a {errors.__name__}: {error}"
    assert error is None or isinstance(error, InvalidSaveError), f"{where}: {type(error).__name__} is not an InvalidSaveError: {error}"
    assert error is None or len(str(error)) < 400, f"{where}: a message of {len(str(error))} characters"


# -- bugs this suite found, in code the tests do not own ---------------------------------------------


@dataclass(frozen=True)
class Bug:
    """A bug of a game or of the core that a check of the suite found, now fixed: ``reproduce``
    is its regression test (``test_fixed_bugs_stay_fixed``)."""

    where: str  # "call:<name>" (bad input to a call), "dict:<path>" (a saved dict), or a check: "secrets"
    case: str | None  # the case that meets it (None: every game: a bug of the core)
    reason: str
    reproduce: Callable[[], None]  # raises AssertionError while the bug is there


def _calls_with(case: Case, name: str, values: list[Any]) -> Callable[[], None]:
    def run() -> None:
        s, how = midgame(case), next(c for c in CALLS if c.name == name)
        for value in values:
            check_refusal(s, how, value)
    return run


def _dict_with(case: Case, path: tuple[str, ...], value: Any) -> Callable[[], None]:
    def run() -> None:
        s = midgame(case)
        reads_or_refused(lambda: type(s).from_dict(replaced(s.to_dict(), path, value)), f"{path} = {value}")
    return run


def _secrets_of(case: Case) -> Callable[[], None]:
    def run() -> None:
        play(case.new(1), random.Random(1), check_secrets)
    return run


def _case(case_id: str) -> Case:
    return next(c for c in CASES if c.id == case_id)


# Bugs this suite found, now fixed: each reproduce() is a regression test (test_fixed_bugs_stay_fixed).
FIXED: list[Bug] = [
    Bug("secrets", "kum-open-2p",
        "Kings Under Mountains under visibility='open' shows every hand, but its secrets() still lists each hand: check_game "
        "fails it (fix in kum_widget/games/kum/card_game.py: secrets() returns [] when the rules' visibility is 'open')",
        _secrets_of(_case("kum-open-2p"))),
    Bug("call:recent_logs", None,
        "Session.recent_logs(count) lets a TypeError escape for a count that is not a whole number (fix in "
        "kum_widget/core/session.py: refuse it first, `if type(count) is not int: raise InvalidOptionError(f'count must be a "
        "whole number, got {shown(count)}')`)",
        _calls_with(_case("bust-2p"), "recent_logs", [None, 1.5, "3", []])),
    Bug("call:describe(event)", None,
        "Session.describe(10**5000) lets Python's ValueError for an int past 4300 digits escape from str(event) (fix in "
        "kum_widget/core/session.py: catch ValueError with RecursionError around game.describe, raising the same "
        "InvalidOptionError)",
        _calls_with(_case("bust-2p"), "describe(event)", [10**5000])),
    Bug("dict:options.hand", "bust-2p",
        "Bust takes any hand size, and dealing more than its 18 cards lets an IndexError escape from setup(), so from "
        "Session(Bust(hand=10), 2) and from a saved game with that option (fix in kum_widget/core/examples.py: Bust.__init__ "
        "refuses a hand outside 0..4 with an InvalidOptionError, as tests/game_from_docs.py's Expeditions does)",
        _dict_with(_case("bust-2p"), ("options", "hand"), 10)),
]
