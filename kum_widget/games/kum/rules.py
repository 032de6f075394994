"""The rules: which actions are legal, and what applying one does.

Functions of a :class:`State` (boardgame.io style). ``legal_ids`` and ``apply_id``
are the hot path of simulation and tree search, so they work on int action ids and
the deck's flat tuples; :func:`refusal` explains in words why an action is illegal.
"""

from __future__ import annotations

from .actions import CAMP_OFFSET, DISCARD_OFFSET
from .cards import MAX_VALUE, RACES
from .events import (
    Claimed,
    Developed,
    Discarded,
    Drew,
    Event,
    GameOver,
    OverseerPlaced,
    Played,
    Refilled,
    Stuck,
)
from .state import DISCARD, DRAW, OVER, PLAY, State

__all__ = ["legal_ids", "is_legal", "apply_id", "refusal", "scores", "points", "winners", "begin_turn", "can_follow"]

# FOLLOWS[top + 1][value]: may a creature of `value` go on a stack whose top has value
# `top` (-1 for an empty stack)? Strictly higher, or a 0 on the highest value.
FOLLOWS = tuple(
    tuple(top < 0 or v > top or (v == 0 and top == MAX_VALUE) for v in range(MAX_VALUE + 1))
    for top in range(-1, MAX_VALUE + 1)
)
# Events are named tuples: built straight from their fields, without the Python-level
# __new__ a named tuple's class call runs (it would double the cost of each).
_new = tuple.__new__


def can_follow(top: int | None, value: int) -> bool:
    """The ordering rule: ``value`` may go on a stack topped by ``top`` (None when empty).

    >>> can_follow(5, 7), can_follow(7, 5), can_follow(9, 0), can_follow(None, 0)
    (True, False, True, True)
    """
    return FOLLOWS[0 if top is None else top + 1][value]


def _plays(s: State) -> list[int]:
    # Hot path (once per turn). Plain loops: on Python 3.11 a comprehension is a call of
    # its own, which costs more than the few pairs it visits. Cards in id order, then
    # targets in order, so the ids (card * m + slot, then offset + card * n + k) come
    # out sorted without a sort.
    cards = s.cards
    values = cards.values
    follows = FOLLOWS
    empty = follows[0]  # the row of an empty stack
    cur = s.current
    hand = sorted(s.hands[cur])
    m = s.m
    mines = s.mines
    open_rows: list[tuple[int, tuple[bool, ...]]] = []
    slot = 0
    for st in s.mine_stacks:
        if mines[slot] >= 0:
            open_rows.append((slot, follows[values[st[-1]] + 1] if st else empty))
        slot += 1
    out: list[int] = []
    add = out.append
    for c in hand:
        v = values[c]
        cm = c * m
        for slot, row in open_rows:
            if row[v]:
                add(cm + slot)
    claimed = s.claimed[cur]
    if claimed:
        own = s.kings[cur]
        races, sizes, overseers = cards.races, cards.sizes, cards.overseers
        stacks = s.stacks
        own_rows: list[tuple[int, tuple[bool, ...]]] = []  # the claimed mines only the own race may go on
        other_rows: list[tuple[int, tuple[bool, ...]]] = []  # and those it may not
        k = 0
        for mine in claimed:
            st = stacks[mine]
            row = follows[values[st[-1]] + 1] if st else empty
            # Own race only as the overseer on a full overseer mine; never otherwise.
            if overseers[mine] and len(st) >= sizes[mine]:
                own_rows.append((k, row))
            else:
                other_rows.append((k, row))
            k += 1
        n = s.n
        offset = n * m
        for c in hand:
            v = values[c]
            cn = offset + c * n
            for k, row in own_rows if races[c] == own else other_rows:
                if row[v]:
                    add(cn + k)
    return out


def legal_ids(s: State) -> list[int]:
    """Sorted ids of every legal action of the player to move (empty when over)."""
    phase = s.phase
    if phase == PLAY:
        plays = s.plays
        if plays is None:
            plays = s.plays = _plays(s)
        return plays[:]
    if phase == DRAW:
        b = s.base
        out = [b] if s.deck else []
        if not s.deck_only:
            b += CAMP_OFFSET
            for pile in s.camp:
                if pile:
                    out.append(b)
                b += 1
        return out
    if phase == DISCARD:
        b = s.base + DISCARD_OFFSET
        return sorted(b + c for c in s.hands[s.current])
    return []


