"""check_game on games broken on purpose: a crash in any hook is named by the game's method
and the file:line that raised, and the other checks still run; a bad deal names the key
that differs; a finished game lists no actions; a NaN in a view is not JSON; clicks that
the board's menus could not tell apart are named."""

from __future__ import annotations

import math
import os
import random
import re
from typing import Any, ClassVar

import pytest
from _score_games import BAD_SCORES
from game_from_docs import DISCARD, Expeditions

from kum_widget import core
from kum_widget.core import Action
from kum_widget.core.chance import foreign_randomness
from kum_widget.core.checker import CHECKS, check_game
from kum_widget.core.checker_faults import click_collisions, first_difference
from kum_widget.core.examples import DRAW, PASS, Bust, BustState

HERE = os.path.relpath(__file__) if os.path.realpath(__file__).startswith(os.path.realpath(os.getcwd()) + os.sep) else __file__


def line_of(words: str) -> int:
    """The line of this file that raises ``words`` (each message below is raised on one line)."""
    with open(__file__) as f:
        (n,) = [i for i, line in enumerate(f, 1) if f'("{words}")' in line and "raise" in line]
    return n


def at(words: str) -> str:
    return f"{HERE}:{line_of(words)}"


def mid(s: BustState) -> bool:
    return len(s.pile) >= 2  # a few actions in: setup and the first positions work


# -- 1. a crash in the game's code: its method, its file:line; the other checks go on ---------


class ApplyCrash(Bust):
    def apply(self, s: BustState, action: int) -> list[Any]:
        if action == DRAW and s.hands[s.turn]:  # never legal_actions()[0] (a play), so only the game's own draw crashes
            raise ZeroDivisionError("apply broke")
        return super().apply(s, action)


class LegalCrash(Bust):
    def legal_actions(self, s: BustState) -> list[int]:
        if mid(s) and s.loser is None:
            raise ZeroDivisionError("legal_actions broke")
        return super().legal_actions(s)


class ViewCrash(Bust):
    def view(self, s: BustState, seat: int | None) -> dict[str, Any]:
        if seat == 1 and mid(s) and s.turn == 0:  # never the board's view (of the seat to play)
            raise ZeroDivisionError("view broke")
        return super().view(s, seat)


class BoardCrash(Bust):
    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        if len(view["pile"]) >= 2:
            raise ZeroDivisionError("board broke")
        return super().board(view, seat)


class ClickCrash(Bust):
    def click(self, s: BustState, action: int) -> dict[str, str]:
        if mid(s):
            raise ZeroDivisionError("click broke")
        return super().click(s, action)


class HeuristicCrash(Bust):
    fair_heuristic = True

    def heuristic(self, s: BustState, actions: list[int]) -> list[float]:
        if mid(s):
            raise ZeroDivisionError("heuristic broke")
        return super().heuristic(s, actions)


class DeterminizeCrash(Bust):
    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> BustState:
        if len(view["pile"]) >= 2:
            raise ZeroDivisionError("determinize broke")
        return super().determinize(view, seat, rng)


class SecretsCrash(Bust):
    def secrets(self, s: BustState, seat: int) -> list[Any]:
        if mid(s):
            raise ZeroDivisionError("secrets broke")
        return super().secrets(s, seat)


class BestActionsCrash(Bust):
    def best_actions(self, s: BustState, legal: list[int]) -> list[int] | None:
        if mid(s):
            raise ZeroDivisionError("best_actions broke")
        return super().best_actions(s, legal)


class SummaryCrash(Bust):
    def summary(self, s: BustState, logs: Any) -> dict[str, Any]:
        raise ZeroDivisionError("summary broke")


class RefusalCrash(Bust):
    def refusal(self, s: BustState, action: int) -> str | None:
        raise ZeroDivisionError("refusal broke")


class ParseCrash(Bust):
    def parse_action(self, s: BustState, text: str) -> int:
        if text == "draw":
            raise ZeroDivisionError("parse_action broke")
        return super().parse_action(s, text)


