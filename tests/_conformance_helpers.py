"""The games the conformance suite covers, and the checks it makes of every position (not a
test module).

``CASES`` is every shipped game, the game written from GAMES.md alone and the gallery in
kum_widget/gallery/, with the player counts and rule options worth covering; tests/core/test_conformance.py
and tests/security/test_conformance_input.py run each generic promise over all of them. A game added
to the gallery gets them all by a line here (and a golden game in ``_golden_helpers.GOLDENS``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget import core
from kum_widget.core import CardGame, GameError, GameFault, Session
from kum_widget.core.board import board_problems, click_problems
from kum_widget.core.session import new_session
from kum_widget.gallery.connect_four import ConnectFour
from kum_widget.gallery.undercut import Undercut
from kum_widget.gallery.whispers import Whispers
from kum_widget.gallery.workers import Woodcutters

ROOT = Path(__file__).resolve().parent.parent

from game_from_docs import Expeditions  # noqa: E402

LIMIT = 2000  # actions: every game here ends far sooner (KUM, the longest, within ~300)


@dataclass(frozen=True)
class Case:
    """One game to check: its rules, a player count, and how many random games a property
    test plays of it (fewer for the long games)."""

    id: str
    make: Callable[[], CardGame]
    players: int
    examples: int = 6
    session: Callable[[int], Session] | None = None  # the game's own session class (else new_session's)
    errors: type[GameError] = GameError  # the class of every error the game's session raises for bad input

    def new(self, seed: int, players: Any = None) -> Session:
        if self.session is not None and players is None:
            return self.session(seed)
        return new_session(self.make(), self.players if players is None else players, seed=seed)

    def __str__(self) -> str:
        return self.id


def _shipped(name: str, **options: Any) -> Callable[[], CardGame]:
    return lambda: core.game_class(name)(**options)


def _drawn(seed: int, choices: dict[str, list[Any]]) -> dict[str, Any]:
    """Rule options drawn from ``choices`` by ``seed``."""
    rng = random.Random(seed)
    return {name: rng.choice(values) for name, values in choices.items()}


KUM_CHOICES: dict[str, list[Any]] = {  # (visibility "open" has a case of its own)
    "refill": ["immediate", "end_of_turn"], "end": ["immediate", "finish_round"], "stuck": ["discard", "draw"],
    "ties": ["share", "developed"], "visibility": ["physical", "hidden"], "first_player": ["random", 0, 1, 2],
}
COURT_CHOICES: dict[str, list[Any]] = {
    "first_refill": ["open", "court"], "price": ["descending", "printed"], "full_court": ["replace", "closed"],
    "empty_pass_pays": [True, False], "fights_per_turn": [0, 1, 2, 4], "last_prince_ends": [True, False],
    "court_vp": [True, False], "row_princes_subtract": [True, False], "start_cp": [0, 3, 10, 100],
}


def _kum_any(seed: int) -> Session:
    return new_session(core.game_class("kings-under-mountains")(**_drawn(seed, KUM_CHOICES)), 3, seed=seed)


CASES: list[Case] = [
    Case("kum-2p", _shipped("kings-under-mountains"), 2, examples=2, errors=kum.KumError),
    Case("kum-4p", _shipped("kings-under-mountains"), 4, examples=1, errors=kum.KumError),
    Case("kum-open-2p", _shipped("kings-under-mountains", visibility="open"), 2, examples=1, errors=kum.KumError),
    # the options drawn from each game's seed: every property test plays another combination
    Case("kum-any-options-3p", _shipped("kings-under-mountains", **_drawn(0, KUM_CHOICES)), 3, examples=2, session=_kum_any,
         errors=kum.KumError),
    # the court through kum.Court, the session people use; its variant through the core's Session
    Case("court", _shipped("court"), 1, examples=10, session=lambda seed: kum.Court(seed=seed)),
    Case("court-variant", _shipped("court", first_refill="court", price="printed", full_court="closed", empty_pass_pays=False,
                                   fights_per_turn=2, last_prince_ends=False, court_vp=False, row_princes_subtract=True,
                                   start_cp=3), 1),
    Case("court-any-options", _shipped("court", **_drawn(0, COURT_CHOICES)), 1, examples=20,
         session=lambda seed: kum.Court(seed=seed, rules=kum.CourtRules(**_drawn(seed, COURT_CHOICES)))),
    Case("bust-2p", _shipped("bust"), 2),
    Case("bust-4p-variant", _shipped("bust", limit=30, hand=4), 4),
    Case("expeditions", Expeditions, 2),
    Case("expeditions-variant", lambda: Expeditions(hand=8, cost=0), 2),
    Case("undercut", Undercut, 2),
    Case("undercut-variant", lambda: Undercut(rounds=9), 2),
    Case("connect-four", ConnectFour, 2),
    Case("whispers-2p", Whispers, 2),
    Case("whispers-3p", Whispers, 3),
    Case("whispers-4p", Whispers, 4),
    Case("woodcutters", Woodcutters, 2),
    Case("woodcutters-variant", lambda: Woodcutters(workers=2, goal=20, rounds=12), 2),
]

# One case per game, for the checks whose cost does not depend on the options.
ONE_PER_GAME: list[Case] = [c for c in CASES if c.id in {
    "kum-2p", "court", "bust-2p", "expeditions", "undercut", "connect-four", "whispers-3p", "woodcutters"}]


# -- reading a session -----------------------------------------------------------------------------


def json_round(value: Any) -> Any:
    return json.loads(json.dumps(value, allow_nan=False))


def snapshot(s: Session) -> tuple[Any, ...]:
    """Everything a refused call must leave as it was."""
    return (s.to_dict(), s.state_id, s.view(None), s.redo_count, s.history, s.record(), str(s))


def light_snapshot(s: Session) -> tuple[Any, ...]:
    """What a refused call could change, cheaply (every step of a long game takes one)."""
    return (s.state_id, s.view(None), s.history, s.redo_count, str(s), len(s.logs))


def same_game(a: Session, b: Session) -> None:
    assert a == b
    assert a.to_dict() == b.to_dict() and a.record() == b.record() and str(a) == str(b)
    assert a.view(None) == b.view(None) and a.logs == b.logs and a.redo_count == b.redo_count


def contains(tree: Any, secret: Any) -> bool:
    """Does a view hold ``secret``: a value equal to it anywhere, or for a dict secret
    ({"id": 7}), any dict with those keys and values? (The checker's reading.)"""
    if tree == secret:
        return True
    if isinstance(secret, dict) and isinstance(tree, dict) and all(k in tree and tree[k] == v for k, v in secret.items()):
        return True
    children = tree.values() if isinstance(tree, dict) else tree if isinstance(tree, list) else ()
    return any(contains(child, secret) for child in children)


class Holdings:
    """What a view holds, indexed once, so each secret is looked up rather than searched for."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.values: set[Any] = set()  # every hashable value
        self.pairs: set[tuple[Any, Any]] = set()  # every (key, hashable value) of every dict
        todo = [view]
        while todo:
            node = todo.pop()
            if isinstance(node, dict):
                self.pairs.update((k, v) for k, v in node.items() if not isinstance(v, (dict, list)))
                todo.extend(node.values())
            elif isinstance(node, list):
                todo.extend(node)
            else:
                self.values.add(node)

    def hold(self, secret: Any) -> bool:
        if isinstance(secret, dict) and len(secret) == 1:
            (key, value), = secret.items()
            if not isinstance(value, (dict, list)):
                return (key, value) in self.pairs
        if not isinstance(secret, (dict, list)):
            return secret in self.values
        return contains(self.view, secret)


def has_hook(game: CardGame, name: str) -> bool:
    return core.game_type(game).has(name)


def public_view(s: Session) -> dict[str, Any] | None:
    """What a spectator sees (the board's pass screen), when the game can say."""
    game = s.game
    return game.public_view(s.state) if game.perfect_information or has_hook(game, "public_view") else None


# -- playing ---------------------------------------------------------------------------------------


def play(s: Session, rng: random.Random, each: Callable[[Session], None] | None = None) -> Session:
    """Random legal actions to the end; ``each(s)`` at every position, the last included."""
    for _ in range(LIMIT):
        if each is not None:
            each(s)
        if s.is_over:
            return s
        legal = s.legal_action_ids()
        assert legal, f"no legal action, but the game is not over (after {s.move_number} actions)"
        s.apply(rng.choice(legal))
    raise AssertionError(f"the game did not end within {LIMIT} actions")


def positions(start: Session, history: tuple[Any, ...]) -> list[Session]:
    """The positions a replay of ``history`` from ``start`` goes through, the start first."""
    probe, out = start.clone(), [start.clone()]
    for action in history:
        probe.apply(action)
        out.append(probe.clone())
    return out


# The cases as test parameters: Kings Under Mountains for four in make soak alone (make test plays
# it for two, and for three under drawn options: more than two seats, and the 4-seat board is
# drawn in the layout and board tests).
SOAK_ONLY = {"kum-4p"}
PARAMS = [pytest.param(c, id=c.id, marks=pytest.mark.soak) if c.id in SOAK_ONLY else pytest.param(c, id=c.id) for c in CASES]


SEEDS = st.integers(0, 2**31 - 1)


def for_seeds(case: Case, test: Callable[[int], None], scale: float = 1.0) -> None:
    """``test(seed)`` on ``case.examples`` (times ``scale``, at least one) random seeds, by
    hypothesis: a failure shrinks to one seed that replays it."""
    examples = max(1, round(case.examples * scale))
    settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)(
        given(seed=SEEDS)(test))()


def played(case: Case, seed: int, each: Callable[[Session], None]) -> None:
    """A random game of ``case`` to the end, ``each(s)`` at every position."""
    play(case.new(seed), random.Random(seed), each)


def check_round_trips(s: Session) -> None:
    """The dict keeps the redo list; the record is the game played (no redo list)."""
    same_game(type(s).from_dict(json_round(s.to_dict())), s)
    back = type(s).from_record(s.record())
    assert back == s and back.record() == s.record() and str(back) == str(s) and back.view(None) == s.view(None)
    assert back.logs == s.logs and back.redo_count == 0 and back.to_dict() == {**s.to_dict(), "redo": []}


# -- the checks of one position ------------------------------------------------------------------


def check_views(s: Session) -> None:
    """Every seat's view, the full table's and a spectator's are JSON (no NaN, no infinity)
    and come back from JSON unchanged."""
    views = [s.view(seat) for seat in (None, *range(s.num_players))]
    spectator = public_view(s)
    for view in [*views, *([spectator] if spectator is not None else [])]:
        assert isinstance(view, dict) and json_round(view) == view


def check_secrets(s: Session) -> None:
    """No seat's view, nor a spectator's, holds another seat's secret."""
    game, state = s.game, s.state
    views = {seat: Holdings(s.view(seat)) for seat in range(s.num_players)}
    spectator = public_view(s)
    public = None if spectator is None else Holdings(spectator)
    for owner in range(s.num_players):
        for secret in game.secrets(state, owner):
            assert not isinstance(secret, (bool, int, float)) and secret not in ("", None), f"bare secret {secret!r}"
            for seat, held in views.items():
                assert seat == owner or not held.hold(secret), f"seat {seat}'s view holds {secret!r}, a secret of seat {owner}"
            assert public is None or not public.hold(secret), f"a spectator's view holds {secret!r}"


def check_frames(s: Session) -> None:
    """Each viewer's frame (``Session.frame``) is JSON, matches the session, offers actions to
    the seat to act (and the full table) alone, and holds no secret of a seat but its viewer's."""
    game, state = s.game, s.state
    viewers: list[int | str | None] = [None, *range(s.num_players)]
    if public_view(s) is not None:
        viewers.append("public")
    secrets = {owner: game.secrets(state, owner) for owner in range(s.num_players)}
    for viewer in viewers:
        frame = s.frame(viewer)
        data = frame.to_json()
        assert json_round(data) == data and frame.viewer == viewer
        assert (frame.state_id, frame.sequence, frame.over) == (s.state_id, s.move_number, s.is_over)
        acting = not s.is_over and (viewer is None or viewer == s.current_player)
        ids = s.legal_action_ids() if acting else []
        assert [a.id for a in frame.actions] == ids and [a.text for a in frame.actions] == [s.action_text(a) for a in ids]
        seen = public_view(s) if viewer == "public" else s.view(viewer)
        drawn = game.board(seen, viewer if type(viewer) is int else None) or {}
        table = {"title", "status", "over", "players", "shown_seat", "spectator", "outcome", "intro", "rules"}  # the table's facts
        assert not drawn or {k: v for k, v in drawn.items() if k not in table} == \
            {k: v for k, v in frame.board.items() if k not in table}, f"the frame of {viewer!r} is not the drawing of its view"
        if viewer is None:
            continue
        # An action's id is the game's number for a move, not a card's: it is left out here
        # (it may equal the id of a card another seat holds); its text and parts are kept.
        held = Holdings({**data, "actions": [{k: v for k, v in a.items() if k != "id"} for a in data["actions"]]})
        for owner, owned in secrets.items():
            for secret in owned:
                assert owner == viewer or not held.hold(secret), f"the frame of {viewer!r} holds {secret!r}, a secret of seat {owner}"


def check_determinize(s: Session, rng: random.Random) -> None:
    """A position dealt from any seat's view shows that seat exactly that view; dealt from
    the view of the seat to act, it offers that seat the same legal actions."""
    game = s.game
    if game.perfect_information:
        return
    for seat in range(s.num_players):
        view = s.view(seat)
        dealt = game.determinize(json_round(view), seat, random.Random(rng.randrange(2**31)))
        assert game.view(dealt, seat) == view, f"a position dealt from seat {seat}'s view shows it another view"
        if not s.is_over and seat == s.current_player:
            assert game.legal_actions(dealt) == s.legal_action_ids(), "a dealt position offers other legal actions"


def check_board(s: Session) -> None:
    """The board drawn for the full table, for each seat and for a spectator follows the
    schema; every legal action's click names an id on the board of the seat to act."""
    game = s.game
    if not has_hook(game, "board"):
        return
    viewers: list[tuple[dict[str, Any] | None, int | None]] = [(s.view(None), None)]
    viewers += [(s.view(seat), seat) for seat in range(s.num_players)]
    viewers.append((public_view(s), None))
    ids_of: dict[int | None, set[str]] = {}
    for view, seat in viewers:
        if view is None:
            continue
        board = game.board(view, seat)
        if board is None:
            continue
        problems, ids = board_problems(json_round(board), s.num_players)
        assert not problems, f"the board for seat {seat}: {problems[0]}"
        ids_of.setdefault(seat, ids)
    if s.is_over or s.current_player not in ids_of:
        return
    state = s.state
    for a in s.legal_action_ids():
        problems = click_problems(game.click(state, a), ids_of[s.current_player], s.action_text(a))
        assert not problems, problems[0]


def check_refusals(s: Session, offered: dict[int, str]) -> None:
    """Actions legal elsewhere in the game but not here (``offered``: id -> its text then),
    ids past either end and text naming nothing are refused with a clear GameError
    before anything changes."""
    legal = set(s.legal_action_ids())
    before = light_snapshot(s)
    others = [a for a in offered if a not in legal][:3]
    bads: list[Any] = [*others, max(legal, default=0) + 1, -1, "no such action at all"]
    for a in others:
        text = offered[a]
        try:
            named = s.action_id(text)
        except GameError:
            named = None
        if named not in legal:  # the text of an action legal elsewhere may name a legal one here (a short form)
            bads.append(text)
    for bad in bads:
        try:
            s.apply(bad)
        except GameFault as exc:
            raise AssertionError(f"{bad!r}: the game's own code failed instead of refusing it: {exc}") from exc
        except GameError as exc:
            assert str(exc).strip()
        else:
            raise AssertionError(f"{bad!r} is not a legal action, but it was applied")
        assert light_snapshot(s) == before, f"refusing {bad!r} changed the session"


def check_position(s: Session, rng: random.Random, offered: dict[int, str]) -> None:
    """The generic promises about one position (secrets and the board have tests of their own)."""
    legal = s.legal_action_ids()
    assert s.legal_action_ids() == legal and len(s.legal_actions()) == len(legal), "legal actions are stable"
    assert all(type(a) is int for a in legal) and len(set(legal)) == len(legal)
    assert s.is_over == (legal == []), "a legal action exists until the game is over, and none once it is"
    for a in legal:
        text = s.action_text(a)
        offered.setdefault(a, text)
        assert s.action_id(text) == a, f"the text {text!r} reads back as another action"
    check_refusals(s, offered)
    check_views(s)
    check_determinize(s, rng)
