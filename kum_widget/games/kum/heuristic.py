"""The greedy heuristic, scored on a position: GreedyBot's choice and ISMCTS's rollouts.

``score_actions(s, ids)`` rates each legal action of the player to move reading only
what that player knows: their own hand, the table, the Camp and the deck's size. On a
determinized position (see ``engine.sampling``) that is exactly the seat's view, so
the same code serves a bot that must not see hidden cards.

* A play that claims a mine for yourself is worth the mine's expected value: its
  points if developed, minus them if not, weighted by how likely it is to be
  developed before the deck runs out (large and overseer mines are less likely).
* A claim that goes to another King is worth minus that player's expected value: it
  happily saddles a rival with a mine they will struggle to develop.
* A play on your own claimed mine is worth the progress; finishing it, twice its points.
* Leaving an available mine one card short of its defense costs a little; your own
  race's creatures are kept for overseers; a Camp card is drawn when it fits one of
  your mines, the deck (hurrying the end) when you lead.

``score_view(view, ids, deck)`` gives the same scores from the seat's view itself (the
greedy bot's path: no position to deal). Both read the table through the same helpers,
so they agree exactly (tests/games/kum/test_speed_paths.py checks it on many positions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import CAMP_OFFSET, DISCARD_OFFSET, id_base
from .cards import RACES, Deck
from .rules import FOLLOWS, scores
from .state import DISCARD, DRAW, PHASES, PLAY, State

__all__ = ["score_actions", "score_view", "best_actions"]

_RACE_INDEX = {race.value: race.index for race in RACES}
_RACE_NAMES = tuple(race.value for race in RACES)
_DRAW, _DISCARD, _PLAY = PHASES[DRAW], PHASES[DISCARD], PHASES[PLAY]

# What the player to move knows of their claimed mines, one tuple per mine in claim
# order: (the FOLLOWS row of its stack's top, points, full overseer mine, overseer,
# stack length, size).
Claim = tuple[tuple[bool, ...], int, bool, bool, int, int]


def _develop_chance(size: int, over: bool, have: int, deck_size: int, players: int) -> float:
    need = size - have + (1 if over else 0)
    q = 0.95 - 0.13 * need - (0.1 if over else 0.0)
    turns_left = deck_size / players
    if turns_left < 2 * need:
        q *= max(0.1, turns_left / (2 * need))
    return min(0.95, max(0.05, q))


_KEEP_PER_VALUE = 0.1  # a card fits no claimed mine: a high one is still worth a little more


def _useful(claims: list[Claim], own_race: int, value: int, race: int) -> float:
    """How much the player to move wants to keep a card (its value, race) for their claimed mines."""
    best = _KEEP_PER_VALUE * value
    if not claims:
        return best
    own = race == own_race
    for row, pts, full, over, _, _ in claims:
        if not row[value]:
            continue
        if full and own:
            keep = 2.0 * pts
        elif not full and not own:
            keep = 0.4 * pts
        elif over and own:
            keep = 0.5 * pts
        else:
            continue
        if keep > best:
            best = keep
    return best


def _slot_term(defense: int, size: int, pts: int, over: bool, stack: int, deck_size: int, players: int) -> tuple[bool, float]:
    """Does one more card claim this mine, and what is that worth (or what does leaving
    it one short cost)?"""
    after = stack + 1
    if after >= defense:
        return (True, pts * (2 * _develop_chance(size, over, 0, deck_size, players) - 1))
    return (False, -0.25 * pts if defense - after == 1 else 0.0)


def _scores(
    ids: Sequence[int], phase: int, d: Deck, n: int, m: int, cur: int, hand: Sequence[int], own_race: int,
    king_seat: Sequence[int], claims: list[Claim], slot_terms: list[tuple[bool, float]],
) -> list[float]:
    """The PLAY and DISCARD scores, from what the player to move knows (either path)."""
    base = id_base(n, m)
    values, races = d.values, d.races
    if phase == DISCARD:
        return [-_useful(claims, own_race, values[c], races[c]) for c in (a - base - DISCARD_OFFSET for a in ids)]
    keep = {}
    for card in hand:  # _useful, inlined: once per card of every rollout move (test_speed_paths holds them equal)
        v = values[card]
        own = races[card] == own_race
        best = _KEEP_PER_VALUE * v
        for row, pts, full, over, _, _ in claims:
            if not row[v]:
                continue
            if full and own:
                worth = 2.0 * pts
            elif not full and not own:
                worth = 0.4 * pts
            elif over and own:
                worth = 0.5 * pts
            else:
                continue
            if worth > best:
                best = worth
        keep[card] = best
    offset = n * m
    out: list[float] = []
    add = out.append
    for a in ids:
        if a < offset:
            card = a // m
            claims_it, value = slot_terms[a - card * m]
            if claims_it:
                claimer = king_seat[races[card]]
                add(-0.5 * keep[card] + (value if claimer == cur or claimer == -1 else -value))
            else:
                add(-0.5 * keep[card] + value + 0.02 * values[card])  # a high top card blocks
        else:
            card, k = divmod(a - offset, n)
            _, pts, _, over, have, size = claims[k]
            cost = -0.3 * keep[card]
            after = have + 1
            if (over and have >= size) or (not over and after >= size):
                add(cost + 2 * pts + 1)
                continue
            need = size - after + (1 if over else 0)
            score = cost + pts / (need + 1)
            if over and after == size:
                value = values[card]
                if not any(races[c] == own_race and FOLLOWS[value + 1][values[c]] for c in hand if c != card):
                    score -= 0.5 * pts  # full, with no own-race card to finish it
            add(score - 0.05 * values[card])  # low cards leave room on the stack
    return out


def _draw_scores(ids: Sequence[int], base: int, lead: int, claims: list[Claim], own_race: int,
                 tops: Sequence[tuple[int, int] | None]) -> list[float]:
    """The DRAW scores: ``tops`` is each Camp pile's top card as (value, race), or None."""
    out = []
    for a in ids:
        if a == base:
            out.append(0.5 + (1.0 if lead > 0 else 0.0))
        else:
            top = tops[a - base - CAMP_OFFSET]
            out.append(_useful(claims, own_race, top[0], top[1]) if top is not None else -1e9)
    return out


