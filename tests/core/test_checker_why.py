"""check_game asks a game's ``why_not`` as the board does (the seat to act, its own view, each
part of its board that no legal action uses) and names a crash, an answer that is not words,
and a reason that tells another seat's text secret; a game without ``why_not`` is not asked."""

from __future__ import annotations

import os
import random
import re
from typing import Any, ClassVar

import pytest

from kum_widget import core
from kum_widget.board.insight import why_not_payload
from kum_widget.core.board import unclicked_parts
from kum_widget.core.checker import CHECKS, check_game
from kum_widget.core.checker_why import GIVES, KEEPS, names_secret
from kum_widget.core.examples import Bust, BustState, value

HERE = os.path.relpath(__file__) if os.path.realpath(__file__).startswith(os.path.realpath(os.getcwd()) + os.sep) else __file__
WHERE = r"\(in the game with seed \d+, after \d+ actions"


def line_of(words: str) -> int:
    with open(__file__) as f:
        (n,) = [i for i, line in enumerate(f, 1) if f'("{words}")' in line and "raise" in line]
    return n


class Says(Bust):
    """Bust whose ``why_not`` gives ``answer`` for every part, from the third position on."""

    answer: Any = "you play one card of each value"

    def why_not(self, view: dict[str, Any], seat: int, part: str) -> Any:
        return self.answer if len(view["pile"]) >= 2 else None


def test_the_checks_are_listed_in_the_report() -> None:
    assert {GIVES, KEEPS} <= set(CHECKS)
    text = str(check_game(TextSecrets(), games=3))
    assert f"ok    {GIVES} (why_not(), asked as the board asks it" in text and f"ok    {KEEPS} (" in text, text


# -- a crash, and answers the board cannot show -------------------------------------------------


def test_a_crash_in_why_not_names_the_part_the_method_and_the_line_and_the_other_checks_still_run() -> None:
    class Crashes(Bust):
        def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
            if len(view["pile"]) >= 2:
                raise ZeroDivisionError("why_not broke")
            return None

    report = check_game(Crashes(), games=4)
    assert set(report.failures) == {GIVES}, str(report)
    message = report.failures[GIVES]
    assert re.match(rf"asked why '[\w ]+' takes no move, for seat \d: why_not\(\) raised ZeroDivisionError: why_not broke, "
                    rf"at {re.escape(HERE)}:{line_of('why_not broke')} {WHERE}", message), message
    assert report.skipped[KEEPS] == f"not run: it needs '{GIVES}', which failed"
    for check in ("board is valid", "undo and redo", "records round trip", "hidden cards stay hidden"):
        assert check not in report.failures and check not in report.skipped, check
    assert f"FAIL  {GIVES}: asked why" in str(report)


@pytest.mark.parametrize("answer, words", [
    ({"text": "no"}, r"gave \{'text': 'no'\} \(dict\): a reason is a str, in words, or None when there is nothing to say"),
    (7, r"gave 7 \(int\): a reason is a str, in words, or None when there is nothing to say"),
    (True, r"gave True \(bool\): a reason is a str"),
    ("", r"gave '', a blank text: return None when there is nothing to say"),
    ("  \n", r"gave '  \\n', a blank text: return None when there is nothing to say"),
    ("{seat7} took it", r"gave '\{seat7\} took it': .*seat7"),
])
def test_an_answer_that_is_not_words_is_named_with_the_part_and_the_position(answer: Any, words: str) -> None:
    game = Says()
    game.answer = answer
    report = check_game(game, games=3)
    assert set(report.failures) == {GIVES}, str(report)
    message = report.failures[GIVES]
    assert re.match(rf"why_not\(seat (\d)'s view, \1, '[\w ]+'\) {words}.* {WHERE}", message), message


def test_reasons_in_words_that_name_seats_pass() -> None:
    game = Says()
    game.answer = "{player} plays one of each value; {seat1} waits"
    report = check_game(game, games=4)
    assert report.ok and GIVES not in report.skipped, str(report)


