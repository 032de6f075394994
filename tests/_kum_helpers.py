"""Shared helpers for Kings Under Mountains' property, golden and bad-input tests (not a test
module): positions and what they must keep, and how bad input must be refused (``expect_error``,
``refused``, ``brief_kum_error``) with the values and fuzzing strategies the bad-input tests
share."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget.games.kum.actions import action_from_id
from kum_widget.games.kum.ruleset import _CHOICES

# Every combination of the named rule options (D1-D6), as keyword dicts.
ALL_RULE_COMBOS: list[dict[str, str]] = [
    dict(zip(_CHOICES, combo, strict=True)) for combo in itertools.product(*_CHOICES.values())
]

# The exceptions that must never escape the public API for bad input.
FORBIDDEN = (KeyError, IndexError, TypeError, AttributeError)


def max_action_id(game: kum.Game) -> int:
    """The largest valid action id for this game's deck size and mine count."""
    s = game.state
    return s.n * s.m + s.n * s.n + 4 + s.n


def private_card_ids(game: kum.Game) -> list[int]:
    """Every card id, read from the private State zones (with repeats if any)."""
    s = game.state
    ids: list[int] = list(s.deck)
    for hand in s.hands:
        ids += hand
    ids += [m for m in s.mines if m >= 0]
    for stack in s.mine_stacks:
        ids += stack
    for seat_claims in s.claimed:
        ids += seat_claims
    for stack in s.stacks.values():
        ids += stack
    for dev in s.developed:
        ids += dev
    for pile in s.camp:
        ids += pile
    return ids


def public_card_ids(game: kum.Game) -> list[int]:
    """Every card id outside the deck, read through the public API."""
    ids: list[int] = []
    for seat in range(game.num_players):
        ids += [c.id for c in game.hand(seat)]
        for cm in game.claimed(seat):
            ids.append(cm.card.id)
            ids += [c.id for c in cm.stack]
        ids += [c.id for c in game.developed(seat)]
    for mine in game.mines:
        if mine.card is not None:
            ids.append(mine.card.id)
        ids += [c.id for c in mine.stack]
    for pile in game.camp.values():
        ids += [c.id for c in pile]
    return ids


def check_conservation(game: kum.Game, *, public: bool = True) -> None:
    """Each card id of the deck table lies in exactly one place (private and public views)."""
    n = len(game.deck)
    if not public:  # the fast path, for probes
        assert sorted(private_card_ids(game)) == list(range(n))
        return
    counts = Counter(private_card_ids(game))
    assert sorted(counts) == list(range(n)), f"missing cards: {set(range(n)) - set(counts)}"
    dup = {c: k for c, k in counts.items() if k != 1}
    assert not dup, f"cards present more than once: {dup}"
    pub = public_card_ids(game)
    assert len(pub) == len(set(pub))
    assert len(pub) + game.deck_size == n
    assert set(pub).isdisjoint(game.state.deck)
    # The stacks dict holds exactly the claimed (undeveloped) mines.
    s = game.state
    assert sorted(s.stacks) == sorted(m for c in s.claimed for m in c)


def expected_scores(game: kum.Game) -> list[int]:
    return [
        sum(c.points for c in game.developed(seat)) - sum(cm.card.points for cm in game.claimed(seat))
        for seat in range(game.num_players)
    ]


def expected_winners(game: kum.Game) -> list[int]:
    sc = expected_scores(game)
    top = [seat for seat, v in enumerate(sc) if v == max(sc)]
    if game.rules.ties == "developed" and len(top) > 1:
        dev = {seat: sum(c.points for c in game.developed(seat)) for seat in top}
        top = [seat for seat in top if dev[seat] == max(dev.values())]
    return top


def play_out(game: kum.Game, rng: random.Random, limit: int = 1000, each=None) -> list[int]:
    """Apply random legal actions until the game ends; return the ids applied.

    ``each(game)`` runs before the first action and after every action."""
    applied: list[int] = []
    if each is not None:
        each(game)
    while not game.is_over:
        assert len(applied) < limit, f"game did not end within {limit} actions"
        legal = game.legal_action_ids()
        assert legal, f"no legal action but the game is not over: phase {game.phase}"
        aid = rng.choice(legal)
        game.apply(aid)
        applied.append(aid)
        if each is not None:
            each(game)
    return applied


def illegal_sample(game: kum.Game, rng: random.Random, k: int) -> list[int]:
    """Up to ``k`` random action ids in range that are not legal now."""
    legal = set(game.legal_action_ids())
    top = max_action_id(game)
    out: list[int] = []
    tries = 0
    while len(out) < k and tries < 50 * k:
        tries += 1
        aid = rng.randint(0, top)
        if aid not in legal:
            out.append(aid)
    # Always include a few that are likely in the right family (near the legal ones).
    for aid in sorted(legal)[:2]:
        for near in (aid - 1, aid + 1):
            if 0 <= near <= top and near not in legal:
                out.append(near)
    return out