def _lead(sc: Sequence[int], cur: int) -> int:
    best = None
    p = 0
    for v in sc:  # a loop, not a generator: this runs at every draw of every rollout
        if p != cur and (best is None or v > best):
            best = v
        p += 1
    if best is None:
        raise ValueError("a lead needs two seats or more")
    return sc[cur] - best


def _claims(s: State, cur: int) -> list[Claim]:
    d = s.cards
    values, sizes, overseers, points = d.values, d.sizes, d.overseers, d.points
    claims: list[Claim] = []
    for mine in s.claimed[cur]:
        st = s.stacks[mine]
        over = overseers[mine]
        claims.append((FOLLOWS[values[st[-1]] + 1] if st else FOLLOWS[0], points[mine], over and len(st) >= sizes[mine],
                       over, len(st), sizes[mine]))
    return claims


def score_actions(s: State, ids: list[int]) -> list[float]:
    """A heuristic score for each action id in ``ids`` (higher is better)."""
    phase = s.phase
    if phase not in (PLAY, DRAW, DISCARD):
        return [0.0] * len(ids)
    d = s.cards
    values = d.values
    cur = s.current
    sizes, overseers = d.sizes, d.overseers
    claims = _claims(s, cur)
    own_race = s.kings[cur]
    if phase == DRAW:
        races = d.races
        tops: list[tuple[int, int] | None] = []
        for pile in s.camp:
            tops.append((values[pile[-1]], races[pile[-1]]) if pile else None)
        return _draw_scores(ids, s.base, _lead(scores(s), cur), claims, own_race, tops)
    slot_terms: list[tuple[bool, float]] = []
    if phase == PLAY:
        deck_size, players = len(s.deck), len(s.kings)
        defenses, points = d.defenses, d.points
        # _slot_term inlined (with _develop_chance of a mine not begun): once per mine of every rollout move;
        # indexed, not zip(strict=True), which costs 1% of a search (mines and mine_stacks have one entry a slot)
        stacks = s.mine_stacks
        slot = -1
        for mine in s.mines:
            slot += 1
            if mine < 0:
                slot_terms.append((False, 0.0))
            else:
                pts = points[mine]
                after = len(stacks[slot]) + 1
                defense = defenses[mine]
                if after >= defense:
                    over = overseers[mine]
                    need = sizes[mine] + (1 if over else 0)
                    q = 0.95 - 0.13 * need - (0.1 if over else 0.0)
                    turns_left = deck_size / players
                    if turns_left < 2 * need:
                        share = turns_left / (2 * need)
                        q *= share if share > 0.1 else 0.1
                    q = 0.05 if q < 0.05 else 0.95 if q > 0.95 else q  # min(0.95, max(0.05, q)), without two calls
                    slot_terms.append((True, pts * (2 * q - 1)))
                else:
                    slot_terms.append((False, -0.25 * pts if defense - after == 1 else 0.0))
    return _scores(ids, phase, d, s.n, s.m, cur, s.hands[cur], own_race, s.king_seat, claims, slot_terms)