EVERY_OTHER_CHECK_RAN = {"undo and redo", "records round trip", "views are JSON-safe", "deterministic by seed"}


@pytest.mark.parametrize(
    "broken, method, check, also_ran",
    [
        (ApplyCrash, "apply", "legal actions are stable", {"undo and redo", "records round trip", "views are JSON-safe", "board is valid"}),
        (LegalCrash, "legal_actions", "legal actions are stable", {"undo and redo", "views are JSON-safe", "board is valid"}),
        (ViewCrash, "view", "views are JSON-safe", {"undo and redo", "records round trip", "board is valid", "legal actions are stable"}),
        (BoardCrash, "board", "board is valid", EVERY_OTHER_CHECK_RAN | {"legal actions are stable"}),
        (ClickCrash, "click", "board is valid", EVERY_OTHER_CHECK_RAN),
        (HeuristicCrash, "heuristic", "best actions agree", EVERY_OTHER_CHECK_RAN | {"board is valid"}),
        (DeterminizeCrash, "determinize", "determinize fits the view", EVERY_OTHER_CHECK_RAN | {"board is valid"}),
        (SecretsCrash, "secrets", "hidden cards stay hidden", EVERY_OTHER_CHECK_RAN | {"board is valid"}),
        (BestActionsCrash, "best_actions", "best actions agree", EVERY_OTHER_CHECK_RAN | {"board is valid"}),
        (SummaryCrash, "summary", "scores and summary", EVERY_OTHER_CHECK_RAN | {"board is valid"}),
        (RefusalCrash, "refusal", "illegal actions are refused", EVERY_OTHER_CHECK_RAN | {"board is valid"}),
        (ParseCrash, "parse_action", "action text round trip", {"undo and redo", "views are JSON-safe", "board is valid"}),
    ],
)
def test_a_crash_names_the_method_and_the_line_and_the_other_checks_still_run(
        broken: type[Bust], method: str, check: str, also_ran: set[str]) -> None:
    report = check_game(broken(), games=6)
    message = report.failures[check]
    assert message.startswith(f"{method}() raised ZeroDivisionError: {method} broke, at {at(method + ' broke')} (in the game with seed ") \
        or f": {method}() raised ZeroDivisionError: {method} broke, at {at(method + ' broke')} (in the game with seed " in message, message
    assert re.search(r"\(in the game with seed \d+, after \d+ actions", message), message
    assert not also_ran & (set(report.failures) | set(report.skipped)), str(report)  # they ran, and passed
    assert report.steps > 6, str(report)


def test_a_crash_in_apply_says_which_legal_action_it_was() -> None:
    message = check_game(ApplyCrash(), games=3).failures["legal actions are stable"]
    assert message.startswith(f"the legal action 'draw' failed: apply() raised ZeroDivisionError: apply broke, at {at('apply broke')} "
                              "(in the game with seed "), message


def test_a_crash_in_a_helper_names_the_method_and_the_helpers_line() -> None:
    class HelperCrash(Bust):
        def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
            def card(c: int) -> dict[str, Any]:
                if c >= 0:
                    raise ZeroDivisionError("card broke")
                return {}

            return {"zones": [card(len(view["pile"]))]}

    message = check_game(HelperCrash(), games=3).failures["board is valid"]
    assert message.startswith(f"board() raised ZeroDivisionError: card broke, at {at('card broke')} (in card()) (in the game with seed "), message


class SetupCrash(Bust):
    def setup(self, players: int, rng: random.Random) -> BustState:
        if players == 3:
            raise KeyError("setup broke for 3")
        return super().setup(players, rng)


