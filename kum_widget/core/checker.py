"""``check_game``: a conformance checker for a game author, in the spirit of OpenSpiel's
``random_sim_test``: random games to the end, every invariant checked at every step.

>>> from kum_widget.core.examples import Bust
>>> check_game(Bust(), games=3).ok
True
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

from .board import board_problems, click_problems
from .errors import GameError, GameFault
from .game import CardGame, same_views, top_actions
from .session import Session

__all__ = ["check_game", "CheckReport"]

CHECKS = {
    "plays to the end": "random games end within the step limit, and a legal action exists until then",
    "deterministic by seed": "the same seed and the same choices give the same positions",
    "clones are independent": "changing a copy of a position leaves the original alone",
    "legal actions are stable": "asking twice gives the same list; every listed action applies",
    "illegal actions are refused": "an action that is not legal raises a clear error and changes nothing",
    "action text round trip": "each legal action's text reads back as that action",
    "records round trip": "record() and to_dict() read back as the same game",
    "undo and redo": "undoing and redoing gives back the same positions",
    "views are JSON-safe": "every seat's view survives json.dumps and json.loads unchanged (no NaN, no infinity)",
    "scores and summary": "one score per seat; the lab's summary is JSON-safe",
    "hidden cards stay hidden": "no seat's view holds another seat's secrets",
    "determinize fits the view": "a position dealt from a seat's view gives back exactly that view",
    "heuristic reads only the view": "the heuristic changes nothing, and scores a position dealt from the player's view as the real one",
    "best actions agree": "best_actions() names exactly the legal actions the heuristic scores top (within 1e-9), changing nothing; no score is NaN",
    "board is valid": "the board description follows the schema, and every click names a card or zone on it",
}


@dataclass
class CheckReport:
    """What ``check_game`` found: ``ok``, and for each check a failure in words (or none)."""

    game: str
    games: int
    steps: int = 0
    failures: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, check: str, message: str) -> None:
        self.failures.setdefault(check, message)  # the first failure of each check is the useful one

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


class _Where:
    """Where a check failed, in words; worked out only when one fails."""

    def __init__(self, s: Session, seed: int) -> None:
        self.s, self.seed, self.moves = s, seed, s.move_number

    def __str__(self) -> str:
        from .records import _texts

        try:
            tail = "; ".join(_texts(self.s)[0][-3:])
        except Exception:  # a broken game may not even replay: say less
            tail = ""
        return f"(in the game with seed {self.seed}, after {self.moves} actions{': ... ' + tail if tail else ''})"


def _where(s: Session, seed: int) -> _Where:
    return _Where(s, seed)


def _not_json(tree: Any, path: str) -> str | None:
    """Where ``tree`` (named ``path``) holds a number JSON cannot carry (NaN, an
    infinity), in words: ``"NaN is not JSON (at view['odds'][1])"``; None when it holds none."""
    if isinstance(tree, float):
        return None if math.isfinite(tree) else f"{'NaN' if tree != tree else repr(tree)} is not JSON (at {path})"
    if isinstance(tree, dict):
        items: Any = tree.items()
    elif isinstance(tree, (list, tuple)):
        items = enumerate(tree)
    else:
        return None
    for key, value in items:
        found = _not_json(value, f"{path}[{key!r}]")
        if found:
            return found
    return None


def _contains(tree: Any, secret: Any) -> bool:
    """Does the JSON ``tree`` hold ``secret``: equal to a node, or (a dict) inside one?"""
    if tree == secret:
        return True
    if isinstance(secret, dict) and isinstance(tree, dict) and all(k in tree and tree[k] == v for k, v in secret.items()):
        return True
    if isinstance(tree, dict):
        return any(_contains(v, secret) for v in tree.values())
    if isinstance(tree, list):
        return any(_contains(v, secret) for v in tree)
    return False


def check_game(game: CardGame, *, games: int = 20, max_steps: int = 2000, players: int | None = None, seed: int = 0) -> CheckReport:
    """Play ``games`` random games of ``game`` and check every rule of the protocol at
    every step; return a :class:`CheckReport` (``print`` it, or look at ``.ok``)."""
    if not isinstance(game, CardGame):
        raise GameError(f"check_game takes a CardGame (the rules), got {type(game).__name__}")
    report = CheckReport(game=repr(game), games=games)
    if game.perfect_information:
        report.skipped["determinize fits the view"] = "perfect information: nothing to deal"
        report.skipped["heuristic reads only the view"] = "perfect information: the player sees everything"
    counts = [players] if players else list(range(game.min_players, game.max_players + 1))
    rng = random.Random(seed)
    for g in range(games):
        n = counts[g % len(counts)]
        game_seed = rng.randrange(2**31)
        try:
            s = Session(game, n, seed=game_seed)
        except Exception as exc:
            report.fail("plays to the end", f"setup for {n} players failed: {type(exc).__name__}: {exc}")
            break
        choices: list[int] = []
        try:
            _play(game, s, game_seed, choices, max_steps, report, rng)
            _check_game_over(game, s, game_seed, choices, report)
        except Exception as exc:  # a broken game can break the checks themselves: say where, go on
            report.fail("plays to the end", f"the game raised {type(exc).__name__}: {exc} {_where(s, game_seed)}")
    if report.steps == 0:  # nothing was played: the other checks did not run
        for name in CHECKS:
            if name not in report.failures:
                report.skipped.setdefault(name, "not run: no game could be played")
    if type(game).secrets is CardGame.secrets and not game.perfect_information:
        report.skipped["hidden cards stay hidden"] = "the game declares no secrets() (see GAMES.md)"
    if type(game).board is CardGame.board:
        report.skipped["board is valid"] = "the game has no board(): the board shows its views as text"
    return report


def _play(game: CardGame, s: Session, game_seed: int, choices: list[int], max_steps: int,
          report: CheckReport, rng: random.Random) -> None:
    while not s.is_over and s.move_number < max_steps:
        where = _where(s, game_seed)
        _check_position(game, s, where, report, rng)
        legal = s.legal_action_ids()
        if not legal:
            report.fail("plays to the end", f"no legal action, but the game is not over {where}")
            break
        action = legal[rng.randrange(len(legal))]
        choices.append(action)
        try:
            s.apply(action)
        except Exception as exc:
            report.fail("legal actions are stable", f"the legal action {s.action_text(action)!r} raised {type(exc).__name__}: {exc} {where}")
            break
        report.steps += 1
    else:
        if not s.is_over:
            report.fail("plays to the end", f"the game did not end within {max_steps} actions {_where(s, game_seed)}")


def _check_position(game: CardGame, s: Session, where: _Where, report: CheckReport, rng: random.Random) -> None:
    state = s._state
    legal = s.legal_action_ids()
    if legal != s.legal_action_ids():
        report.fail("legal actions are stable", f"legal_actions() gave two different lists {where}")
    # a copy changes alone
    copy = game.clone(state)
    before = game.view(state, None)
    if legal:
        game.apply(copy, legal[0])
        if not same_views(game.view(state, None), before):
            report.fail("clones are independent", f"applying {s.action_text(legal[0])!r} to a clone changed the original {where}")
    # text forms read back
    for a in legal:
        text = s.action_text(a)
        try:
            back = s.action_id(text)
        except GameError as exc:
            report.fail("action text round trip", f"the text {text!r} of a legal action does not read back: {exc} {where}")
            break
        if back != a:
            report.fail("action text round trip", f"{text!r} reads back as action {back}, not {a} {where}")
            break
    # the rollouts' shortcut names the heuristic's favourites
    if legal:
        _check_best_actions(game, s, list(legal), where, report)
    # an illegal action changes nothing
    sid = s.state_id
    for bad in (max(legal, default=0) + 1 + rng.randrange(1000), -1 - rng.randrange(1000), "no such action"):
        if bad in legal:
            continue
        try:
            s.apply(bad)
            report.fail("illegal actions are refused", f"{bad!r} is not a legal action, but it was applied {where}")
        except GameFault as exc:
            report.fail("illegal actions are refused", f"refusal() let {bad!r} through and apply() failed on it: {exc} {where}")
        except GameError:
            pass
        except Exception as exc:
            report.fail("illegal actions are refused", f"{bad!r} raised {type(exc).__name__} (expected a clear GameError) {where}")
        if s.state_id != sid or not same_views(game.view(s._state, None), before):
            report.fail("illegal actions are refused", f"refusing {bad!r} changed the position {where}")
    # views: JSON-safe; no secrets of others; determinize fits
    for seat in [None, *range(s.num_players)]:
        view: Any = None
        dumped = None
        try:
            view = game.view(state, seat)
            dumped = json.dumps(view, allow_nan=False)
        except (TypeError, ValueError) as exc:
            report.fail("views are JSON-safe", f"view for seat {seat} is not JSON: {_not_json(view, 'view') or exc} {where}")
            if view is None:  # view() itself failed
                continue
        if dumped is not None and json.loads(dumped) != view:
            report.fail("views are JSON-safe", f"view for seat {seat} changes through JSON (tuples? int keys?) {where}")
        if seat is None:
            continue
        for other in range(s.num_players):
            if other == seat:
                continue
            for secret in game.secrets(state, other):
                if isinstance(secret, (int, float, bool)) or secret in ("", None):
                    report.fail("hidden cards stay hidden", f"secrets() gave {secret!r}, a bare value: numbers like it appear in "
                                "views by chance (counts, scores), so write each secret as the view writes the card, in a form "
                                "that cannot appear by chance ({'id': 7} or 'red 5')")
                    continue
                if _contains(view, secret):
                    report.fail("hidden cards stay hidden", f"seat {seat}'s view holds {secret!r:.60}, a secret of seat {other} {where}")
        if not game.perfect_information and seat == game.current_player(state) and "determinize fits the view" not in report.skipped:
            try:
                dealt = game.determinize(view, seat, random.Random(rng.randrange(2**31)))
            except NotImplementedError:
                report.skipped["determinize fits the view"] = "the game has no determinize(): ISMCTS and the greedy bot cannot play it"
                report.skipped["heuristic reads only the view"] = (
                    "the game has no heuristic()" if not legal or game.heuristic(game.clone(state), list(legal)) is None else
                    "the game has no determinize(): the heuristic's fairness cannot be tested, so fair_heuristic = True would be unproven")
                continue
            if not same_views(game.view(dealt, seat), view):
                report.fail("determinize fits the view", f"a position dealt from seat {seat}'s view shows that seat something else {where}")
            elif legal:
                copy = game.clone(state)
                real = game.heuristic(copy, list(legal))
                if not game.same(copy, state):
                    report.fail("heuristic reads only the view", f"heuristic() changed the position it scored {where}")
                elif not same_views(game.heuristic(dealt, list(legal)), real):
                    report.fail("heuristic reads only the view", f"heuristic() scores a position dealt from seat {seat}'s view "
                                f"otherwise than the real one: it reads cards the player cannot see {where}")
    board = game.board(game.view(state, s.current_player), s.current_player)
    if board is not None:
        problems, ids = board_problems(board, s.num_players)
        for a in legal:
            problems += click_problems(game.click(state, a), ids, s.action_text(a))
        if problems:
            report.fail("board is valid", f"{problems[0]} {where}")


def _check_best_actions(game: CardGame, s: Session, legal: list[int], where: _Where, report: CheckReport) -> None:
    """``best_actions`` names exactly the heuristic's top actions, and neither changes the
    position; the heuristic scores no action NaN."""
    check = "best actions agree"
    state = s._state
    copy = game.clone(state)
    try:
        scores = game.heuristic(copy, list(legal))
        want = None if scores is None else top_actions(legal, scores)
    except Exception as exc:
        report.fail(check, f"heuristic() failed: {type(exc).__name__}: {exc} {where}")
        return
    nan = [a for a, x in zip(legal, scores, strict=True) if x != x] if scores is not None else []
    if nan:
        report.fail(check, f"heuristic() scored {s.action_text(nan[0])!r} NaN ({len(nan)} of {len(legal)} actions): a score must "
                    f"be a number (in play a NaN counts as the worst score) {where}")
        return
    if not game.same(copy, state):
        report.fail(check, f"heuristic() changed the position it scored {where}")
        return
    try:
        best = game.best_actions(copy, list(legal))
    except Exception as exc:
        report.fail(check, f"best_actions() raised {type(exc).__name__}: {exc} {where}")
        return
    if not game.same(copy, state):
        report.fail(check, f"best_actions() changed the position it read {where}")
    elif best != want:
        report.fail(check, f"best_actions() gave {best!r:.80} where the heuristic's top scores are {want!r:.80} "
                    f"(and the heuristic must score a position the same way each time) {where}")


def _check_game_over(game: CardGame, s: Session, seed: int, choices: list[int], report: CheckReport) -> None:
    where = _where(s, seed)
    scores = s.scores()
    if len(scores) != s.num_players or not all(isinstance(v, (int, float)) for v in scores):
        report.fail("scores and summary", f"scores() must give one number per seat, got {scores!r:.60} {where}")
    summary = s.summary()
    try:
        json.dumps(summary, allow_nan=False)
    except (TypeError, ValueError) as exc:
        report.fail("scores and summary", f"summary() is not JSON-safe: {_not_json(summary, 'summary()') or exc} {where}")
    again = Session(game, s.num_players, seed=seed)
    try:
        for a in choices:
            again.apply(a)
    except GameError as exc:
        report.fail("deterministic by seed", f"replaying the same seed and choices failed at action {again.move_number + 1}: {exc} {where}")
        return
    if not game.same(again._state, s._state) or again.logs != s.logs:
        report.fail("deterministic by seed", f"replaying the same seed and choices gave another position {where}")
    for name in ("record()", "to_dict()"):
        try:
            if name == "record()":
                back = Session.from_record(s.record(), game=game)
            else:
                back = Session.from_dict(json.loads(json.dumps(s.to_dict())), game=game)
        except Exception as exc:
            report.fail("records round trip", f"{name} did not read back: {type(exc).__name__}: {exc} {where}")
            continue
        if back != s:
            report.fail("records round trip", f"{name} read back as another game {where}")
    views = []
    probe = Session(game, s.num_players, seed=seed)
    for a in choices:
        views.append(game.view(probe._state, None))
        probe.apply(a)
    k = min(len(choices), 7)
    probe.undo(k)
    if k and not same_views(game.view(probe._state, None), views[-k]):
        report.fail("undo and redo", f"undo({k}) did not give back the position {k} actions earlier {where}")
    probe.redo(k)
    if not game.same(probe._state, s._state):
        report.fail("undo and redo", f"redo({k}) after undo({k}) did not give back the same position {where}")
