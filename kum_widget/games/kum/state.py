"""The mutable core state of one game, in flat lists of card ids.

Cards are ints (their id in the :class:`Deck`); each zone is a list. Piles keep
their top at the END of the list (the deck's top card is ``deck[-1]``), so drawing
is ``pop()``. :class:`State` holds data only; :mod:`.rules` changes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import id_base
from .cards import RACES, Deck, Race
from .errors import InvalidStateError
from .ruleset import Rules
from .seats import rule_kings

__all__ = ["State", "PLAY", "DRAW", "DISCARD", "OVER", "PHASES", "SHARED", "FLAT", "NESTED", "MAPPED", "setup"]

PLAY, DRAW, DISCARD, OVER = 0, 1, 2, 3
PHASES = ("play", "draw", "discard", "over")


# Every field of a position, by how a copy treats it: the one list (``__slots__``,
# :meth:`State.clone` and the tests read it). The annotations in the class say what each is.
SHARED = ("rules", "cards", "n", "m", "base", "names", "kings", "king_seat", "seed", "first",
          "current", "phase", "deck_only", "turn", "plays")  # immutable values, shared by copies
FLAT = ("known", "deck", "mines", "pending")  # a list (or bytearray) of ints: copied
NESTED = ("hands", "mine_stacks", "claimed", "developed", "camp")  # a list of lists: each copied
MAPPED = ("stacks",)  # a dict of lists: each copied


class State:
    """One position. Cheap to :meth:`clone` (a few list copies), for tree search."""

    __slots__ = SHARED + FLAT + NESTED + MAPPED

    rules: Rules
    cards: Deck
    n: int  # cards in the deck table
    m: int  # mine slots
    base: int  # first non-play action id (see actions.py)
    names: tuple[str, ...]
    kings: tuple[int, ...]  # race index of each seat's King
    king_seat: tuple[int, ...]  # seat holding each race's King, or -1 (race not in the game)
    seed: int | None
    first: int
    hands: list[list[int]]  # in the order the cards were taken (that order is public)
    known: bytearray  # 1 for a card whose creature face everyone has seen (drawn from the Camp)
    deck: list[int]  # top at the end
    mines: list[int]  # card id per slot, -1 for an empty slot
    mine_stacks: list[list[int]]
    claimed: list[list[int]]  # per seat, mine ids in the order claimed
    stacks: dict[int, list[int]]  # claimed mine id -> its development stack
    developed: list[list[int]]
    camp: list[list[int]]  # per race index, bottom to top
    current: int
    phase: int
    deck_only: bool  # the stuck rule: this draw must come from the deck
    pending: list[int]  # slots to refill at the end of the turn (D1 "end_of_turn")
    turn: int  # turns completed
    plays: list[int] | None  # cached legal play ids for the current PLAY phase

    @property
    def players(self) -> int:
        return len(self.kings)

    def clone(self) -> State:
        """An independent copy (the deck table, rules and the cached plays are shared:
        the rules replace them, never change them in place)."""
        # Written out field by field (a getattr/setattr loop over the lists above costs
        # three times as much); tests/games/kum/test_speed_paths.py checks it follows the lists.
        s = State.__new__(State)
        s.rules, s.cards, s.n, s.m, s.base = self.rules, self.cards, self.n, self.m, self.base
        s.names, s.kings, s.king_seat, s.seed, s.first = self.names, self.kings, self.king_seat, self.seed, self.first
        s.current, s.phase, s.deck_only, s.turn, s.plays = self.current, self.phase, self.deck_only, self.turn, self.plays
        s.known, s.deck, s.mines, s.pending = self.known[:], self.deck[:], self.mines[:], self.pending[:]
        s.hands = [x[:] for x in self.hands]
        s.mine_stacks = [x[:] for x in self.mine_stacks]
        s.claimed = [x[:] for x in self.claimed]
        s.developed = [x[:] for x in self.developed]
        s.camp = [x[:] for x in self.camp]
        s.stacks = {k: v[:] for k, v in self.stacks.items()}
        return s

    def layout(self) -> dict[str, object]:
        """The position as JSON-safe data (card ids); see :func:`from_layout`."""
        return {
            "current": self.current,
            "phase": PHASES[self.phase],
            "deck_only": self.deck_only,
            "turn": self.turn,
            "hands": [h[:] for h in self.hands],
            "known": [c for h in self.hands for c in h if self.known[c]],
            "mines": [
                None if mine < 0 else {"mine": mine, "stack": st[:]}
                for mine, st in zip(self.mines, self.mine_stacks, strict=True)
            ],
            "claimed": [[{"mine": mine, "stack": self.stacks[mine][:]} for mine in c] for c in self.claimed],
            "developed": [d[:] for d in self.developed],
            "camp": {race.value: self.camp[race.index][:] for race in RACES},
            "deck": self.deck[::-1],
            "pending": self.pending[:],
        }

    def key(self) -> tuple[object, ...]:
        """Everything that makes two positions equal, as one comparable value."""
        return (
            self.kings, self.first, tuple(map(tuple, self.hands)),
            tuple(c for h in self.hands for c in h if self.known[c]),
            tuple(self.deck), tuple(self.mines), tuple(map(tuple, self.mine_stacks)),
            tuple(map(tuple, self.claimed)), tuple(sorted((k, tuple(v)) for k, v in self.stacks.items())),
            tuple(map(tuple, self.developed)), tuple(map(tuple, self.camp)),
            self.current, self.phase, self.deck_only, tuple(self.pending), self.turn,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.rules == other.rules and self.names == other.names and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]


def blank(rules: Rules, names: Sequence[str], kings: Sequence[int], seed: int | None, first: int) -> State:
    """An empty table with players seated and Kings dealt."""
    s = State.__new__(State)
    s.rules, s.cards = rules, rules.deck
    s.n, s.m = len(rules.deck), rules.mines
    s.base = id_base(s.n, s.m)
    s.names, s.kings, s.seed, s.first = tuple(names), tuple(kings), seed, first
    s.king_seat = tuple(kings.index(r) if r in kings else -1 for r in range(len(RACES)))
    p = len(kings)
    s.hands = [[] for _ in range(p)]
    s.known = bytearray(s.n)
    s.deck, s.mines = [], [-1] * s.m
    s.mine_stacks = [[] for _ in range(s.m)]
    s.claimed = [[] for _ in range(p)]
    s.stacks = {}
    s.developed = [[] for _ in range(p)]
    s.camp = [[] for _ in RACES]
    s.current, s.phase, s.deck_only, s.turn = first, PLAY, False, 0
    s.pending, s.plays = [], None
    return s


def setup(
    rules: Rules,
    names: Sequence[str],
    seed: int,
    races: Sequence[Race] | None = None,
    first_player: int | None = None,
) -> State:
    """Deal a new game from ``seed`` by the publisher's setup (RULES.md, Setup).

    The seeded generator shuffles the Kings, then the deck, then (if the rules say
    ``first_player="random"``) picks the first player, always in that order, so giving
    ``races`` by hand (or the rule ``races``, which they override) does not change the
    deck a seed deals.
    """
    players = len(names)
    rng = random.Random(seed)
    kings = [r.index for r in RACES]
    rng.shuffle(kings)
    kings = kings[:players]
    if races is not None:
        kings = [r.index for r in races]
    else:
        kings = rule_kings(rules, players) or kings
    deck = list(range(len(rules.deck)))
    rng.shuffle(deck)
    first = rules.first_player if first_player is None else first_player
    if first == "random":
        first = rng.randrange(players)
    if not 0 <= int(first) < players:
        raise InvalidStateError(f"first_player must be a seat 0..{players - 1}, got {first}")
    if len(deck) < rules.cards_needed(players):
        raise InvalidStateError(
            f"deck {rules.deck.name!r} has {len(deck)} cards; {players} players need at least "
            f"{rules.cards_needed(players)} with these rules"
        )
    s = blank(rules, names, kings, seed, int(first))
    s.deck = deck
    for slot in range(rules.mines):
        s.mines[slot] = deck.pop()
    for _ in range(rules.camp_cards):
        card = deck.pop()
        s.camp[s.cards.races[card]].append(card)
    for hand in s.hands:
        for _ in range(rules.hand_size):
            hand.append(deck.pop())
    return s
