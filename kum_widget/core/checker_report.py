"""What ``check_game`` checks, and its report (:class:`CheckReport`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["CHECKS", "CheckReport"]

CHECKS = {
    "declarations hold": "name, title and aliases are text; 1 <= min_players <= max_players; simultaneous, "
                         "perfect_information and fair_heuristic are True or False; search_hints is a dict by setting "
                         "name; each optional method the game writes is a method (core.game_type reads them once)",
    "plays to the end": "random games end within the step limit, and a legal action exists until then",
    "no actions once over": "legal_actions() is empty once is_over() is true",
    "deterministic by seed": "the same seed and the same choices give the same positions",
    "clones are independent": "changing a copy of a position leaves the original alone",
    "legal actions are stable": "asking twice gives the same list; every listed action applies",
    "illegal actions are refused": "an action that is not legal raises a clear error and changes nothing",
    "action text round trip": "each legal action's text reads back as that action; the Actions a game makes itself "
                              "(actions()) are those the session would make",
    "records round trip": "record() and to_dict() read back as the same game",
    "undo and redo": "undoing and redoing gives back the same positions",
    "chance only from its generator": "the same deal and choices, played twice with Python's global random module seeded "
                                      "otherwise, give the same positions and legal actions: the game draws its chance only "
                                      "from the generator setup() is handed (so games replay and records reload)",
    "views are JSON-safe": "every seat's view survives json.dumps and json.loads unchanged (no NaN, no infinity)",
    "scores and summary": "one score per seat, each a finite number (no NaN, no infinity); the lab's summary is JSON-safe",
    "hidden cards stay hidden": "no seat's view holds another seat's secrets",
    "perfect information holds": "a game that declares perfect_information = True has no simultaneous steps and no secrets(), "
                                 "each seat's view shows every value of the full table, and no two positions random play "
                                 "reaches look alike to a seat while their full tables differ",
    "determinize fits the view": "a position dealt from a seat's view gives back exactly that view",
    "heuristic reads only the view": "the heuristic changes nothing, and scores a position dealt from the player's view as the real one",
    "best actions agree": "best_actions() names exactly the legal actions the heuristic scores top (within 1e-9), changing nothing; no score is NaN",
    "action kinds are text": "action_kind() gives every legal action a kind: a short text (1 to 80 characters), the same when "
                             "asked again",
    "board is valid": "the board description follows the schema, and every click names a card or zone on it",
    "texts name seats": "every event reads as a sentence for each viewer, and its {player}, {seat0}... name seats the game has",
    "choices at once stay hidden": "in a simultaneous step (simultaneous = True), the current player is one of to_act(), and no "
                                   "seat's view, nor the next chooser's legal actions, tells what an earlier chooser picked",
    "clicks tell actions apart": "legal actions that share one click (source and target) each have their own 'choice' for the board's menu",
    "why not gives text": "why_not(), asked as the board asks it (the seat to act, its own view, each part of its board that no legal "
                          "action uses), does not raise and gives None or words whose {player}, {seat1}... name seats the game has",
    "why not keeps secrets": "no reason why_not() gives names a text secret of another seat ('red 5', as whole words) that the "
                             "seat's own view does not show",
    "how to play gives text": "how_to_play() does not raise, and gives None or a dict of 'intro' and 'rules', each a text or a "
                              "list of texts, none longer than the board shows (2,000 characters a paragraph, 20,000 a key)",
}

# A check that never ran because another failed first, and the one it waits on.
_NEEDS = {"heuristic reads only the view": "determinize fits the view", "clicks tell actions apart": "board is valid",
          "why not gives text": "board is valid", "why not keeps secrets": "why not gives text",
          "chance only from its generator": "legal actions are stable"}


@dataclass
class CheckReport:
    """What ``check_game`` found: ``ok``, and for each check a failure in words (or none)."""

    game: str
    games: int
    steps: int = 0
    failures: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    ran: set[str] = field(default_factory=set, repr=False)  # the checks that ran at least once to the end

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, check: str, message: str) -> None:
        self.failures.setdefault(check, message)  # the first failure of each check is the useful one

    def failed(self, check: str) -> bool:
        """Has ``check`` failed already? (Then it is not run again: only its first failure is kept.)"""
        return check in self.failures

    def not_run(self, setup_failed: bool) -> None:
        """Name each check that never ran (and did not fail), and why."""
        for name in CHECKS:
            if name in self.failures or name in self.skipped or name in self.ran:
                continue
            if setup_failed:
                why = "setup() failed (see 'plays to the end'), so no game could be played"
            elif name in _NEEDS and _NEEDS[name] in self.failures:
                why = f"it needs '{_NEEDS[name]}', which failed"
            elif name in _NEEDS and self.skipped.get(_NEEDS[name], "").startswith("not run"):  # (listed before it in CHECKS)
                why = f"it needs '{_NEEDS[name]}', which did not run"
            elif name == "no actions once over":
                why = "no game ended"
            else:
                why = "no game got that far"
            self.skipped[name] = f"not run: {why}"

    def __str__(self) -> str:
        lines = [f"check_game({self.game}): {self.games} games, {self.steps} actions, "
                 f"{'all checks passed' if self.ok else f'{len(self.failures)} check(s) failed'}"]
        for name, what in CHECKS.items():
            if name in self.failures:
                lines.append(f"  FAIL  {name}: {self.failures[name]}")
            elif name in self.skipped:
                lines.append(f"  skip  {name}: {self.skipped[name]}")
            else:
                lines.append(f"  ok    {name} ({what})")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from html import escape

        rows = []
        for name, what in CHECKS.items():
            mark, text = ("✗", self.failures[name]) if name in self.failures else (("skip", self.skipped[name]) if name in self.skipped else ("✓", what))
            rows.append(f"<tr><td>{mark}</td><td><b>{escape(name)}</b></td><td>{escape(text)}</td></tr>")
        head = escape(str(self).splitlines()[0])
        return f"<p>{head}</p><table>{''.join(rows)}</table>"


class Where:
    """Where a check failed, in words; worked out only when one fails."""

    def __init__(self, s: Any, seed: int) -> None:  # a Session (not imported: the session reads the checker's words)
        self.s, self.seed, self.moves = s, seed, s.move_number

    def __str__(self) -> str:
        from .records import action_texts

        try:
            tail = "; ".join(action_texts(self.s)[0][-3:])
        except Exception:  # a broken game may not even replay: say less
            tail = ""
        return f"(in the game with seed {self.seed}, after {self.moves} actions{': ... ' + tail if tail else ''})"