# -- asked as the board asks ----------------------------------------------------------------------


def test_it_asks_the_seat_to_act_with_its_own_view_about_parts_no_legal_action_uses() -> None:
    class Records(Bust):
        calls: ClassVar[list[tuple[dict[str, Any], int, str]]] = []

        def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
            self.calls.append((view, seat, part))
            return None

    report = check_game(Records(), games=3)
    assert report.ok and KEEPS not in report.skipped, str(report)  # no reason given: none told a secret
    assert len(Records.calls) > 20
    for view, seat, part in Records.calls:
        assert view["turn"] == seat and view["loser"] is None  # the seat to act, the game not over
        assert all(isinstance(h, list) == (p == seat) for p, h in enumerate(view["hands"]))  # its own view: only its hand
        assert part in unclicked_parts(Records().board(view, seat), [])  # a part of the board drawn for the seat


def test_the_parts_asked_are_those_the_board_asks() -> None:
    class Always(Bust):
        def why_not(self, view: dict[str, Any], seat: int, part: str) -> str:
            return "no"

    game, rng, seen = Always(hand=4), random.Random(3), 0
    for seed in range(4):
        s = core.Session(game, 2 + seed % 3, seed=seed)
        while not s.is_over:
            ids, seat = s.legal_action_ids(), s.current_player
            board = game.board(s.view(seat), seat)
            asked = unclicked_parts(board, s.clicks(ids))
            assert set(asked) == set(why_not_payload(s, seat, board, [a.to_json() for a in s.frame(None, offer=ids).actions]))
            seen += len(asked)
            s.apply(ids[rng.randrange(len(ids))])
    assert seen > 50


def test_unclicked_parts_reads_any_board_and_skips_a_used_group() -> None:
    board = {"zones": [{"id": "grid", "cells": [{"id": "a1", "group": "col a"}, {"id": "b1", "group": "col b", "pieces": [{"id": "p"}]}],
                        "zones": [{"id": "inner", "cards": [{"id": "c"}, {"id": "c"}, "junk"]}]}],
             "seats": [{"seat": 0, "zones": [{"id": "hand", "places": [{"id": "spot"}]}]}, 5]}
    assert unclicked_parts(board, [{"target": "col a"}, {"source": "p", "target": "hand"}, {}]) == ["grid", "b1", "inner", "c", "spot"]
    assert unclicked_parts(None, []) == [] and unclicked_parts({"zones": 3, "seats": "x"}, []) == []
    odd = {"zones": [{"id": "z", "cards": 5, "cells": {"a": 1}, "pieces": "xy", "zones": 7}, {"id": "y", "places": [{"id": "p", "pieces": 3}]}]}
    assert unclicked_parts(odd, [None, 4]) == ["z", "y", "p"]  # what the schema check names costs no crash here


# -- only a game that declares why_not, with a board, is asked --------------------------------------


def test_a_game_without_why_not_or_without_a_board_is_not_asked() -> None:
    class NoBoard(Bust):
        board = core.CardGame.board  # type: ignore[assignment]

        def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
            raise ZeroDivisionError("never asked: the text board has no parts")

    for game in (Bust(), NoBoard()):
        report = check_game(game, games=3)
        assert report.ok and GIVES not in report.skipped and KEEPS not in report.skipped, str(report)


def test_with_a_board_that_crashes_nothing_is_asked_and_the_report_says_why() -> None:
    class NoBoardDrawn(Says):
        def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
            raise ZeroDivisionError("board broke")

    report = check_game(NoBoardDrawn(), games=2)
    assert set(report.failures) == {"board is valid"}, str(report)
    assert report.skipped[GIVES] == "not run: it needs 'board is valid', which failed"
    assert report.skipped[KEEPS] == f"not run: it needs '{GIVES}', which did not run"


