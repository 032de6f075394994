"""``check_game``: a conformance checker for a game author, in the spirit of OpenSpiel's
``random_sim_test``: random games to the end, every invariant checked at every step.

A crash in the game's own code is the failure of the check that was running, named by
the game's method and the file and line that raised; the other checks go on.

>>> from kum_widget.core.examples import Bust
>>> check_game(Bust(), games=3).ok
True
"""

from __future__ import annotations

import json
import random
from typing import Any

from .actions import Action
from .board import board_problems, click_problems
from .chance import foreign_randomness
from .checker_faults import Guard, Nodes, click_collisions, crash, explain, first_difference, not_json
from .checker_open import OpenCheck
from .checker_report import CHECKS, CheckReport, Where
from .checker_steps import simultaneous_problem
from .checker_why import WhyNot
from .errors import GameError, GameFault, InvalidOptionError, cut, shown
from .events import event_problems
from .game import CardGame, declares_kinds, game_type, nothing_hidden, same_views, top_actions
from .help_text import help_paragraphs, too_long
from .kinds import MAX_KIND
from .scores import finite_scores
from .session import Session

__all__ = ["check_game", "CheckReport", "CHECKS"]

_NONE: Any = object()  # a value not computed (its code raised)
CHANCE_GAMES = 2  # games "chance only from its generator" plays (each twice, side by side): a stray draw shows at once


def check_game(game: CardGame, *, games: int = 20, max_steps: int = 2000, players: int | None = None, seed: int = 0) -> CheckReport:
    """Play ``games`` random games of ``game`` and check every rule of the protocol at
    every step; return a :class:`CheckReport` (``print`` it, or look at ``.ok``)."""
    if not isinstance(game, CardGame):
        raise GameError(f"check_game takes a CardGame (the rules), got {type(game).__name__}")
    report = CheckReport(game=repr(game), games=games)
    try:
        kind = game_type(game)
    except InvalidOptionError as exc:  # nothing else can be checked on declarations that do not read
        report.fail("declarations hold", str(exc))
        report.skipped.update({name: "not run: the declarations do not hold" for name in CHECKS if name != "declarations hold"})
        return report
    report.ran.add("declarations hold")
    if nothing_hidden(game):  # (a game with simultaneous steps is dealt from the view, whatever it declares)
        report.skipped["determinize fits the view"] = "perfect information: nothing to deal"
        report.skipped["heuristic reads only the view"] = "perfect information: the player sees everything"
    if not kind.has("secrets") and not game.perfect_information:
        report.skipped["hidden cards stay hidden"] = "the game declares no secrets() (see GAMES.md)"
    if not kind.has("board"):
        report.skipped["board is valid"] = "the game has no board(): the board shows its views as text"
    counts = [players] if players else list(range(game.min_players, game.max_players + 1))
    rng = random.Random(seed)
    cannot_set_up: set[int] = set()  # player counts whose setup() failed: not tried again
    played, why, open_ = False, WhyNot(game, report), OpenCheck(game, report)
    dealt: list[int] = []  # player counts whose setup() worked
    for g in range(games):
        n = counts[g % len(counts)]
        game_seed = rng.randrange(2**31)
        if n in cannot_set_up:
            continue
        try:
            s = Session(game, n, seed=game_seed)
        except Exception as exc:
            report.fail("plays to the end", f"setting up a game for {n} players: {crash(exc, game, 'setup')} (seed {game_seed})")
            cannot_set_up.add(n)
            continue
        played = True
        dealt.append(n)
        try:
            choices = _play(game, s, game_seed, max_steps, report, rng, why, open_)
            _check_game_over(game, s, game_seed, choices, report)
        except Exception as exc:  # a crash the guards did not catch: say where, go on
            report.fail("plays to the end", f"{crash(exc, game)} {Where(s, game_seed)}")
    if played and not kind.has("board"):
        report.ran.add("clicks tell actions apart")  # true as it stands: without a board every action is a button
    if played and not game.simultaneous:  # one seat chooses at a time: nothing to hide from a later chooser
        report.ran.add("choices at once stay hidden")
    if played and not declares_kinds(game):  # true as it stands: the lab reads the kinds off the actions' texts
        report.ran.add("action kinds are text")
    if played and not game.perfect_information:  # true as it stands: the game claims nothing
        report.ran.add("perfect information holds")
    if played:  # (after setup: a game that cannot be dealt has all its other checks not run)
        _check_help(game, report)
    if dealt:
        _check_chance(game, dealt[0], seed, max_steps, report)
    why.close(played)
    report.not_run(setup_failed=not played)
    return report


