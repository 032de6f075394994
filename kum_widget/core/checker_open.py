"""The checker's look at a claim of perfect information (``CardGame.perfect_information``):
a game that makes it has every bot handed the real position, and the board shows its full
table to a spectator and a bot's thinking to anyone, so a false claim gives hands away.

The claim fails when the game has simultaneous steps (a pick is sealed until the game shows
it), when ``secrets()`` gives a seat anything, when a seat's view leaves out a value the full
table shows, or when random play reaches two positions a seat sees alike whose full tables
differ (that seat cannot tell them apart: something is hidden from it).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from .checker_faults import first_difference, key_path
from .checker_report import CheckReport
from .errors import shown
from .game import CardGame, same_views

__all__ = ["CHECK", "OpenCheck"]

CHECK = "perfect information holds"
KEPT = 20_000  # views kept per seat to find two positions it cannot tell apart (a long check keeps checking the rest)
_CLAIM = "the game declares perfect_information = True, but"
_FIX = "declare perfect_information = False, and give the game a determinize() (GAMES.md)"


def _leaves(tree: Any) -> Iterator[tuple[str, tuple[str, Any]]]:
    """Each value of a JSON tree with its path, in order (its type too: 1 is not True)."""
    stack: list[tuple[str, Any]] = [("", tree)]
    while stack:  # (a loop, not recursion: a deep view is the JSON check's to name)
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((key_path(path, k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(node))))
        else:
            yield path or "the top", (type(node).__name__, node)


def unseen(full: Any, view: Any) -> tuple[str, Any] | None:
    """The first value of ``full`` that ``view`` does not hold (each value counted: a count
    standing for three cards holds one number, not six), with its path; None if it holds all.
    A None in ``full`` where ``view`` has a value at that path is about the viewer (``"you":
    seat``, None in the full table): no one's to hide."""
    seen = list(_leaves(view))
    have, at = Counter(leaf for _, leaf in seen), dict(seen)
    for path, leaf in _leaves(full):
        if leaf[1] is None and at.get(path, leaf)[1] is not None:
            continue
        if have[leaf] > 0:
            have[leaf] -= 1
        else:
            return path, leaf[1]
    return None


class OpenCheck:
    """``check_game``'s "perfect information holds", for a game that claims it: :meth:`look`
    at every position, with the views the checker has drawn."""

    def __init__(self, game: CardGame, report: CheckReport) -> None:
        self.game, self.report = game, report
        self.seen: list[dict[str, Any]] = []  # per seat: its view (as JSON text) -> the full table it was seen with
        self.claimed = bool(game.perfect_information)
        if self.claimed and game.simultaneous:
            report.fail(CHECK, f"{_CLAIM} also simultaneous = True: a pick made in a simultaneous step is sealed from the "
                        "other seats until the game shows it, so the game is not of perfect information (bots and the "
                        f"board's Hint would read the pick); {_FIX}")

    def look(self, state: Any, views: dict[int | None, Any], players: int, where: object) -> None:
        """One position: its full table (``views[None]``) and each seat's view."""
        report = self.report
        if not self.claimed or report.failed(CHECK) or None not in views:
            return
        full = views[None]
        while len(self.seen) < players:
            self.seen.append({})
        for seat in range(players):
            secret = next(iter(self.game.secrets(state, seat) or ()), None)
            if secret is not None:
                report.fail(CHECK, f"{_CLAIM} secrets() gives seat {seat} {shown(secret, 60)} to keep from the others {where}: "
                            f"a game with secrets is not of perfect information; {_FIX}")
                return
            if seat not in views:
                continue
            view = views[seat]
            if not same_views(view, full):
                missing = unseen(full, view)
                if missing is not None:
                    report.fail(CHECK, f"{_CLAIM} seat {seat}'s view does not show what the full table shows at {missing[0]} "
                                f"({shown(missing[1], 60)}) {where}; {_FIX}")
                    return
            self._same_view(seat, view, full, where)

    def _same_view(self, seat: int, view: Any, full: Any, where: object) -> None:
        """Two positions ``seat`` sees alike must be alike."""
        try:
            key = json.dumps(view, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError, RecursionError):  # not JSON: the JSON check names it
            return
        kept = self.seen[seat]
        before = kept.get(key)
        if before is None:
            if len(kept) < KEPT:
                kept[key] = full
        elif not same_views(before, full):
            self.report.fail(CHECK, f"{_CLAIM} seat {seat} sees the same view in two positions whose full tables differ "
                             f"({first_difference(before, full, 'one', 'the other')}) {where}: something is hidden from it; "
                             f"{_FIX}")