def test_without_secrets_the_secret_check_says_why_it_did_not_run() -> None:
    class NoSecrets(Says):
        secrets = core.CardGame.secrets  # type: ignore[assignment]

    report = check_game(NoSecrets(), games=3)
    assert report.ok and report.skipped[KEEPS] == "the game declares no secrets() (see GAMES.md)", str(report)


# -- a reason that tells another seat's secret ------------------------------------------------------


def named(card: int) -> str:
    return f"{'blue' if card < 9 else 'red'} {value(card)}"


class TextSecrets(Bust):
    """Bust whose secrets are written as words ('red 5'): its views hold none (a view writes a
    card as a dict), and ``why_not`` says which card of its own hand it means."""

    def secrets(self, s: BustState, seat: int) -> list[Any]:
        return [named(c) for c in s.hands[seat]]

    def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
        mine = [c["id"] for c in view["hands"][seat]]
        return next((f"your {named(c)}: you play the lower of two alike" for c in mine if part == f"card {c}"), None)


def test_reasons_naming_the_seats_own_cards_pass() -> None:
    report = check_game(TextSecrets(hand=4), games=6)
    assert report.ok and KEEPS not in report.skipped, str(report)


def test_a_reason_that_tells_another_seats_secret_is_named() -> None:
    class Tattles(TextSecrets):
        """Keeps the table it last showed in full, and tells from it: not from the view."""

        table: BustState | None = None

        def view(self, s: BustState, seat: int | None) -> dict[str, Any]:
            if seat is None:
                self.table = s
            return super().view(s, seat)

        def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
            other = self.table.hands[(seat + 1) % len(self.table.hands)] if self.table else []
            return f"the next seat holds {named(other[0])}" if other and part == f"hand {seat}" else None

    report = check_game(Tattles(), games=4)
    assert set(report.failures) == {KEEPS}, str(report)
    message = report.failures[KEEPS]
    assert re.match(rf"why_not\(seat (\d)'s view, \1, 'hand \1'\) gave 'the next seat holds (\w+ \d)', which names '\2', a secret of seat \d: "
                    rf"a reason is read from the seat's own view, and that does not show it {WHERE}", message), message


def test_secrets_that_are_not_words_cannot_be_looked_for_and_the_report_says_so() -> None:
    report = check_game(Says(), games=3)  # Bust's secrets are {"id": 7}, as Kings Under Mountains' are
    assert report.ok and report.skipped[KEEPS] == ("secrets() gave no text (like 'red 5') to look for in a reason: a secret like "
                                                   "{'id': 7} is not words"), str(report)


@pytest.mark.parametrize("reason, secret, view, found", [
    ("seat 1 holds red 5.", "red 5", {}, True),
    ("red 5", "red 5", {"hands": [[{"id": 3}]]}, True),
    ("the pile is at red 50", "red 5", {}, False),  # whole words only
    ("a bored 5", "red 5", {}, False),
    ("Ann played red 5", "red 5", {"log": ["Ann played red 5"]}, False),  # the view has those words: the reason may quote it
    ("a red 5", "red 5", {"red 5 seen": 1}, False),
    ("(x) is hidden", "(x)", {}, True),
])
def test_names_secret(reason: str, secret: str, view: Any, found: bool) -> None:
    assert names_secret(reason, secret, view) is found


@pytest.mark.parametrize("name, games", [("court", 3), ("kings-under-mountains", 1)])
def test_the_shipped_games_are_asked_and_pass(name: str, games: int) -> None:
    base = core.game_class(name)
    reasons: list[str | None] = []

    class Counted(base):  # type: ignore[misc, valid-type]
        def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
            reasons.append(super().why_not(view, seat, part))
            return reasons[-1]

    report = check_game(Counted(), games=games)
    assert report.ok and GIVES in report.ran and GIVES not in report.skipped, str(report)
    assert len(reasons) > 100 and sum(r is not None for r in reasons) > 10