def test_a_crash_in_setup_stops_everything_and_says_so() -> None:
    class Broken(Bust):
        def setup(self, players: int, rng: random.Random) -> BustState:
            raise ZeroDivisionError("setup broke")

    report = check_game(Broken(), games=4)
    assert re.fullmatch(rf"setting up a game for 2 players: setup\(\) raised ZeroDivisionError: setup broke, at {re.escape(at('setup broke'))} "
                        r"\(seed \d+\)", report.failures["plays to the end"]), report.failures
    assert set(report.failures) == {"plays to the end"} and set(report.skipped) == set(CHECKS) - {"plays to the end", "declarations hold"}  # (the declarations were read)
    assert all(why == "not run: setup() failed (see 'plays to the end'), so no game could be played" for why in report.skipped.values())


def test_a_setup_that_fails_for_one_player_count_leaves_the_others_checked() -> None:
    report = check_game(SetupCrash(), games=6)
    assert set(report.failures) == {"plays to the end"} and report.skipped == {}, str(report)
    assert report.failures["plays to the end"].startswith(
        f"setting up a game for 3 players: setup() raised KeyError: 'setup broke for 3', at {at('setup broke for 3')} (seed ")


def test_a_crash_only_undo_meets_is_named() -> None:
    class ReplayCrash(Bust):
        def step(self, s: BustState, action: int) -> None:  # undo replays with step()
            raise ZeroDivisionError("step broke")

    report = check_game(ReplayCrash(limit=80), games=3)  # long games: undo replays from the start with step()
    assert report.failures["undo and redo"].startswith(f"step() raised ZeroDivisionError: step broke, at {at('step broke')} "), str(report)
    assert "records round trip" not in report.failures


def test_a_crash_only_a_replay_meets_is_named_through_the_sessions_wrapping() -> None:
    class SecondDealCrashes(Bust):
        """The second deal of each seed is marked, and apply() fails on it: the session wraps
        that in a GameFault, and the checker names the crash inside."""

        dealt: ClassVar[set[tuple[int, ...]]] = set()  # (the records build their own game: a class's set reaches it)

        def setup(self, players: int, rng: random.Random) -> BustState:
            s = super().setup(players, rng)
            key = tuple(s.deck)
            s.replayed = key in self.dealt  # type: ignore[attr-defined]
            self.dealt.add(key)
            return s

        def apply(self, s: BustState, action: int) -> list[Any]:
            if getattr(s, "replayed", False):
                raise ZeroDivisionError("replay broke")
            return super().apply(s, action)

    report = check_game(SecondDealCrashes(), games=2)
    assert re.match(rf"replaying the same seed and choices failed at action 1: apply\(\) raised ZeroDivisionError: replay broke, "
                    rf"at {re.escape(at('replay broke'))} \(in the game with seed", report.failures["deterministic by seed"]), str(report)
    assert report.failures["records round trip"].startswith("record() did not read back: apply() raised ZeroDivisionError: replay broke")


def test_a_crash_in_pythons_own_code_names_the_method_and_pythons_line() -> None:
    class Uncopyable(Bust):
        def setup(self, players: int, rng: random.Random) -> BustState:
            s = super().setup(players, rng)
            s.later = (c for c in s.deck)  # type: ignore[attr-defined]  # a generator: the default clone() cannot copy it
            return s

    message = check_game(Uncopyable(), games=2).failures["plays to the end"]
    assert re.fullmatch(r"setting up a game for 2 players: clone\(\) raised TypeError: cannot pickle 'generator' object, "
                        r"at \S+copy\.py:\d+ \(in \w+\(\)\) \(seed \d+\)", message), message


def test_ctrl_c_in_the_games_code_stops_the_checker() -> None:
    class Interrupted(Bust):
        def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check_game(Interrupted(), games=2)


# -- 2. a deal that does not fit the view names the key, and both values ------------------------


