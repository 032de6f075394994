"""The checker's look at ``CardGame.why_not``, asked as the board asks it: on the turn of
the seat to act, with that seat's own view, about each part of the board drawn for that
seat (a card, piece, zone, cell or place id) that no legal action's click uses.

A reason is None or words the board can show ("why not gives text"); one never names a
text secret of another seat that the seat's own view does not show ("why not keeps
secrets"). A game that keeps ``CardGame.why_not`` passes both as it stands: the default
says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .board import unclicked_parts
from .checker_faults import crash
from .errors import shown
from .events import placeholder_problems
from .game import CardGame, game_type

if TYPE_CHECKING:
    from .checker_report import CheckReport, Where
    from .session import Session

__all__ = ["GIVES", "KEEPS", "WhyNot", "names_secret"]

GIVES = "why not gives text"
KEEPS = "why not keeps secrets"


def _problem(reason: Any, players: int, seat: int) -> str | None:
    """What makes ``reason`` no answer the board can show, in words (None: it is one)."""
    if not isinstance(reason, str):
        return (f"gave {shown(reason)} ({type(reason).__name__}): a reason is a str, in words, or None when there is "
                "nothing to say")
    if not reason.strip():
        return f"gave {shown(reason)}, a blank text: return None when there is nothing to say"
    problems = placeholder_problems(reason, players, player=seat)
    return f"gave {shown(reason, 80)}: {problems[0]}" if problems else None


def _texts(tree: Any) -> Iterator[str]:
    """Every str in a JSON tree (keys too)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def names_secret(reason: str, secret: str, view: Any) -> bool:
    """Does ``reason`` name the text ``secret`` where ``view`` (the seat's own) does not: as
    whole words ('red 5' is not in 'red 50'), and not when a text of the view has those
    words too (a reason may quote the view)?"""
    word = re.compile(rf"(?<!\w){re.escape(secret)}(?!\w)")
    return word.search(reason) is not None and not any(word.search(t) for t in _texts(view))


class WhyNot:
    """Both checks over one ``check_game`` run: :meth:`ask` at each position, :meth:`close`
    at the end."""

    def __init__(self, game: CardGame, report: CheckReport) -> None:
        self.game, self.report = game, report
        # Only a game that declares why_not and draws a board is asked: the text board has no parts.
        kind = game_type(game)
        self.asks = kind.has("why_not") and kind.has("board")
        self.secrets = kind.has("secrets")
        self.reasons = self.text_secrets = False  # did why_not() ever give a reason? secrets() a text to look for in it?

    def ask(self, s: Session, seat: int, view: Any, board: Any, clicks: list[Any], where: Where) -> None:
        """Ask about each part of ``board`` (drawn for ``seat``, the seat to act, from its
        ``view``) that none of the legal actions' ``clicks`` uses, as the board does."""
        report, game = self.report, self.game
        if not self.asks or not clicks or report.failed(GIVES):  # no legal action: the board asks nothing
            return
        secrets: list[tuple[int, str]] | None = None  # the other seats' text secrets, looked up at the first reason
        parts = unclicked_parts(board, clicks)
        for part in parts:
            try:
                reason = game.why_not(view, seat, part)
            except Exception as exc:  # (as a Guard does; the message made only when one raises: it costs)
                report.fail(GIVES, f"asked why {shown(part)} takes no move, for seat {seat}: {crash(exc, game)} {where}")
                return
            if reason is None:
                continue
            self.reasons = True
            problem = _problem(reason, s.num_players, seat)
            if problem:
                report.fail(GIVES, f"why_not(seat {seat}'s view, {seat}, {shown(part)}) {problem} {where}")
                return
            if self.secrets and not report.failed(KEEPS):
                if secrets is None:
                    secrets = self._secrets(s, seat)
                self._check_secrets(reason, secrets, view, seat, part, where)
        if parts:
            report.ran.add(GIVES)

    def _secrets(self, s: Session, seat: int) -> list[tuple[int, str]]:
        found = []
        try:
            for other in range(s.num_players):
                if other != seat:
                    found += [(other, x) for x in self.game.secrets(s.state, other) if isinstance(x, str) and x.strip()]
        except Exception:  # "hidden cards stay hidden" asked first, and names the crash
            return []
        self.text_secrets = self.text_secrets or bool(found)
        return found

    def _check_secrets(self, reason: str, secrets: list[tuple[int, str]], view: Any, seat: int, part: str, where: Where) -> None:
        for other, secret in secrets:
            if names_secret(reason, secret, view):
                self.report.fail(KEEPS, f"why_not(seat {seat}'s view, {seat}, {shown(part)}) gave {shown(reason, 80)}, which names "
                                 f"{shown(secret)}, a secret of seat {other}: a reason is read from the seat's own view, and "
                                 f"that does not show it {where}")
                return
        if secrets:
            self.report.ran.add(KEEPS)

    def close(self, played: bool) -> None:
        """Say, at the end, what the checks did not look at, and why."""
        report = self.report
        if not played:
            return
        if not self.asks:  # the default says nothing; a text board asks nothing
            report.ran.update((GIVES, KEEPS))
            return
        if GIVES not in report.ran and GIVES not in report.failures:
            if not report.failed("board is valid"):  # (else: not run, for it needs the board)
                report.skipped[GIVES] = report.skipped[KEEPS] = "no board had a part that no legal action uses: nothing to ask"
            return
        if KEEPS in report.ran or KEEPS in report.failures or report.failed(GIVES):
            return
        if not self.secrets and not self.game.perfect_information:
            report.skipped[KEEPS] = "the game declares no secrets() (see GAMES.md)"
        elif not self.secrets or not self.reasons:  # nothing is secret, or no reason was given: none told one
            report.ran.add(KEEPS)
        elif not self.text_secrets:
            report.skipped[KEEPS] = ("secrets() gave no text (like 'red 5') to look for in a reason: a secret like "
                                     "{'id': 7} is not words")