def is_legal(s: State, aid: int) -> bool:
    """``aid in legal_ids(s)``, without building the list."""
    phase = s.phase
    if phase == PLAY:
        plays = s.plays
        if plays is None:
            plays = s.plays = _plays(s)
        return aid in plays
    if phase == DRAW and type(aid) is int:
        pile = aid - s.base
        if pile == 0:
            return bool(s.deck)
        pile -= CAMP_OFFSET
        return not s.deck_only and 0 <= pile < len(s.camp) and bool(s.camp[pile])
    return aid in legal_ids(s)


def begin_turn(s: State, log: list[Event] | None) -> None:
    """Start the current player's turn: play if they can, else the stuck rule (D3)."""
    s.plays = plays = _plays(s)
    if plays:
        s.phase = PLAY
        return
    discard = s.rules.stuck == "discard" and bool(s.hands[s.current])
    if log is not None:
        log.append(Stuck(s.current, "discard" if discard else "draw"))
    if discard:
        s.phase = DISCARD
    else:
        s.phase = DRAW
        s.deck_only = True
        _enter_draw(s, log)


def _enter_draw(s: State, log: list[Event] | None) -> None:
    # Only after the deck ran out under end="finish_round" can a draw have no source.
    if not s.deck and (s.deck_only or not any(s.camp)):
        _end_turn(s, log)


def _game_over(s: State, log: list[Event] | None) -> None:
    s.phase = OVER
    s.plays = None
    if log is not None:
        log.append(GameOver(tuple(scores(s)), tuple(winners(s))))


def _deck_emptied(s: State, log: list[Event] | None) -> bool:
    """D2: the deck just ran out. True if that ends the game now."""
    if s.rules.end == "immediate":
        s.turn += 1  # the turn in which the deck ran out is complete
        _game_over(s, log)
        return True
    return False


def _end_turn(s: State, log: list[Event] | None) -> None:
    deck = s.deck
    while s.pending:
        slot = s.pending.pop(0)
        if not deck:
            continue  # finish_round: the slot stays empty
        s.mines[slot] = mine = deck.pop()
        if log is not None:
            log.append(_new(Refilled, (slot, mine)))
        if not deck and _deck_emptied(s, log):
            return
    s.turn += 1
    s.deck_only = False
    if not deck and s.current == (s.first - 1) % len(s.kings):
        _game_over(s, log)  # finish_round: the round is complete
        return
    s.current = (s.current + 1) % len(s.kings)
    begin_turn(s, log)


def apply_id(s: State, aid: int, log: list[Event] | None = None) -> None:
    """Apply a LEGAL action id (the caller checks; see :func:`refusal`)."""
    base = s.base
    cur = s.current
    if aid >= base:
        if aid >= base + DISCARD_OFFSET:  # discard (stuck rule)
            card = aid - base - DISCARD_OFFSET
            s.hands[cur].remove(card)
            s.camp[s.cards.races[card]].append(card)
            if log is not None:
                log.append(_new(Discarded, (cur, card)))
            s.phase = DRAW
            s.deck_only = True
            _enter_draw(s, log)
            return
        if aid == base:
            card = s.deck.pop()
            race = None
        else:
            race = aid - base - CAMP_OFFSET
            card = s.camp[race].pop()
            s.known[card] = 1
        s.hands[cur].append(card)
        if log is not None:
            log.append(_new(Drew, (cur, card, race)))
        if not s.deck and race is None and _deck_emptied(s, log):
            return
        _end_turn(s, log)
        return
    s.plays = None
    n, m = s.n, s.m
    races = s.cards.races
    if aid < n * m:
        card, slot = divmod(aid, m)
        s.hands[cur].remove(card)
        st = s.mine_stacks[slot]
        st.append(card)
        mine = s.mines[slot]
        if log is not None:
            log.append(_new(Played, (cur, card, slot, None, mine)))
        if len(st) >= s.cards.defenses[mine]:
            race = races[card]
            owner = s.king_seat[race]
            reason = "king"
            if owner < 0:  # the race is not in the game: the player who played claims
                owner, reason = cur, "no_king"
            camp = s.camp
            for c in st:
                camp[races[c]].append(c)
            s.mine_stacks[slot] = []
            s.claimed[owner].append(mine)
            s.stacks[mine] = []
            if log is not None:
                log.append(_new(Claimed, (owner, mine, slot, cur, race, reason, tuple(st))))
            s.mines[slot] = -1
            if s.rules.refill == "immediate":
                if s.deck:
                    s.mines[slot] = new = s.deck.pop()
                    if log is not None:
                        log.append(_new(Refilled, (slot, new)))
                    if not s.deck and _deck_emptied(s, log):
                        return
            else:
                s.pending.append(slot)
    else:
        card, k = divmod(aid - n * m, n)
        mine = s.claimed[cur][k]
        s.hands[cur].remove(card)
        st = s.stacks[mine]
        st.append(card)
        if log is not None:
            log.append(_new(Played, (cur, card, None, k, mine)))
        size = s.cards.sizes[mine]
        if s.cards.overseers[mine]:
            done = len(st) > size
            if done and log is not None:
                log.append(_new(OverseerPlaced, (cur, card, mine)))
        else:
            done = len(st) >= size
        if done:
            camp = s.camp
            for c in st:
                camp[races[c]].append(c)
            del s.stacks[mine]
            s.claimed[cur].remove(mine)
            s.developed[cur].append(mine)
            if log is not None:
                log.append(_new(Developed, (cur, mine, tuple(st))))
    s.phase = DRAW
    if not s.deck:
        _enter_draw(s, log)