def test_a_bad_deal_names_the_key_and_both_values() -> None:
    class SwapsACard(Bust):
        def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> BustState:
            dealt = super().determinize(view, seat, rng)
            hand = dealt.hands[seat]
            if hand:  # the last card of the seat's own hand becomes another
                hand[-1] = next(c for c in range(18) if c not in hand and c not in dealt.pile)
            return dealt

    message = check_game(SwapsACard(), games=2).failures["determinize fits the view"]
    found = re.match(r"a position dealt from seat (\d)'s view shows that seat something else: at hands\[(\d)\]\[(\d)\]\.id, "
                     r"the view has (\d+) and the dealt position has (\d+) \(in the game with seed \d+, after \d+ actions", message)
    assert found and found[1] == found[2] and found[4] != found[5], message


def value_of(card: int) -> int:
    return card % 9 + 1


def test_a_deal_that_moves_the_turn_names_the_turn() -> None:
    class BadDeal(Bust):
        def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> BustState:
            dealt = super().determinize(view, seat, rng)
            dealt.turn = (dealt.turn + 1) % len(dealt.hands)
            return dealt

    message = check_game(BadDeal(), games=2).failures["determinize fits the view"]
    assert re.match(r"a position dealt from seat 0's view shows that seat something else: at turn, the view has 0 and the dealt "
                    r"position has 1 \(in the game with seed", message), message


@pytest.mark.parametrize(
    "a, b, words",
    [
        ({"discard": {"top": 3, "n": 1}}, {"discard": {"top": 4, "n": 1}}, "at discard.top, A has 3 and B has 4"),
        ({"hands": [[1, 2], [3, 4, 5]]}, {"hands": [[1, 2], [3, 4, 6]]}, "at hands[1][2], A has 5 and B has 6"),
        ({"hands": [[1, 2]]}, {"hands": [[1]]}, "at hands[0][1], A has 2 and B has nothing there"),
        ({"a": 1}, {"a": 1, "deck": 7}, "at deck, A has nothing there and B has 7"),
        ({"two words": [1]}, {"two words": (1,)}, "at ['two words'], A has [1] and B has (1,)"),
        ({3: "x" * 100}, {3: "y"}, "at [3], A has 'xxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxx' and B has 'y'"),
        ([1], 2, "at the top, A has [1] and B has 2"),
        ({"odds": [math.nan]}, {"odds": [math.nan]}, ""),
    ],
)
def test_first_difference_names_the_path(a: Any, b: Any, words: str) -> None:
    assert first_difference(a, b, "A", "B") == words


# -- 3. once the game is over, no legal actions ----------------------------------------------------


def test_legal_actions_once_over_are_named_with_the_position() -> None:
    class PlaysOn(Bust):
        def legal_actions(self, s: BustState) -> list[int]:
            return [PASS, DRAW] if s.loser is not None else super().legal_actions(s)

    report = check_game(PlaysOn(), games=3)
    assert set(report.failures) == {"no actions once over"}, str(report)
    assert re.fullmatch(r"is_over\(\) is true, but legal_actions\(\) still lists 'pass', 'draw' \(in the game with seed \d+, "
                        r"after \d+ actions: \.\.\. .*play \d\)", report.failures["no actions once over"]), report.failures
    assert "ok    no actions once over" in str(check_game(Bust(), games=2))


def test_a_game_that_never_ends_says_the_check_did_not_run() -> None:
    class NeverEnds(Bust):
        def legal_actions(self, s: BustState) -> list[int]:
            return [PASS]

        def apply(self, s: BustState, action: int) -> list[Any]:
            s.turn = (s.turn + 1) % len(s.hands)
            return []

    report = check_game(NeverEnds(), games=2, max_steps=20)
    assert report.skipped["no actions once over"] == "not run: no game ended"


# -- 4. a NaN in a view is not JSON ----------------------------------------------------------------


def test_a_nan_in_one_seats_view_is_named_with_its_seat_and_path() -> None:
    class Odds(Bust):
        def view(self, s: BustState, seat: int | None) -> dict[str, Any]:
            v = super().view(s, seat)
            if seat == 1:
                v["odds"] = [{"bust": 0.5}, {"bust": float("nan")}]
            return v

    report = check_game(Odds(), games=2)
    assert set(report.failures) == {"views are JSON-safe"}, str(report)
    assert re.fullmatch(r"view for seat 1 is not JSON: NaN is not JSON \(at view\['odds'\]\[1\]\['bust'\]\) "
                        r"\(in the game with seed \d+, after 0 actions\)", report.failures["views are JSON-safe"])