def score_view(view: Mapping[str, Any], ids: Sequence[int], deck: Deck) -> list[float]:
    """:func:`score_actions` read from the view of the seat to move (``view["seat"]``
    must be ``view["current"]``): the same scores, with no position dealt."""
    phase = PHASES.index(view["phase"])
    if phase not in (PLAY, DRAW, DISCARD):
        return [0.0] * len(ids)
    cur = view["current"]
    players = view["players"]
    me = players[cur]
    claims: list[Claim] = []
    for claim in me["claimed"]:
        f, st = claim["mine"], claim["stack"]
        over = f["overseer"]
        claims.append((FOLLOWS[st[-1]["value"] + 1] if st else FOLLOWS[0], f["points"], over and len(st) >= f["size"],
                       over, len(st), f["size"]))
    own_race = _RACE_INDEX[me["king"]]
    n, m = len(deck), len(view["mines"])
    if phase == DRAW:
        camp = view["camp"]
        tops = []
        for name in _RACE_NAMES:
            pile = camp.get(name)
            tops.append((pile[-1]["value"], _RACE_INDEX[pile[-1]["race"]]) if pile else None)
        return _draw_scores(ids, id_base(n, m), _lead(view["scores"], cur), claims, own_race, tops)
    slot_terms: list[tuple[bool, float]] = []
    if phase == PLAY:
        deck_size, count = view["deck"]["size"], len(players)
        for mine in view["mines"]:
            f = mine["mine"]
            slot_terms.append((False, 0.0) if f is None else _slot_term(
                f["defense"], f["size"], f["points"], f["overseer"], len(mine["stack"]), deck_size, count))
    king_seat = [-1] * len(RACES)
    for p in players:
        king_seat[_RACE_INDEX[p["king"]]] = p["seat"]
    hand = [c["id"] for c in me["hand"]]
    return _scores(ids, phase, deck, n, m, cur, hand, own_race, king_seat, claims, slot_terms)


def best_actions(s: State, ids: list[int]) -> list[int]:
    """The ids with the top score (within 1e-9 of it, in id order): ``CardGame.best_actions``
    without its two calls on the way to :func:`score_actions` (ISMCTS asks at every rollout step)."""
    if s.phase == DRAW and ids:
        sc = _draw_scores_for_best(s, ids)
    else:
        sc = score_actions(s, ids)
        if not sc:
            return []
    bar = max(sc) - 1e-9  # core.game.top_actions, inlined: calling it costs 3% of a search
    out = []
    i = 0
    for v in sc:  # a loop: zip(strict=True) costs twice as much, at every rollout move (one score an id)
        if v >= bar:
            out.append(ids[i])
        i += 1
    return out


def _draw_scores_for_best(s: State, ids: list[int]) -> list[float]:
    """:func:`_draw_scores` as far as the best draws go: the deck's score (0.5, or 1.5 when
    leading) is worked out only when it decides (the lead sums every seat's mines), else
    it stands at a score that neither wins nor ties."""
    cur, base, camp = s.current, s.base, s.camp
    d = s.cards
    values, races = d.values, d.races
    claims, own_race = _claims(s, cur), s.kings[cur]
    out: list[float] = []
    deck = -1
    top = -1e9
    for a in ids:
        if a == base:
            deck = len(out)
            out.append(-2e9)
            continue
        pile = camp[a - base - CAMP_OFFSET]
        v = _useful(claims, own_race, values[pile[-1]], races[pile[-1]]) if pile else -1e9
        out.append(v)
        if v > top:
            top = v
    if deck >= 0:
        if top < 0.5 - 1e-9:  # the deck wins whatever the lead
            out[deck] = 0.5
        elif top <= 1.5 + 1e-9:  # the lead decides (tests: test_the_best_draws_work_out_the_lead...)
            out[deck] = 0.5 + (1.0 if _lead(scores(s), cur) > 0 else 0.0)
    return out