def _check_help(game: CardGame, report: CheckReport) -> None:
    """``how_to_play()``, read as the board reads it (core.help_text): it does not raise, gives
    the shape the board shows, and nothing the board would have to cut."""
    try:
        long = too_long(help_paragraphs(game, str(game.title or game.name)))
    except GameFault as exc:
        report.fail("how to play gives text", str(exc))
        return
    if long is not None:
        report.fail("how to play gives text", f"how_to_play() gives more than the board shows: {long}; give the "
                    "whole rules text in paragraphs, and a short intro")
        return
    report.ran.add("how to play gives text")


def _check_chance(game: CardGame, players: int, seed: int, max_steps: int, report: CheckReport) -> None:
    """A couple of games played twice, Python's global random module seeded otherwise each
    time: the same positions and legal actions, or the game draws chance elsewhere."""
    check = "chance only from its generator"
    if "legal actions are stable" not in report.ran or report.failed("legal actions are stable"):
        return  # the play itself breaks: report.not_run says so
    with Guard(report, game, check, "(in a game played twice, Python's global random module seeded otherwise)"):
        found = foreign_randomness(game, players, seed=seed, games=CHANCE_GAMES, max_actions=max_steps)
        if found:
            report.fail(check, found)


def _text(s: Session, action: int) -> str:
    """An action's text for a message, whatever the game's action_text() does."""
    try:
        return shown(s.action_text(action))
    except Exception:
        return f"action {shown(action)}"


def _play(game: CardGame, s: Session, seed: int, max_steps: int, report: CheckReport, rng: random.Random, why: WhyNot,
          open_: OpenCheck) -> list[int]:
    """Play one random game, checking every position; the actions chosen."""
    choices: list[int] = []
    while True:
        where = Where(s, seed)
        over = legal = _NONE
        with Guard(report, game, "plays to the end", where):
            over = s.is_over
        if over is _NONE or over:
            return choices
        if s.move_number >= max_steps:
            report.fail("plays to the end", f"the game did not end within {max_steps} actions {where}")
            return choices
        with Guard(report, game, "legal actions are stable", where):
            legal = s.legal_action_ids()
        if legal is _NONE:
            return choices
        _check_position(game, s, legal, where, report, rng, why, open_)
        if not legal:
            report.fail("plays to the end", f"no legal action, but the game is not over {where}")
            return choices
        action = legal[rng.randrange(len(legal))]
        with Guard(report, game, "legal actions are stable", where, f"the legal action {_text(s, action)} failed: ") as guard:
            s.apply(action)
        if guard.crashed:
            return choices
        choices.append(action)
        report.steps += 1
        if not report.failed("texts name seats"):
            with Guard(report, game, "texts name seats", where, f"describing what {_text(s, action)} did: "):
                _check_events(s, report, where)


def _check_events(s: Session, report: CheckReport, where: Where) -> None:
    """The events of the last action: placeholders that name seats, and a sentence for
    every viewer (the full table, each seat, a spectator)."""
    for event in s.logs[-1]:
        problems = event_problems(event, s.num_players)
        if problems:
            report.fail("texts name seats", f"{problems[0]} {where}")
            return
        for viewer in (None, *range(s.num_players)):
            s.describe(event, viewer)
        s.describe(event, None, spectator=True)