def test_a_nan_as_a_key_is_named() -> None:
    class NanKey(Bust):
        def view(self, s: BustState, seat: int | None) -> dict[str, Any]:
            return {**super().view(s, seat), "odds": {math.nan: 1}}

    message = check_game(NanKey(), games=2).failures["views are JSON-safe"]
    assert message.startswith("view for seat None is not JSON: NaN is not JSON (a key of view['odds']) (in the game with seed"), message


# -- 5. clicks that share a source and target need their own choice --------------------------------


class OnThePile(Bust):
    """Every play is one click on the pile: the board needs a menu."""

    choice: Any = None

    def click(self, s: BustState, action: int) -> dict[str, str]:
        if action in (DRAW, PASS):
            return super().click(s, action)
        return {"target": "pile"} | ({} if self.choice is None else {"choice": self.choice(action)})


def test_actions_sharing_a_click_without_a_choice_are_named() -> None:
    report = check_game(OnThePile(), games=3)
    assert set(report.failures) == {"clicks tell actions apart"}, str(report)
    assert re.fullmatch(r"('play \d', )*'play \d' and 'play \d' share one click \(on 'pile'\), and 'play \d' has no 'choice': "
                        r"actions that share a click each need a 'choice', their entry in the board's menu "
                        r"\(in the game with seed \d+, after \d+ actions.*\)", report.failures["clicks tell actions apart"]), report.failures


def test_actions_sharing_a_click_and_a_choice_are_named() -> None:
    class SameChoice(OnThePile):
        choice = staticmethod(lambda action: "play")

    message = check_game(SameChoice(), games=3).failures["clicks tell actions apart"]
    assert re.match(r"'play \d' and 'play \d' share one click \(on 'pile'\) and the same choice 'play': the board's menu could not "
                    r"tell them apart \(in the game with seed \d+", message), message


def test_actions_with_their_own_choices_and_buttons_never_collide() -> None:
    class OwnChoice(OnThePile):
        choice = staticmethod(lambda action: f"a {value_of(action)}")

    class AllButtons(Bust):
        def click(self, s: BustState, action: int) -> dict[str, str]:
            return {} if action % 2 else {"label": "go"}

    assert check_game(OwnChoice(), games=3).ok and check_game(AllButtons(), games=3).ok


def test_a_source_and_target_shared_by_a_play_and_a_discard_is_named() -> None:
    class DiscardOnTheRow(Expeditions):
        def click(self, s: Any, action: int) -> dict[str, str]:
            card = action % DISCARD
            return {"source": f"card {card}", "target": f"row {s.turn} {card // 9}"}

    message = check_game(DiscardOnTheRow(), games=2).failures["clicks tell actions apart"]
    assert re.match(r"'play (\d[RGBY])' and 'discard \1' share one click \(from 'card \d+' to 'row \d \d'\), and 'play \1' has no "
                    r"'choice'", message), message


def test_click_collisions_read_clicks_only() -> None:
    assert click_collisions([("a", {}), ("b", {}), ("c", None), ("d", {"label": "x"}), ("e", {"label": "x"})]) is None
    assert click_collisions([("a", {"target": "t"}), ("b", {"source": "s", "target": "t"})]) is None  # not the same click
    assert click_collisions([("a", {"target": [1]}), ("b", {"target": [1]})]) is None  # the board check names a bad target
    many = [(f"play {i}", {"target": "pile"}) for i in range(6)]
    assert click_collisions(many) == ("'play 0', 'play 1', 'play 2', 'play 3' and 2 more share one click (on 'pile'), and 'play 0' "
                                      "has no 'choice': actions that share a click each need a 'choice', their entry in the board's menu")


