"""The court solitaire's board (kum_widget/games/court/board.py) through the generic
renderer's schema: valid at every step of random games under several rule options,
every legal action clicked on ids the board shows, the draw pile's order never on it,
the fight's price shown before it is declared, and a GameWidget played to the end
through the payload it sends the page."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from _board_helpers import Recorded, browser_msg, zone

import kum_widget as kum
from kum_widget import core
from kum_widget.core.board import board_problems, click_problems
from kum_widget.games.court import BUY, FIGHT, PASS, SKIP, START, CourtOfTheThreeClans, CourtState, space_name
from kum_widget.games.court.state import OVER, SETUP

OPTIONS: list[dict[str, Any]] = [
    {},
    {"price": "printed", "full_court": "closed", "first_refill": "court"},
    {"fights_per_turn": 2, "row_princes_subtract": True, "empty_pass_pays": False},
    {"fights_per_turn": 0, "last_prince_ends": False, "court_vp": False, "start_cp": 0},
]


def cards_on(board: dict[str, Any]) -> Iterator[dict[str, Any]]:
    def walk(zones: Any) -> Iterator[dict[str, Any]]:
        for z in zones or ():
            yield from z.get("cards") or ()
            yield from walk(z.get("zones"))

    yield from walk(board.get("zones"))
    for seat in board.get("seats") or ():
        yield from walk(seat.get("zones"))


def card_ids(board: dict[str, Any]) -> set[int]:
    return {int(c["id"].split()[1]) for c in cards_on(board)}


def random_games(options: dict[str, Any], games: int, seed: int) -> Iterator[tuple[CourtOfTheThreeClans, CourtState]]:
    """Every position of ``games`` random games (buying and fighting more often than not)."""
    game = CourtOfTheThreeClans(**options)
    rng = random.Random(seed)
    for _ in range(games):
        s = game.setup(1, random.Random(rng.randrange(2**31)))
        for _ in range(2000):
            yield game, s
            if game.is_over(s):
                break
            legal = game.legal_actions(s)
            active = [a for a in legal if a not in (PASS, SKIP)]
            game.apply(s, rng.choice(active) if active and rng.random() < 0.6 else rng.choice(legal))
        else:
            raise AssertionError("a game did not end")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_the_board_follows_the_schema_and_every_click_names_its_ids(options: dict[str, Any]) -> None:
    phases = set()
    for game, s in random_games(options, games=6, seed=len(options)):
        view = game.view(s, 0)
        board = game.board(view, 0)
        assert board is not None
        problems, ids = board_problems(board, 1)
        assert problems == [], problems
        json.dumps(board)  # JSON-safe
        phases.add(s.phase)
        row_cards = {f"card {c}" for c in s.row if c is not None}
        seen: set[tuple[str, str]] = set()
        for a in game.legal_actions(s):
            click = game.click(s, a)
            text = game.action_text(s, a)
            assert click_problems(click, ids, text) == [], (text, click)
            if a == PASS or a == SKIP:
                assert "target" not in click, "pass and skip stay buttons"
                continue
            if a >= FIGHT:
                prince = s.row[a - FIGHT]
                assert click == {"target": f"card {prince}"} and game.table[prince].prince
                continue
            p, x = divmod(a - (BUY if a >= BUY else START), 8)
            assert click == {"source": f"card {s.row[p]}", "target": f"space {space_name(x)}"}
            assert click["source"] in row_cards
            pair = (click["source"], click["target"])
            assert pair not in seen, f"two actions on one click: {pair}"
            seen.add(pair)
    assert {SETUP, "buy", OVER} <= phases


def test_ids_are_the_cards_where_the_view_puts_them() -> None:
    for game, s in random_games({}, games=3, seed=11):
        board = game.board(game.view(s, 0), 0)
        assert board is not None
        for p, c in enumerate(s.row):
            place = zone(board, f"place {p + 1}")
            assert [x["id"] for x in place.get("cards", [])] == ([] if c is None else [f"card {c}"])
        for x, c in enumerate(s.court):
            space = zone(board, f"space {space_name(x)}")
            assert [y["id"] for y in space.get("cards", [])] == ([] if c is None else [f"card {c}"])
        for key, zid in (("defeated", "defeated"), ("captured", "captured")):
            assert [y["id"] for y in zone(board, zid)["cards"]] == [f"card {c}" for c in getattr(s, key)]
        assert zone(board, "discarded")["count"] == len(s.discarded)
        assert zone(board, "draw pile")["count"] == len(s.pile)
        assert zone(board, "royal court")["layout"] == "grid" and zone(board, "royal court")["columns"] == 4


def test_a_seat_view_board_never_holds_the_draw_pile_or_its_order() -> None:
    for game, s in random_games({"first_refill": "court"}, games=4, seed=5):
        view = game.view(s, 0)
        assert "pile" not in view
        board = game.board(view, 0)
        assert board is not None
        assert not card_ids(board) & set(s.pile), "a card of the draw pile is on the board"
        # The board is drawn from what a seat sees: the full table's view draws the same board.
        assert game.board(game.view(s, None), None) == board
        assert game.board(game.public_view(s), None) == board


def _fight_position(cp: int, phase: str = "fight") -> tuple[CourtOfTheThreeClans, CourtState]:
    game = CourtOfTheThreeClans()
    s = game.scenario(["sun poet 3", "daemon prince 9", "moon poet 3", None],
                      ["sun general 6", "moon general 4", *[None] * 6], cp=cp, phase=phase)
    return game, s


def test_the_fight_shows_the_strength_and_its_price_before_it_is_declared() -> None:
    game, s = _fight_position(cp=5)  # strength 4 + 3 = 7 against 9: pays 2 CP
    board = game.board(game.view(s, 0), 0)
    assert board is not None
    prince = zone(board, "place 2")["cards"][0]
    assert prince["id"] == f"card {s.row[1]}"
    words = json.dumps(prince)
    assert "your strength 7 vs 9: pays 2 CP" in words
    assert prince["faces"][0]["value"] == 9 and prince["faces"][0]["color"] == "red"
    assert any(b["text"] == "fight 2 CP" for b in zone(board, "place 2")["badges"])
    fight = game.parse_action(s, "fight place 2")
    assert fight in game.legal_actions(s) and game.click(s, fight) == {"target": prince["id"]}
    assert "phase 2" in board["status"] and "strength is 7" in board["status"]
    # Too dear (seen in phase 1: a phase 2 with no winnable fight passes by itself): the
    # board says what it lacks, and no fight is offered.
    game, s = _fight_position(cp=1, phase="buy")
    board = game.board(game.view(s, 0), 0)
    assert board is not None
    assert "needs 2 CP, you have 1" in json.dumps(zone(board, "place 2")["cards"][0])
    assert not any(FIGHT <= a < SKIP for a in game.legal_actions(s))


def test_cards_show_clan_colour_role_numbers_and_power() -> None:
    game = CourtOfTheThreeClans()
    s = game.scenario(["earth courtesan 6", "sun tax collector 2", None, None],
                      ["moon poet 5", "sun general 3", None, None, "earth minister 4", *[None] * 3], cp=3)
    board = game.board(game.view(s, 0), 0)
    assert board is not None
    courtesan = zone(board, "place 1")["cards"][0]["faces"]
    assert courtesan[0]["color"] == "green" and courtesan[0]["title"] == "earth courtesan"
    assert {"label": "cost", "value": 6, "short": "cost 6"} in courtesan[0]["fields"]
    assert game.table[s.row[0]].power in courtesan[0]["tooltip"] and courtesan[1]["tooltip"] == game.table[s.row[0]].power
    assert zone(board, "place 1")["badges"][0]["text"] == "price 6 CP"  # place 1: the full price
    assert zone(board, "place 2")["badges"][0]["text"] == "price 1 CP"  # place 2: 1 CP off
    poet = zone(board, "space 1.1")["cards"][0]["faces"][0]
    assert poet["color"] == "blue" and poet["tags"][0]["text"] == "+2 VP"  # sun and earth beside it
    general = zone(board, "space 1.2")["cards"][0]["faces"][0]
    assert general["color"] == "gold" and any(f["label"] == "strength" and f["value"] == 2 for f in general["fields"])
    assert "A pass discards the Sun Tax Collector and pays 1 CP." in json.dumps(zone(board, "society row"))
    counters = {c["label"]: c["value"] for c in zone(board, "royal court")["counters"]}
    assert counters == {"CP": 3, "court VP": 3, "strength": 2}  # court VP: the cards' printed VP (2 + 0 + 1)
    assert "Turn 1, phase 1" in board["status"] and "Score so far" in board["status"]


def test_game_over_shows_the_score_breakdown() -> None:
    for game, s in random_games({"row_princes_subtract": True}, games=2, seed=3):
        if not game.is_over(s):
            continue
        board = game.board(game.view(s, 0), 0)
        assert board is not None
        b = game.breakdown(s)
        counters = {c["label"]: c["value"] for c in board["seats"][0]["counters"]}
        assert sorted(counters.values()) == sorted(b.values()) and sum(counters.values()) == game.score(s)
        assert board["status"].startswith(f"Game over after turn {s.turn}: {game.score(s)} points, {game.rank(s)}")


def test_the_finished_row_offers_no_prices_and_no_fights() -> None:
    """Once the game is over nothing is for sale and nobody fights: the Society Row's cards
    lie there without a price badge or a fight's prompt."""
    seen = 0
    for game, s in random_games({}, games=6, seed=11):
        if not game.is_over(s):
            continue
        row = zone(game.board(game.view(s, 0), 0), "society row")
        places = [z for z in row["zones"] if z.get("cards")]
        seen += len(places)
        for place in places:
            assert not place.get("badges"), place
            text = json.dumps(place["cards"])
            assert "your strength" not in text and "Fight:" not in text, text  # (a card's own power may name CP)
    assert seen  # some games end with cards in the row