def points(s: State, seat: int) -> tuple[int, int]:
    """(developed points, points of claimed but undeveloped mines) of ``seat``."""
    pts = s.cards.points
    return sum(pts[c] for c in s.developed[seat]), sum(pts[c] for c in s.claimed[seat])


def scores(s: State) -> list[int]:
    """Developed points minus undeveloped claimed points, per seat (also mid-game)."""
    pts = s.cards.points
    out = []
    for developed, claimed in zip(s.developed, s.claimed, strict=False):  # loops (and no strict zip): the heuristic asks at every draw
        score = 0
        for c in developed:
            score += pts[c]
        for c in claimed:
            score -= pts[c]
        out.append(score)
    return out


def winners(s: State) -> list[int]:
    """Seats on the top score (D4: ties share; "developed" breaks ties by developed points)."""
    sc = scores(s)
    best = max(sc)
    top = [seat for seat, v in enumerate(sc) if v == best]
    if s.rules.ties == "developed" and len(top) > 1:
        dev = {seat: points(s, seat)[0] for seat in top}
        most = max(dev.values())
        top = [seat for seat in top if dev[seat] == most]
    return top


def refusal(s: State, aid: int) -> str | None:
    """Why action ``aid`` is illegal now, in words naming the rule; None if it is legal."""
    if aid in legal_ids(s):
        return None
    from .actions import Draw, Play, action_from_id  # local: keeps the hot path import-light

    deck = s.cards
    names = s.names
    cur = s.current
    who = names[cur]
    if s.phase == OVER:
        return "the game is over"
    action = action_from_id(aid, s.n, s.m)
    if s.phase == DISCARD:
        if isinstance(action, Play) or isinstance(action, Draw):
            return f"{who} has no legal play and must first discard a card (stuck rule)"
        return f"{deck[action.card].label} is not in {who}'s hand"
    if s.phase == DRAW:
        if not isinstance(action, Draw):
            if s.deck_only:
                return f"{who} had no legal play and must now draw from the deck"
            return f"{who} has played this turn and must now draw"
        if s.deck_only and action.race is not None:
            return f"after a stuck discard {who} must draw from the deck"
        if action.race is None:
            return "the deck is empty"
        return f"the {action.race.value} camp pile is empty"
    if not isinstance(action, Play):
        if isinstance(action, Draw):
            return f"{who} must play a creature before drawing"
        return f"{who} has a legal play, so may not discard"
    card = deck[action.card]
    if action.card not in s.hands[cur]:
        return f"{card.label} is not in {who}'s hand"
    if action.slot is not None:
        if action.slot >= s.m:
            return f"there is no mine {action.slot + 1}: mines are 1..{s.m}"
        if s.mines[action.slot] < 0:
            return f"mine {action.slot + 1} is empty"
        st = s.mine_stacks[action.slot]
        top = deck[st[-1]]
        return f"{card.creature} cannot go on mine {action.slot + 1}: top card is {top.creature}"
    k = action.claim or 0
    claimed = s.claimed[cur]
    if k >= len(claimed):
        have = f"claimed mines 1..{len(claimed)}" if claimed else "no claimed mine"
        return f"{who} has {have}, so no claimed mine {k + 1} (only its owner plays on a claimed mine)"
    mine = claimed[k]
    st = s.stacks[mine]
    own = RACES[s.kings[cur]].value
    where = f"{who}'s claimed mine {k + 1}"
    if s.cards.overseers[mine] and len(st) >= s.cards.sizes[mine]:
        if card.race.index != s.kings[cur]:
            return f"{where} is full: its overseer must be of {who}'s own race ({own})"
    elif card.race.index == s.kings[cur]:
        if s.cards.overseers[mine]:
            return f"{card.creature} cannot go on {where}: {who}'s own race ({own}) goes there only as the overseer, once the mine is full"
        return f"{card.creature} cannot go on {where}: {who} may not play their own race ({own}) on their claimed mines"
    top = deck[st[-1]]
    return f"{card.creature} cannot go on {where}: top card is {top.creature}"