@pytest.mark.parametrize("name, games", [("kings-under-mountains", 1), ("court", 6), ("bust", 10), ("expeditions", 10)])  # (one Kings Under Mountains game takes hundreds of steps)
def test_the_shipped_games_pass_the_new_checks(name: str, games: int) -> None:
    game = Expeditions() if name == "expeditions" else core.game_class(name)()
    report = check_game(game, games=games)
    assert report.ok, str(report)
    for check in ("no actions once over", "clicks tell actions apart", "why not gives text", "chance only from its generator"):
        assert check not in report.skipped, str(report)


# -- texts name seats ---------------------------------------------------------------------------


def test_a_note_naming_a_seat_the_game_lacks_is_named() -> None:
    class Stranger(Bust):
        def apply(self, state: BustState, action: int) -> Any:
            return [*super().apply(state, action), core.Note("{player} waves at {seat4}.", seat=0)]

    report = check_game(Stranger(), games=2)
    assert re.match(r"the text '\{player\} waves at \{seat4\}\.' names \{seat4\}, but the game has seats 0..1 \(in the game",
                    report.failures["texts name seats"]), report.failures


def test_a_describe_that_crashes_is_named_with_its_line() -> None:
    class Mumbles(Bust):
        def describe(self, state: BustState, event: Any, viewer: int | None) -> str | None:
            if viewer == 1:
                raise LookupError("no words for seat 1")
            return super().describe(state, event, viewer)

    report = check_game(Mumbles(), games=2)
    failure = report.failures["texts name seats"]
    assert "describe() raised LookupError: no words for seat 1, at tests/core/test_checker.py:" in failure, failure
    assert set(report.failures) == {"texts name seats"}


# -- scores that are not finite numbers are named as scores(), never as the summary --------------


@pytest.mark.parametrize("game, message", BAD_SCORES)
def test_scores_that_are_not_finite_numbers_are_named_under_the_scores_check(game: type[Bust], message: str) -> None:
    report = check_game(game(), games=3)
    failure = report.failures["scores and summary"]
    assert re.fullmatch(rf"{re.escape(message)} \(in the game with seed \d+, after \d+ actions: .*\)", failure), failure
    assert "summary" not in failure
    assert set(report.failures) == {"scores and summary"}, str(report)
    assert report.skipped == {"records round trip": "not run: a record ends with the scores, and scores() failed "
                                                    "(see 'scores and summary')"}, str(report)


# -- chance only from the generator setup() is handed ----------------------------------------------


class GlobalDraw(Bust):
    """Draws a card from anywhere in the deck, chosen with Python's global generator."""

    def apply(self, s: BustState, action: int) -> list[Any]:
        if action == DRAW:
            s.deck.append(s.deck.pop(random.randrange(len(s.deck))))
        return super().apply(s, action)


def test_a_game_drawing_chance_from_pythons_global_generator_is_named() -> None:
    report = check_game(GlobalDraw(), games=4)
    failure = report.failures["chance only from its generator"]
    assert failure == foreign_randomness(GlobalDraw(), 2, games=2), failure
    assert re.match(r"game \d of 2 \(dealt with seed \d+\), after action \d+ \(draw\): the positions differ \(at hands\[\d\]\[\d\]\.id, "
                    r"the first run has \d+ and the second has \d+\) with Python's global random module seeded otherwise: GlobalDraw "
                    r"draws chance from somewhere other than the generator setup\(\) hands it", failure), failure


def test_the_chance_check_waits_for_play_that_works() -> None:
    report = check_game(LegalCrash(), games=2)
    assert report.skipped["chance only from its generator"] == "not run: it needs 'legal actions are stable', which failed"


def test_a_crash_in_the_chance_check_names_the_method_and_the_line() -> None:
    class SameCrash(Bust):
        def same(self, a: BustState, b: BustState) -> bool:
            raise ZeroDivisionError("same broke")

    failure = check_game(SameCrash(), games=2).failures["chance only from its generator"]
    assert failure == (f"same() raised ZeroDivisionError: same broke, at {at('same broke')} "
                       "(in a game played twice, Python's global random module seeded otherwise)"), failure


