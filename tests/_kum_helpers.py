"""Shared helpers for the property, golden and bad-input tests (not a test module)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

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
    for st in s.mine_stacks:
        ids += st
    for seat_claims in s.claimed:
        ids += seat_claims
    for st in s.stacks.values():
        ids += st
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