def as_action(game: kum.Game, aid: int):
    s = game.state
    return action_from_id(aid, s.n, s.m)


def json_round(value: Any) -> Any:
    return json.loads(json.dumps(value))


def walk(value: Any, path: tuple = ()):
    """Yield (path, key, value) for every dict entry of a JSON-like tree."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k, v
            yield from walk(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, (*path, i))


def play_twins(g: kum.Game, twin: kum.Game, fast: list[Any], plain: list[Any]) -> None:
    """Play ``g`` to the end by ``bot_move`` with the ``fast`` bots, checking at every move
    that the ``plain`` bots, shown ``twin``'s view and action objects, choose the same."""
    from kum_widget.bots import bot_move

    while not g.is_over:
        seat = twin.current_player
        move = bot_move(g, fast[seat])
        assert move == plain[seat].choose(twin.view(seat), twin.legal_actions())
        g.apply(move)
        twin.apply(move)


# -- bad input: how it is refused, and the values tried -----------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def expect_error(fn: Callable[[], object], exc: type[Exception] = kum.KumError, *words: str) -> Exception:
    """Call ``fn``; it must raise ``exc`` (a KumError) whose message holds every word."""
    try:
        fn()
    except Exception as e:  # classified below
        assert isinstance(e, kum.KumError), f"expected a kum.KumError, got {type(e).__name__}: {e}"
        assert isinstance(e, ValueError)
        assert not isinstance(e, FORBIDDEN), f"{type(e).__name__} must not escape: {e}"
        assert isinstance(e, exc), f"expected {exc.__name__}, got {type(e).__name__}: {e}"
        msg = str(e).lower()
        assert msg.strip(), "the error message is empty"
        for w in words:
            assert w.lower() in msg, f"{w!r} not in message {str(e)!r}"
        return e
    pytest.fail("no error raised")


def refused(game: kum.Game, fn: Callable[[], object], exc: type[Exception] = kum.KumError, *words: str) -> Exception:
    """Like expect_error, and the game must be exactly as it was."""
    before, text, sid, twin = game.to_dict(), str(game), game.state_id, game.clone()
    hands = [game.hand(s) for s in range(game.num_players)]
    err = expect_error(fn, exc, *words)
    assert game.to_dict() == before
    assert str(game) == text
    assert game == twin
    assert game.state_id == sid
    assert [game.hand(s) for s in range(game.num_players)] == hands
    return err


def only_kum_errors(fn: Callable[[], object]) -> None:
    """For fuzzing: success or a KumError are fine; anything else escapes and fails."""
    try:
        fn()
    except kum.KumError:
        pass


def fresh(seed: int = 11, turns: int = 0) -> kum.Game:
    game = kum.Game(["Ada", "Bo"], seed=seed)
    rng = random.Random(seed)
    for _ in range(2 * turns):
        game.apply(rng.choice(game.legal_action_ids()))
    return game


def finished(seed: int = 11) -> kum.Game:
    game = kum.Game(["Ada", "Bo"], seed=seed)
    play_out(game, random.Random(seed))
    return game


def _nested(depth: int, make: Callable[[Any], Any]) -> Any:
    value: Any = []
    for _ in range(depth):
        value = make(value)
    return value


HOSTILE: dict[str, Any] = {
    "deep list": _nested(100_000, lambda v: [v]), "deep dict": _nested(100_000, lambda v: {"a": v}),
    "list of deep": [_nested(100_000, lambda v: [v])], "5000 digits": 10**5000, "-5000 digits": -(10**5000),
    "big int": 2**70, "nul": "a\x00b", "long text": "x" * 1_000_000, "nan": float("nan"), "inf": float("-inf"),
    "bool": True, "none": None, "bytes": b"\x00", "set": {1, 2}, "tuple": (1, 2), "object": object(),
    "int keys": {1: [2]}, "tuple key": {((1,),): 1}, "long list": list(range(100_000)), "float": 1.5,
}


def brief_kum_error(where: str, fn: Callable[[], object]) -> None:
    """``fn`` succeeds or raises a KumError with a short message; nothing else escapes."""
    try:
        fn()
    except kum.KumError as e:
        assert len(str(e)) < 400, f"{where}: the message is {len(str(e))} characters"
    except Exception as e:  # the point of the test: anything else fails it, saying where
        pytest.fail(f"{where}: {type(e).__name__}: {str(e)[:200]}")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


action_like = st.from_regex(
    r"(play|draw|discard|PLAY|Draw)( +| *#)?[a-z#0-9 \[\]]{0,16}( (on|onto) (mine|claimed)? ?-?[0-9]{0,3})?",
    fullmatch=True,
)