# -- a claim of perfect information is verified (issue 42, item 8b) ---------------------------------


class ClaimsOpen(Bust):
    """Bust declaring perfect information: its hands stay hidden, and its secrets() says so."""

    name = "bust-claims-open"
    perfect_information = True


class ClaimsOpenQuietly(ClaimsOpen):
    """The same claim with no secrets(): only the views tell what a seat does not see."""

    secrets = core.CardGame.secrets


class SortsTheDeck(Bust):
    """Every hand public, but a seat sees the deck sorted and the full table its order: at the
    deal (no hand) every seat sees the same, whatever the order the deck was shuffled in."""

    name = "bust-sorts-the-deck"
    perfect_information = True
    secrets = core.CardGame.secrets

    def view(self, s: BustState, seat: int | None) -> dict[str, Any]:
        return {**super().view(s, None), "deck": list(s.deck) if seat is None else sorted(s.deck)}


def test_a_false_claim_of_perfect_information_with_secrets_is_named() -> None:
    failure = check_game(ClaimsOpen(), games=3).failures.get("perfect information holds", "")
    assert re.match(r"the game declares perfect_information = True, but secrets\(\) gives seat 0 \{'id': \d+\}", failure), failure


def test_a_false_claim_of_perfect_information_names_the_seat_and_the_key_its_view_hides() -> None:
    failure = check_game(ClaimsOpenQuietly(), games=3).failures.get("perfect information holds", "")
    assert re.match(r"the game declares perfect_information = True, but seat 0's view does not show what the full table "
                    r"shows at hands\[1\]\[\d\]\.(id|value) \(\d+\)", failure), failure


def test_two_positions_a_seat_cannot_tell_apart_are_named_with_the_key_where_they_differ() -> None:
    failure = check_game(SortsTheDeck(hand=0), games=4).failures.get("perfect information holds", "")
    assert re.match(r"the game declares perfect_information = True, but seat 0 sees the same view in two positions whose "
                    r"full tables differ \(at deck\[0\], ", failure), failure


def test_a_true_claim_of_perfect_information_passes() -> None:
    from kum_widget.gallery.connect_four import ConnectFour

    report = check_game(ConnectFour(), games=4)
    assert report.ok and "perfect information holds" not in report.skipped, str(report)
    assert "perfect information holds" not in check_game(Bust(), games=2).skipped  # no claim: true as it stands


class OpenNamingYou(ClaimsOpenQuietly):
    """The false claim again, its views also naming their viewer: still named by seat and key."""

    def view(self, s: BustState, seat: int | None) -> dict[str, Any]:
        return {**super().view(s, seat), "you": seat}


def test_a_view_that_names_its_viewer_is_no_hidden_information() -> None:
    from kum_widget.gallery.connect_four import ConnectFour

    class FourNamingYou(ConnectFour):
        def view(self, s: Any, seat: int | None) -> dict[str, Any]:
            return {**super().view(s, seat), "you": seat}  # the full table's None is no one's: nothing hidden

    report = check_game(FourNamingYou(), games=4)
    assert report.ok and "perfect information holds" not in report.skipped, str(report)
    failure = check_game(OpenNamingYou(), games=3).failures.get("perfect information holds", "")
    assert re.match(r"the game declares perfect_information = True, but seat 0's view does not show what the full table "
                    r"shows at hands\[1\]\[\d\]\.(id|value) \(\d+\)", failure), failure


# -- how to play gives text (issue 42, item 7) --------------------------------------------------------


class Helps(Bust):
    """Bust with a how_to_play() that gives whatever ``said`` holds (or raises it)."""

    said: Any = None

    def how_to_play(self) -> Any:
        if isinstance(self.said, Exception):
            raise self.said
        return self.said


def helps(said: Any) -> Helps:
    game = Helps()
    game.said = said
    return game