def test_check_game_passes_with_the_board() -> None:
    report = core.check_game(CourtOfTheThreeClans(full_court="closed"), games=4)
    assert report.ok, str(report)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_widget_plays_a_court_to_the_end_through_its_payload(seed: int) -> None:
    w = Recorded(kum.Court(seed=seed))
    rng = random.Random(seed)
    for step in range(1000):
        board, legal = w.page["board"], w.page["legal"]["actions"]
        if board["over"]:
            break
        problems, ids = board_problems({k: board[k] for k in ("zones", "seats", "status", "title")}, 1)
        assert problems == [] and legal, problems
        for a in legal:
            assert all(a[k] in ids for k in ("source", "target") if k in a), a
        assert not card_ids(board) & set(w.game._state.pile)
        a = rng.choice([x for x in legal if "target" in x] or legal) if rng.random() < 0.7 else rng.choice(legal)
        browser_msg(w, {"kind": "act", "action_id": a["id"], "state_id": w.state_id, "id": f"t{step}"})
        answer = w.answers()[-1]
        assert (answer["kind"], answer["id"], w.error) == ("answer", f"t{step}", "")
    assert w.game.is_over and w.page["board"]["over"]
    assert w.page["board"]["players"][0]["score"] == w.game.scores()[0]
    assert w.page["legal"]["actions"] == []
    w.close()


def test_the_schema_knows_the_zone_size_the_board_uses() -> None:
    ok = {"zones": [{"id": "a", "size": "large"}, {"id": "b", "size": "small"}]}
    assert board_problems(ok, 1)[0] == []
    problems, _ = board_problems({"zones": [{"id": "a", "size": "huge"}]}, 1)
    assert problems and "size" in problems[0]


def test_a_new_game_on_the_board_takes_the_courts_rules_object() -> None:
    board = kum.GameWidget(kum.Court(seed=3))
    game = board.game
    board.new_game(seed=2, rules=kum.CourtRules(price="printed"))
    assert board.game is game and game.rules == kum.CourtRules(price="printed") and game.seed == 2
    assert game.prices == [None if c is None else c.cost for c in game.row]  # printed prices in every place
