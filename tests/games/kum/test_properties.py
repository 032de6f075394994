"""Property tests of Kings Under Mountains' own rules over random games (hypothesis), for 2,
3 and 4 players: the legal actions against an independent reading of the brief, every card
in one place, scoring, events, what each seat may see (D6), every rule option, custom decks
and scenarios.

Games are driven by a seeded ``random.Random`` choosing among ``game.legal_action_ids()``,
so every failure shrinks to a (seed, players) pair that replays exactly. The promises every
game makes (undo and redo, records and dicts at every step, determinism, copies, bad seats,
JSON views, secrets) are tests/core/test_conformance.py's, for this game too.
"""

from __future__ import annotations

import json
import random

import pytest
from _kum_helpers import (
    ALL_RULE_COMBOS,
    as_action,
    check_conservation,
    expected_scores,
    expected_winners,
    illegal_sample,
    json_round,
    play_out,
    walk,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget.core.records import split_record
from kum_widget.games.kum.events import event_to_dict

SEEDS = st.integers(0, 2**31 - 1)
PLAYERS = st.sampled_from([2, 3, 4])
COMBOS = st.sampled_from(ALL_RULE_COMBOS)
LIMIT = 1000  # actions; random games take at most ~270 (measured over 2000+ games)

# Example counts keep the whole file to roughly 15-20 s.
_HC = [HealthCheck.too_slow]
FEW = settings(max_examples=3, deadline=None, suppress_health_check=_HC)
SOME = settings(max_examples=20, deadline=None, suppress_health_check=_HC)
FEW_VIEWS = settings(max_examples=12, deadline=None, suppress_health_check=_HC)
MANY = settings(max_examples=30, deadline=None, suppress_health_check=_HC)


def new_game(seed: int, players: int, **rules: object) -> kum.Game:
    return kum.Game(players, seed=seed, rules=kum.Rules(**rules) if rules else None)


# -- an independent reading of the rules brief, to check legal_actions against ------------

def _follows(top: int | None, value: int) -> bool:
    return top is None or value > top or (value == 0 and top == 9)


def oracle_legal(game: kum.Game) -> set[str]:
    """The legal actions of the player to move, as text, from the brief alone."""
    out: set[str] = set()
    seat = game.current_player
    hand = game.hand(seat)
    if game.phase == "over":
        return out
    if game.phase == "play":
        for mine in game.mines:
            if mine.card is None:
                continue
            top = mine.stack[-1].value if mine.stack else None
            for c in hand:
                if _follows(top, c.value):
                    out.add(f"play {c.label} on mine {mine.number}")
        own = game.king(seat)
        for cm in game.claimed(seat):
            top = cm.stack[-1].value if cm.stack else None
            full = cm.card.overseer and len(cm.stack) >= cm.card.size
            for c in hand:
                if _follows(top, c.value) and ((c.race == own) == full):
                    out.add(f"play {c.label} on claimed {cm.number}")
        return out
    if game.phase == "discard":
        return {f"discard {c.label}" for c in hand}
    if game.deck_size:
        out.add("draw deck")
    if not game._state.deck_only:
        out |= {f"draw camp {race.value}" for race, pile in game.camp.items() if pile}
    return out


def check_legal_matches_oracle(game: kum.Game) -> None:
    legal = game.legal_action_ids()
    assert legal == sorted(legal), "legal_action_ids must be sorted"
    texts = {game.action_text(a) for a in legal}
    assert len(texts) == len(legal)
    assert texts == oracle_legal(game)
    if game.phase == "play":
        assert legal, "the play phase must offer a play (else the stuck rule applies)"
    if game.phase == "discard":
        # D3: only a player with no legal play discards.
        probe = game.clone()
        probe._state.phase = 0
        probe._state.plays = None
        assert probe.legal_action_ids() == [], "discard phase although a play exists"
    if not game.is_over:
        assert game.deck_size > 0 or game.rules.end == "finish_round"


# -- card conservation, legality, every legal action applies -----------------------------

@SOME
@given(seed=SEEDS, players=PLAYERS)
def test_conservation_and_legal_actions_every_step(seed: int, players: int) -> None:
    game = new_game(seed, players)
    assert len(game.deck) == 80

    def each(g: kum.Game) -> None:
        check_conservation(g)
        check_legal_matches_oracle(g)
        for aid in g.legal_action_ids():
            probe = g.clone()
            probe.apply(aid)  # every legal action applies without error
            check_conservation(probe, public=False)

    play_out(game, random.Random(seed), LIMIT, each)
    assert game.legal_actions() == []
    assert game.deck_size == 0


@FEW_VIEWS
@given(seed=SEEDS, players=PLAYERS)
def test_illegal_actions_in_every_form_raise_the_games_own_errors(seed: int, players: int) -> None:
    """Ids of this game's action space that are illegal now, as ids, action objects and
    texts, raise IllegalActionError or InvalidActionError and change nothing; once over, the
    refusal says so. (That any game refuses illegal actions before any change, with a
    GameError, is test_conformance.py's.)"""
    game = new_game(seed, players)
    rng = random.Random(seed ^ 0x5EED)

    def each(g: kum.Game) -> None:
        snapshot = g.clone()
        for i, aid in enumerate(illegal_sample(g, rng, 4)):
            forms: list[object] = [aid]
            if i < 2:
                forms += [as_action(g, aid), g.action_text(aid)]
            for form in forms:
                with pytest.raises((kum.IllegalActionError, kum.InvalidActionError)) as info:
                    g.apply(form)  # type: ignore[arg-type]
                assert str(info.value)
                assert g == snapshot

    play_out(game, rng, LIMIT, each)
    # After the end, nothing at all is legal.
    for aid in illegal_sample(game, rng, 10):
        with pytest.raises(kum.IllegalActionError, match="over"):
            game.apply(aid)


# -- termination under every rule option ---------------------------------------------------

@pytest.mark.parametrize("options", ALL_RULE_COMBOS, ids=lambda o: "-".join(o.values()))
def test_every_rule_combination_terminates(options: dict[str, str]) -> None:
    for players in (2, 3, 4):
        seed = 1000 * players + 17
        game = kum.Game(players, seed=seed, rules=kum.Rules(**options, first_player="random"))
        play_out(game, random.Random(seed), LIMIT, lambda g: check_conservation(g, public=False))
        assert game.is_over
        check_conservation(game)
        assert game.scores() == expected_scores(game)
        assert sorted(game.winners()) == expected_winners(game)
        assert kum.Game.from_record(game.record()) == game
        assert kum.Game.from_dict(json_round(game.to_dict())) == game


@MANY
@given(seed=SEEDS, players=PLAYERS, options=COMBOS)
def test_random_rule_options_terminate_and_conserve(seed: int, players: int, options: dict[str, str]) -> None:
    game = kum.Game(players, seed=seed, rules=kum.Rules(**options, first_player="random"))
    assert 0 <= game.first_player < players

    def each(g: kum.Game) -> None:
        check_conservation(g)
        check_legal_matches_oracle(g)

    play_out(game, random.Random(seed), LIMIT, each)
    assert game.is_over
    if options["end"] == "immediate":
        assert game.deck_size == 0
    else:
        # finish_round: every seat has had the same number of turns at the end.
        assert game.turn % players == 0
    assert game.scores() == expected_scores(game)
    assert sorted(game.winners()) == expected_winners(game)


@st.composite
def custom_rules(draw: st.DrawFn) -> tuple[kum.Rules, int]:
    """Numeric options and a random custom deck table big enough for the players."""
    players = draw(PLAYERS)
    hand, mines, camp = draw(st.integers(1, 8)), draw(st.integers(1, 6)), draw(st.integers(1, 6))
    need = mines + camp + hand * players + 1
    size = draw(st.integers(need, max(need, 60)))
    rows = draw(st.lists(
        st.tuples(st.sampled_from(kum.RACES), st.integers(0, 9), st.integers(1, 4), st.integers(1, 4),
                  st.integers(-2, 9), st.booleans()),
        min_size=size, max_size=size))
    cards = [kum.Card(i, r, v, kum.MineFace(d, sz, pts, ov)) for i, (r, v, d, sz, pts, ov) in enumerate(rows)]
    options = draw(COMBOS)
    return kum.Rules(hand_size=hand, mines=mines, camp_cards=camp, deck=kum.Deck(cards), **options), players


@SOME
@given(case=custom_rules(), seed=SEEDS)
def test_custom_decks_and_sizes_terminate_conserve_and_round_trip(case: tuple[kum.Rules, int], seed: int) -> None:
    rules, players = case
    game = kum.Game(players, seed=seed, rules=rules)
    assert len(game.deck) == len(rules.deck)

    def each(g: kum.Game) -> None:
        check_conservation(g)
        check_legal_matches_oracle(g)

    play_out(game, random.Random(seed), 3 * LIMIT, each)
    assert game.scores() == expected_scores(game)
    assert sorted(game.winners()) == expected_winners(game)
    check_round_trips(game)  # the record carries the custom deck as CSV text in its options
    assert json.loads(split_record(game.record())[0]["Options"])["deck"] == rules.deck.to_csv_text()


# -- scoring --------------------------------------------------------------------------

@MANY
@given(seed=SEEDS, players=PLAYERS)
def test_final_score_is_developed_minus_claimed(seed: int, players: int) -> None:
    game = new_game(seed, players)

    def each(g: kum.Game) -> None:
        assert g.scores() == expected_scores(g)  # also mid-game
        for seat in range(players):
            dev, undev = g.points(seat)
            assert dev == sum(c.points for c in g.developed(seat))
            assert undev == sum(cm.card.points for cm in g.claimed(seat))
        if not g.is_over:
            assert g.winners() == []

    play_out(game, random.Random(seed), LIMIT, each)
    scores = expected_scores(game)
    assert game.scores() == scores
    winners = game.winners()
    assert winners == [s for s in range(players) if scores[s] == max(scores)]  # D4: ties share
    over = [e for e in game.log if isinstance(e, kum.GameOver)]
    assert len(over) == 1 and game.log[-1] == over[0]
    assert list(over[0].scores) == scores and list(over[0].winners) == winners
    view = game.view(0)
    assert view["over"] and view["scores"] == scores and view["winners"] == winners
    assert [p["score"] for p in view["players"]] == scores
    result = next(line for line in game.record().splitlines() if line.startswith("[Result "))
    for name, sc in zip(game.players, scores, strict=True):
        assert f"{name} {sc}" in result


# -- events agree with the brief --------------------------------------------------------------

@MANY
@given(seed=SEEDS, players=PLAYERS, options=COMBOS)
def test_events_follow_the_rules(seed: int, players: int, options: dict[str, str]) -> None:
    game = kum.Game(players, seed=seed, rules=kum.Rules(**options))
    rng = random.Random(seed)
    deck = game.deck
    while not game.is_over:
        before = game.clone()
        s = before._state
        aid = rng.choice(game.legal_action_ids())
        events = game.apply(aid)
        assert events, "every action causes at least one event"
        for e in events:
            if isinstance(e, kum.Claimed):
                played = [x for x in events if isinstance(x, kum.Played)]
                assert len(played) == 1 and played[0].slot == e.slot
                last = deck[played[0].card]
                assert e.race == last.race.index
                holders = [p for p in range(players) if before.king(p) == last.race]
                if holders:  # the King of the last card's race claims ...
                    assert e.seat == holders[0] and e.reason == "king"
                else:  # ... or, with that King out of the game, the player who played it
                    assert e.seat == e.by == before.current_player and e.reason == "no_king"
                assert list(e.to_camp) == [c for c in s.mine_stacks[e.slot]] + [played[0].card]
                assert len(e.to_camp) == deck[e.mine].defense
                assert e.mine in game._state.claimed[e.seat] or e.mine in game._state.developed[e.seat]
            if isinstance(e, kum.Developed):
                need = deck[e.mine].size + (1 if deck[e.mine].overseer else 0)
                assert len(e.to_camp) == need
                if deck[e.mine].overseer:
                    assert deck[e.to_camp[-1]].race == before.king(e.seat)
                    assert all(deck[c].race != before.king(e.seat) for c in e.to_camp[:-1])
                else:
                    assert all(deck[c].race != before.king(e.seat) for c in e.to_camp)
            if isinstance(e, kum.Refilled):
                assert e.mine in s.deck  # came from the deck
            if isinstance(e, kum.Drew) and e.race is None:
                assert e.card == s.deck[-1]  # the top of the deck
        # Camp piles only hold their own race.
        for race, pile in game.camp.items():
            assert all(c.race == race for c in pile)
        # The stack on an available mine never reaches its defense.
        for mine in game.mines:
            if mine.card is not None:
                assert len(mine.stack) < mine.card.defense
        if game.rules.refill == "immediate" and game.deck_size:
            assert all(m.card is not None for m in game.mines)


# -- saving ----------------------------------------------------------------------------

def check_round_trips(g: kum.Game, *, through_json: bool = True) -> None:
    d = g.to_dict()
    if through_json:
        d = json.loads(json.dumps(d))
    back = kum.Game.from_dict(d)
    assert back == g
    assert back.to_dict() == d
    assert str(back) == str(g)
    rec = g.record()
    if through_json:
        rec = json.loads(json.dumps(rec))
    again = kum.Game.from_record(rec)
    assert again == g
    assert again.record() == rec
    assert str(again) == str(g)


# -- what a seat may see (D6) ------------------------------------------------------------------

def check_view_privacy(g: kum.Game) -> None:
    s = g._state
    vis = g.rules.visibility
    for seat in range(g.num_players):
        view = g.view(seat)
        text = json.dumps(view)  # JSON-serialisable
        assert json.loads(text) == view
        own = set(s.hands[seat])
        # Ids appear in a seat's view only for its own hand cards (unless all is open).
        for _path, key, value in walk(view):
            if key == "id" and value is not None and vis != "open":
                assert value in own, f"view({seat}) shows id {value} not in its hand"
        for p, pv in enumerate(view["players"]):
            assert pv["hand_size"] == len(s.hands[p]) == len(pv["hand"])
            for c, entry in zip(s.hands[p], pv["hand"], strict=True):
                card = g.deck[c]
                if p == seat or vis == "open":
                    assert entry["id"] == c and entry["race"] == card.race.value and entry["value"] == card.value
                    continue
                assert entry["id"] is None
                if vis == "hidden":
                    assert all(v is None for k, v in entry.items() if k != "public")
                    continue
                # physical: the mine face is public, the creature only if drawn from the Camp
                assert (entry["defense"], entry["size"], entry["points"], entry["overseer"]) == (
                    card.defense, card.size, card.points, card.overseer)
                if s.known[c]:
                    assert (entry["race"], entry["value"]) == (card.race.value, card.value)
                else:
                    assert entry["race"] is None and entry["value"] is None
        # Deck order below the top card is private: only size and top mine face appear.
        assert set(view["deck"]) == {"size", "top"}

def check_event_privacy(g: kum.Game) -> None:
    """Deck draws of other seats are not named in a seat's event texts."""
    for seat in range(g.num_players):
        for e in g.log:
            if isinstance(e, kum.Drew) and e.race is None and e.seat != seat:
                creature = g.deck[e.card].creature
                assert creature not in g.describe(e, seat)
                d = event_to_dict(e, g.deck, g.players, seat)
                assert d["card"] is None and "card_id" not in d
                assert creature not in json.dumps(d)


def swap_hidden_card(g: kum.Game, owner: int, rng: random.Random) -> kum.Game | None:
    """A copy of ``g`` in which one of ``owner``'s deck-drawn hand cards is swapped with a
    card deep in the deck that has the same mine face but another creature."""
    s = g._state
    hidden = [c for c in s.hands[owner] if not s.known[c]]
    rng.shuffle(hidden)
    for x in hidden:
        for y in s.deck[:-1]:  # below the top card: private
            if g.deck[y].mine == g.deck[x].mine and g.deck[y].creature != g.deck[x].creature:
                other = g.clone()
                t = other._state
                hi, di = t.hands[owner].index(x), t.deck.index(y)
                t.hands[owner][hi], t.deck[di] = y, x
                t.plays = None
                return other
    return None


@FEW_VIEWS
@given(seed=SEEDS, players=PLAYERS, visibility=st.sampled_from(["physical", "hidden", "open"]))
def test_view_never_shows_other_seats_private_cards(seed: int, players: int, visibility: str) -> None:
    game = new_game(seed, players, visibility=visibility)
    rng = random.Random(seed)
    swaps = 0

    def each(g: kum.Game) -> None:
        nonlocal swaps
        check_view_privacy(g)
        if visibility == "open" or g.is_over or rng.random() > 0.2:
            return
        owner = rng.randrange(players)
        other = swap_hidden_card(g, owner, rng)
        if other is None:
            return
        swaps += 1
        for seat in range(players):
            if seat != owner:  # the other seats cannot tell the two positions apart
                assert other.view(seat) == g.view(seat)
        assert other.view(owner) != g.view(owner)

    play_out(game, rng, LIMIT, each)
    check_event_privacy(game)
    full = game.view(None)
    assert all(e["id"] is not None for p in full["players"] for e in p["hand"])


# -- scenarios ----------------------------------------------------------------------------

def scenario_from(g: kum.Game) -> kum.Game:
    position = g.to_dict()["state"]  # what from_scenario takes: races, first_player and the layout
    assert position["races"] == [k.value for k in g.kings] and position["first_player"] == g.first_player
    return kum.Game.from_scenario(list(g.players), rules=g.rules, **position)


@MANY
@given(seed=SEEDS, players=PLAYERS, options=COMBOS, frac=st.floats(0, 0.95))
def test_scenario_round_trip(seed: int, players: int, options: dict[str, str], frac: float) -> None:
    source = kum.Game(players, seed=seed, rules=kum.Rules(**options))
    rng = random.Random(seed)
    full = source.clone()
    play_out(full, random.Random(seed), LIMIT)
    stop = int(frac * len(full.history))
    for a in full.history[:stop]:
        source.apply(a)
    sc = scenario_from(source)
    assert sc._state == source._state  # the same position ...
    assert sc.view(None) == source.view(None) and str(sc) == str(source)
    assert sc.seed is None and sc.history == ()
    assert sc.legal_action_ids() == source.legal_action_ids()

    def each(g: kum.Game) -> None:
        check_conservation(g)

    play_out(sc, rng, LIMIT, each)
    check_round_trips(sc)
    assert "[Start " in sc.record()
    sc.undo(len(sc.history))
    assert sc._state == source._state


def test_handmade_scenario_claim_goes_to_goblin_king_then_round_trips() -> None:
    deck = kum.Deck.standard()
    g7 = next(c.id for c in deck if c.creature == "goblin 7")
    o1 = next(c.id for c in deck if c.creature == "orc 1")
    d5 = next(c.id for c in deck if c.creature == "dwarf 5")
    mine = next(c.id for c in deck if c.defense == 2 and c.id not in (g7, o1, d5))
    others = [c.id for c in deck if c.id not in (g7, o1, d5, mine)][:3]
    game = kum.Game.from_scenario(
        ["Ada", "Bo"], races=["orc", "goblin"], hands=[[g7], [o1]],
        mines=[{"mine": mine, "stack": [d5]}, *others],
    )
    check_conservation(game)
    events = game.apply("play goblin 7 on mine 1")
    claimed = [e for e in events if isinstance(e, kum.Claimed)]
    assert len(claimed) == 1 and claimed[0].seat == 1 and claimed[0].by == 0  # Bo holds the goblin King
    assert [cm.card.id for cm in game.claimed(1)] == [mine]
    assert game.camp[kum.Race.GOBLIN][-1].id == g7 and game.camp[kum.Race.DWARF][-1].id == d5
    play_out(game, random.Random(3), LIMIT, check_conservation)
    check_round_trips(game)


# -- event sentences ------------------------------------------------------------------------

@SOME
@given(seed=SEEDS, players=PLAYERS, options=COMBOS)
def test_every_event_reads_as_a_sentence_true_to_the_rules(seed: int, players: int, options: dict[str, str]) -> None:
    game = kum.Game(players, seed=seed, rules=kum.Rules(**options))
    play_out(game, random.Random(seed), LIMIT)
    for e in game.log:
        for viewer in (None, *range(players)):
            text = game.describe(e, viewer)
            assert isinstance(text, str) and text.strip() and text.endswith(".")
            d = event_to_dict(e, game.deck, game.players, viewer)
            assert json.loads(json.dumps(d)) == d and d["text"] == text
        if isinstance(e, kum.Stuck) and options["stuck"] == "draw":
            # Under stuck="draw" a stuck player keeps every card and draws from the deck.
            assert "discard" not in game.describe(e), game.describe(e)