def test_a_how_to_play_that_raises_fails_naming_the_hook_and_the_line() -> None:
    failure = check_game(helps(KeyError("intro")), games=2).failures.get("how to play gives text", "")
    assert re.match(r"Bust: how_to_play\(\) raised KeyError: 'intro', at tests/core/test_checker\.py:\d+", failure), failure


@pytest.mark.parametrize(("said", "named"), [({"intro": 7}, r"how_to_play\(\)\['intro'\] must be a text or a list of texts, got 7"),
                                             ({"rules": ["ok", None]}, r"how_to_play\(\)\['rules'\] must be a text"),
                                             ("the rules", r"how_to_play\(\) must give None or a dict"),
                                             ({"intro": "x" * 2_000_000}, r"a paragraph of its 'intro' has 2,000,000 characters"),
                                             ({"rules": ["word " * 300] * 100}, r"its 'rules' has 149,900 characters")])
def test_a_how_to_play_of_a_bad_shape_or_size_fails(said: Any, named: str) -> None:
    report = check_game(helps(said), games=2)
    assert set(report.failures) == {"how to play gives text"}, str(report)
    assert re.search(named, report.failures["how to play gives text"]), report.failures


def test_a_help_the_board_can_show_passes() -> None:
    for said in (None, {"intro": "Be done.\n\nOne move.", "rules": ["First.", "Then."]}):
        report = check_game(helps(said), games=2)
        assert report.ok and "how to play gives text" not in report.skipped, str(report)
    from kum_widget.core.help_text import HELP_CHARS, PARAGRAPH_CHARS

    assert f"{PARAGRAPH_CHARS:,} characters a paragraph, {HELP_CHARS:,} a key" in CHECKS["how to play gives text"]  # as the board cuts


def test_actions_a_game_makes_itself_must_be_the_sessions() -> None:
    """A game's ``actions()`` (its Actions made once, for speed) is checked against what the
    session makes from ``action_text`` and ``move``: a wrong text is named."""

    class Misnamed(Bust):
        def actions(self, state: Any) -> list[Any]:
            return [Action(a, "play it", None) for a in self.legal_actions(state)]

    report = check_game(Misnamed(), games=2)
    assert "actions() gave Action(" in report.failures["action text round trip"]
    assert "action text round trip" not in check_game(Bust(), games=2).failures


def test_a_views_nodes_hold_a_secret_as_a_walk_of_the_tree_would_find_it() -> None:
    """The secrets check reads a view once (``Nodes``) and asks it of every secret: a dict
    inside any dict, a text equal to any node, a list (walked), at any depth."""
    from kum_widget.core.checker_faults import Nodes

    view = {"seats": [{"hand": [{"id": 7, "face": "red 5", "tags": ["a"]}, "blue 2"]}], "deep": [[[[{"n": [1, 2]}]]]]}
    nodes = Nodes(view)
    assert nodes.holds({"id": 7}) and nodes.holds({"id": 7, "face": "red 5"}) and nodes.holds({"tags": ["a"], "id": 7})
    assert not nodes.holds({"id": 7, "face": "red 6"}) and not nodes.holds({"id": 8})
    assert nodes.holds("blue 2") and nodes.holds("red 5") and not nodes.holds("green 1")
    assert nodes.holds({"n": [1, 2]}) and nodes.holds([1, 2]) and not nodes.holds([2, 1])  # no hashable value: walked
    assert nodes.holds({}) and not Nodes([1, "x"]).holds({})  # an empty dict is inside any dict
    assert not nodes.holds(("red 5",)) and not nodes.holds((["a"],))  # a tuple is no JSON node
    deep: list[object] = []
    node: list[object] = deep
    for _ in range(5000):  # deeper than recursion goes
        node.append([])
        node = node[0]  # type: ignore[assignment]
    node.append({"id": 3})
    assert Nodes(deep).holds({"id": 3}) and Nodes(deep).holds([{"id": 3}])
