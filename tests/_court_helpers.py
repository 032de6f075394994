"""Shared helpers for the Court of the Three Clans tests (not a test module).

Rules-class positions by card id (``cid``, ``position``, ``play``) for ``test_court.py`` and
``test_court_scoring.py``; public-API scenarios by card label (``card``, ``prince``,
``spaces``, ``refused``) for ``test_court_api.py`` and ``test_court_hostile.py``."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import kum_widget as kum
from kum_widget.core import GameError
from kum_widget.games.court import CourtOfTheThreeClans as Court
from kum_widget.games.court import CourtState, table_for
from kum_widget.games.court.state import BUYING

TABLE = table_for("standard")
PRINCES = {c.strength: c.id for c in TABLE.cards if c.prince}  # strength -> id (3,4,5,6,7,8,9,10,12)


def cid(clan: str, role: str, copy: int = 0) -> int:
    """The id of the ``copy``-th (0..2) card of ``clan`` and ``role`` in the standard table."""
    return [c.id for c in TABLE.cards if c.clan == clan and c.role == role][copy]


def position(row: Sequence[int | None], court: dict[str, int] | None = None, *, cp: int = 10, top: tuple[int, ...] = (),
             pile: list[int] | None = None, phase: str = BUYING, **kw: Any) -> CourtState:
    """A position: ``court`` by space name ("1.1"); ``top`` the next cards drawn, first first;
    every other card lies below them in the pile (or in ``kw``'s piles)."""
    spaces: list[int | None] = [None] * 8
    for name, card in (court or {}).items():
        r, c = map(int, name.split("."))
        spaces[(r - 1) * 4 + c - 1] = card
    used = {c for c in row if c is not None} | {c for c in spaces if c is not None} | set(top)
    for key in ("discarded", "defeated", "captured", "aside"):
        used |= set(kw.get(key, ()))
    if pile is None:
        pile = [c for c in range(len(TABLE)) if c not in used] + list(reversed(top))
    return CourtState(pile=pile, row=list(row), court=spaces, cp=cp, seed=1, phase=phase, **kw)


def play(game: Court, s: CourtState, *texts: str) -> list[str]:
    events: list[str] = []
    for text in texts:
        action = game.parse_action(s, text)
        assert action in game.legal_actions(s), f"{text!r} is not legal: {game.refusal(s, action)}"
        events += game.apply(s, action)
    return events


def all_cards(s: CourtState) -> list[int]:
    return [*s.pile, *(c for c in s.row if c is not None), *(c for c in s.court if c is not None),
            *s.discarded, *s.defeated, *s.captured, *s.aside]


def check_invariants(game: Court, s: CourtState) -> None:
    assert sorted(all_cards(s)) == list(range(len(game.table))), "every card exactly once"
    assert len(s.row) == 4 and len(s.court) == 8
    assert sum(c is not None for c in s.row) <= 4 and sum(c is not None for c in s.court) <= 8
    assert game.scores(s) == [float(sum(game.breakdown(s).values()))]
    assert s.cp >= 0


# -- the public API (labels, scenarios, refusals) ---------------------------------------------------

_PRINCES_BY_STRENGTH = sorted((c for c in TABLE if c.prince), key=lambda c: c.strength)


def card(clan: str, role: str, copy: int = 0) -> str:
    """The label of the ``copy``-th (0..2) card of a clan and role ("sun poet 3")."""
    return [c.label for c in TABLE if (c.clan, c.role) == (clan, role)][copy]




def prince(rank: int) -> str:
    """The label of the ``rank``-th weakest Daemon Prince (0..8)."""
    return _PRINCES_BY_STRENGTH[rank].label


def spaces(**named: str) -> list[str | None]:
    """A Royal Court from spaces named like ``s2_1="sun poet 3"``."""
    out: list[str | None] = [None] * 8
    for name, label in named.items():
        r, c = int(name[1]), int(name[3])
        out[(r - 1) * 4 + c - 1] = label
    return out


def labels(cards: list[Any]) -> list[str | None]:
    return [None if c is None else c.label for c in cards]


def cost(label: str) -> int:
    return TABLE[TABLE.find(label)].cost


@contextlib.contextmanager
def unchanged(g: kum.Court) -> Iterator[None]:
    before = (g.to_dict(), g.state_id, str(g), g.redo_count)
    yield
    assert (g.to_dict(), g.state_id, str(g), g.redo_count) == before


def refused(g: kum.Court, call: Any, error: type[GameError] = GameError, match: str | None = None) -> str:
    """``call()`` raises ``error`` (a ValueError) naming ``match``, and ``g`` is untouched."""
    with unchanged(g), pytest.raises(error, match=match) as info:
        call()
    assert isinstance(info.value, ValueError) and str(info.value)
    return str(info.value)


def midgame(seed: int = 5, moves: int = 12) -> kum.Court:
    """A game some moves in, with two moves undone (a redo list)."""
    g = kum.Court(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        g.apply(rng.choice(g.legal_actions()))
    g.undo(2)
    return g