def _check_position(game: CardGame, s: Session, legal: list[int], where: Where, report: CheckReport, rng: random.Random,
                    why: WhyNot, open_: OpenCheck) -> None:
    state = s.state

    def guard(check: str) -> Guard:
        return Guard(report, game, check, where)

    if not report.failed("legal actions are stable"):
        with guard("legal actions are stable"):
            if s.legal_action_ids() != legal:
                report.fail("legal actions are stable", f"legal_actions() gave two different lists {where}")
    before = _NONE  # the full view, to see that nothing changed it
    with guard("clones are independent"):
        before = game.view(state, None)
        if legal and not report.failed("clones are independent"):
            copy = game.clone(state)
            game.apply(copy, legal[0])
            if not same_views(game.view(state, None), before):
                report.fail("clones are independent", f"applying {_text(s, legal[0])} to a clone changed the original {where}")
    if not report.failed("action text round trip"):
        with guard("action text round trip"):
            _check_texts(s, legal, where, report, game)
    if legal and not report.failed("best actions agree"):
        with guard("best actions agree"):
            _check_best_actions(game, s, list(legal), where, report)
    if legal and declares_kinds(game) and not report.failed("action kinds are text"):
        with guard("action kinds are text"):
            _check_kinds(game, s, state, list(legal), where, report)
    bad_ids = (max(legal, default=0) + 1 + rng.randrange(1000), -1 - rng.randrange(1000))  # drawn always: the same games either way
    if not report.failed("illegal actions are refused"):
        with guard("illegal actions are refused"):
            _check_refusals(game, s, legal, [*bad_ids, "no such action"], before, where, report)
    if game.simultaneous and not report.failed("choices at once stay hidden"):
        with guard("choices at once stay hidden"):
            problem = simultaneous_problem(game, state, s.num_players, list(legal), lambda a: _text(s, a))
            if problem:
                report.fail("choices at once stay hidden", f"{problem} {where}")
    current: int | None = None
    try:
        current = game.current_player(state)
    except Exception:  # s.apply() calls it too, and names the crash
        pass
    views: dict[int | None, Any] = {}
    for seat in [None, *range(s.num_players)]:
        view = _NONE
        with guard("views are JSON-safe"):
            view = game.view(state, seat)
            if not report.failed("views are JSON-safe"):
                _check_json(view, seat, where, report)
        if view is _NONE:
            continue
        views[seat] = view
        if seat is None:
            continue
        if "hidden cards stay hidden" not in report.skipped and not report.failed("hidden cards stay hidden"):
            with guard("hidden cards stay hidden"):
                _check_secrets(game, state, seat, view, s.num_players, where, report)
        if not nothing_hidden(game) and seat == current and "determinize fits the view" not in report.skipped:
            _check_deal(game, state, seat, view, legal, random.Random(rng.randrange(2**31)), where, report)
    if game.perfect_information and not report.failed("perfect information holds"):
        with guard("perfect information holds"):
            open_.look(state, views, s.num_players, where)
    if current is not None and current in views and "board is valid" not in report.skipped:
        with guard("board is valid") as drew:
            board = game.board(views[current], current)
            clicks = _check_board(game, s, legal, board, where, report)
        if not drew.crashed:  # asked as the board asks: of the seat to act, about the parts its board shows
            why.ask(s, current, views[current], board, clicks, where)


def _check_kinds(game: CardGame, s: Session, state: Any, legal: list[int], where: Where, report: CheckReport) -> None:
    for a in legal:
        kind = game.action_kind(state, a)
        if not isinstance(kind, str) or not kind.strip() or len(kind) > MAX_KIND:
            report.fail("action kinds are text", f"action_kind() gave {shown(kind)} for {_text(s, a)}: a kind is a short "
                        f"text, 1 to {MAX_KIND} characters ('draw deck', 'column 4') {where}")
            return
        again = game.action_kind(state, a)
        if again != kind:
            report.fail("action kinds are text", f"action_kind() gave {shown(kind)}, then {shown(again)}, for "
                        f"{_text(s, a)} in one position {where}")
            return


def _check_texts(s: Session, legal: list[int], where: Where, report: CheckReport, game: CardGame) -> None:
    if legal and game_type(game).has("actions"):  # the game's own Actions: the ones the session would make
        made = list(game.actions(s.state))
        state = s.state
        for a, action in zip(legal, made, strict=False):
            want = (a, str(game.action_text(state, a)), game.move(state, a))
            if type(action) is not Action or (int(action), action.text, action.move) != want:
                report.fail("action text round trip", f"actions() gave {shown(action)} for action {a}, where the session "
                            f"makes Action({a}, {want[1]!r}) with move {shown(want[2])} {where}")
                return
        if len(made) != len(legal):
            report.fail("action text round trip", f"actions() gave {len(made)} Actions for {len(legal)} legal actions {where}")
            return
    for a in legal:
        text = s.action_text(a)
        try:
            back = s.action_id(text)
        except GameError as exc:
            report.fail("action text round trip", f"the text {text!r} of a legal action does not read back: {explain(exc, game)} {where}")
            return
        if back != a:
            report.fail("action text round trip", f"{text!r} reads back as action {back}, not {a} {where}")
            return


def _check_refusals(game: CardGame, s: Session, legal: list[int], bads: list[Any], before: Any, where: Where, report: CheckReport) -> None:
    """An illegal action (an unknown id, a made-up text) is refused with a GameError and changes nothing."""
    check, sid = "illegal actions are refused", s.state_id
    for bad in bads:
        if bad in legal:
            continue
        try:
            s.apply(bad)
            report.fail(check, f"{bad!r} is not a legal action, but it was applied {where}")
        except GameFault as exc:
            report.fail(check, f"refusal() let {bad!r} through and {crash(exc, game)} {where}")
        except GameError:
            pass
        except Exception as exc:
            report.fail(check, f"{bad!r} was not refused with a clear GameError: {crash(exc, game)} {where}")
        if s.state_id != sid or (before is not _NONE and not same_views(game.view(s.state, None), before)):
            report.fail(check, f"refusing {bad!r} changed the position {where}")


def _check_json(view: Any, seat: int | None, where: Where, report: CheckReport) -> None:
    try:
        dumped = json.dumps(view, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        report.fail("views are JSON-safe", f"view for seat {seat} is not JSON: {not_json(view, 'view') or cut(str(exc), 120)} {where}")
        return
    if json.loads(dumped) != view:
        report.fail("views are JSON-safe", f"view for seat {seat} changes through JSON (tuples? int keys?) {where}")


def _check_secrets(game: CardGame, state: Any, seat: int, view: Any, players: int, where: Where, report: CheckReport) -> None:
    nodes = Nodes(view)
    for other in range(players):
        if other == seat:
            continue
        for secret in game.secrets(state, other):
            if isinstance(secret, (int, float, bool)) or secret in ("", None):
                report.fail("hidden cards stay hidden", f"secrets() gave {secret!r}, a bare value: numbers like it appear in "
                            "views by chance (counts, scores), so write each secret as the view writes the card, in a form "
                            "that cannot appear by chance ({'id': 7} or 'red 5')")
                continue
            if nodes.holds(secret):
                report.fail("hidden cards stay hidden", f"seat {seat}'s view holds {secret!r:.60}, a secret of seat {other} {where}")


def _check_deal(game: CardGame, state: Any, seat: int, view: Any, legal: list[int], rng: random.Random, where: Where,
                report: CheckReport) -> None:
    """A position dealt from the seat's view shows it that view; the heuristic scores it as the real one."""
    dealt = _NONE
    with Guard(report, game, "determinize fits the view", where):
        try:
            dealt = game.determinize(view, seat, rng)
        except NotImplementedError:
            report.skipped["determinize fits the view"] = "the game has no determinize(): ISMCTS and the greedy bot cannot play it"
            try:
                none = not legal or game.heuristic(game.clone(state), list(legal)) is None
            except Exception:
                none = False
            report.skipped["heuristic reads only the view"] = (
                "the game has no heuristic()" if none else
                "the game has no determinize(): the heuristic's fairness cannot be tested, so fair_heuristic = True would be unproven")
            return
        shows = game.view(dealt, seat)
        if not same_views(shows, view):
            dealt = _NONE
            if not report.failed("determinize fits the view"):
                report.fail("determinize fits the view", f"a position dealt from seat {seat}'s view shows that seat something else: "
                            f"{first_difference(view, shows, 'the view', 'the dealt position')} {where}")
    if dealt is _NONE or not legal or report.failed("heuristic reads only the view"):
        return
    with Guard(report, game, "heuristic reads only the view", where):
        copy = game.clone(state)
        real = game.heuristic(copy, list(legal))
        if not game.same(copy, state):
            report.fail("heuristic reads only the view", f"heuristic() changed the position it scored {where}")
        elif not same_views(game.heuristic(dealt, list(legal)), real):
            report.fail("heuristic reads only the view", f"heuristic() scores a position dealt from seat {seat}'s view "
                        f"otherwise than the real one: it reads cards the player cannot see {where}")


def _check_board(game: CardGame, s: Session, legal: list[int], board: Any, where: Where, report: CheckReport) -> list[Any]:
    """The board follows the schema; every click names an id on it; the menus tell shared clicks
    apart. The legal actions' clicks (none for the text board)."""
    if board is None:  # the text board: no clicks to tell apart
        report.ran.add("clicks tell actions apart")
        return []
    problems, ids = board_problems(board, s.num_players)
    clicks = []
    for a in legal:
        text, click = s.action_text(a), game.click(s.state, a)
        problems += click_problems(click, ids, text)
        clicks.append((text, click))
    if problems:
        report.fail("board is valid", f"{problems[0]} {where}")
    if not report.failed("clicks tell actions apart"):
        collision = click_collisions(clicks)
        if collision:
            report.fail("clicks tell actions apart", f"{collision} {where}")
    report.ran.add("clicks tell actions apart")
    return [click for _, click in clicks]


def _check_best_actions(game: CardGame, s: Session, legal: list[int], where: Where, report: CheckReport) -> None:
    """``best_actions`` names exactly the heuristic's top actions, and neither changes the
    position; the heuristic scores no action NaN."""
    check = "best actions agree"
    state = s.state
    copy = game.clone(state)
    try:
        scores = game.heuristic(copy, list(legal))
        want = None if scores is None else top_actions(legal, scores)
    except Exception as exc:
        report.fail(check, f"{crash(exc, game, 'heuristic')} {where}")
        return
    nan = [a for a, x in zip(legal, scores, strict=True) if x != x] if scores is not None else []
    if nan:
        report.fail(check, f"heuristic() scored {s.action_text(nan[0])!r} NaN ({len(nan)} of {len(legal)} actions): a score must "
                    f"be a number (in play a NaN counts as the worst score) {where}")
        return
    if not game.same(copy, state):
        report.fail(check, f"heuristic() changed the position it scored {where}")
        return
    best = game.best_actions(copy, list(legal))
    if not game.same(copy, state):
        report.fail(check, f"best_actions() changed the position it read {where}")
    elif best != want:
        report.fail(check, f"best_actions() gave {best!r:.80} where the heuristic's top scores are {want!r:.80} "
                    f"(and the heuristic must score a position the same way each time) {where}")


def _check_game_over(game: CardGame, s: Session, seed: int, choices: list[int], report: CheckReport) -> None:
    where = Where(s, seed)

    def guard(check: str, doing: str = "") -> Guard:
        return Guard(report, game, check, where, doing)

    try:
        over = s.is_over
    except Exception:  # the play named it
        over = False
    if over and not report.failed("no actions once over"):
        with guard("no actions once over"):
            left = s.legal_action_ids()
            if left:
                texts = ", ".join(_text(s, a) for a in left[:3]) + (f" and {len(left) - 3} more" if len(left) > 3 else "")
                report.fail("no actions once over", f"is_over() is true, but legal_actions() still lists {texts} {where}")
    scores: Any = _NONE
    with guard("scores and summary"):
        raw = game.scores(s.state)  # a crash in the game's scores(): the guard names its line
        try:
            scores = finite_scores(game, raw)  # as the session reads them
        except GameFault as exc:
            report.fail("scores and summary", f"{exc} {where}")  # scores(), and the seat: never the summary that holds them
    if scores is not _NONE:
        with guard("scores and summary"):
            if len(scores) != s.num_players:
                report.fail("scores and summary", f"scores() must give one number per seat, got {scores!r:.60} {where}")
            summary = s.summary()
            try:
                json.dumps(summary, allow_nan=False)
            except (TypeError, ValueError) as exc:
                report.fail("scores and summary", f"summary() is not JSON-safe: {not_json(summary, 'summary()') or exc} {where}")
    with guard("deterministic by seed"):
        again = Session(game, s.num_players, seed=seed)
        try:
            for a in choices:
                again.apply(a)
        except Exception as exc:
            report.fail("deterministic by seed", f"replaying the same seed and choices failed at action {again.move_number + 1}: "
                        f"{explain(exc, game)} {where}")
        else:
            if not game.same(again.state, s.state) or again.logs != s.logs:
                report.fail("deterministic by seed", f"replaying the same seed and choices gave another position {where}")
    if over and scores is _NONE and "records round trip" not in report.ran:  # a record's last line holds the scores
        report.skipped.setdefault("records round trip", "not run: a record ends with the scores, and scores() failed "
                                                        "(see 'scores and summary')")
    for name in ("record()", "to_dict()"):
        if name == "record()" and over and scores is _NONE:
            continue
        with guard("records round trip", f"{name} did not read back: "):
            try:
                if name == "record()":
                    back = Session.from_record(s.record(), game=game)
                else:
                    back = Session.from_dict(json.loads(json.dumps(s.to_dict())), game=game)
            except GameError as exc:
                report.fail("records round trip", f"{name} did not read back: {explain(exc, game)} {where}")
                continue
            if back != s:
                report.fail("records round trip", f"{name} read back as another game {where}")
    with guard("undo and redo"):
        _check_undo(game, s, seed, choices, where, report)


def _check_undo(game: CardGame, s: Session, seed: int, choices: list[int], where: Where, report: CheckReport) -> None:
    views = []
    probe = Session(game, s.num_players, seed=seed)
    for a in choices:
        views.append(game.view(probe.state, None))
        probe.apply(a)
    k = min(len(choices), 7)
    probe.undo(k)
    if k and not same_views(game.view(probe.state, None), views[-k]):
        report.fail("undo and redo", f"undo({k}) did not give back the position {k} actions earlier {where}")
    probe.redo(k)
    if not game.same(probe.state, s.state):
        report.fail("undo and redo", f"redo({k}) after undo({k}) did not give back the same position {where}")
