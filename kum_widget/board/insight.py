"""What the board tells a player beyond the table: why a part takes no move now
(``why_not``), what a bot weighed at its last decision or for a hint (``analysis``), and
how fast the bots move (``pace``). Built, like the rest of what is sent, for one viewer
from what that viewer may see (``drawing``), through public ``Session`` methods.

Who may see a bot's analysis: it lists the legal actions of the bot's seat and how the
search valued them from that seat's view, so it says what that seat knows (its hand).
It is shown to the full table (``reveal``), to the bot's own seat, and, in a game of
perfect information whose moves are not chosen in secret (no simultaneous steps), to
anyone: there the bot knows nothing the others do not. A hint is its asker's, on the
position it was asked on.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

from ..bots import Analysis, RandomBot, Thoughts
from ..bots.analysis import analysing, ranked
from ..core.board import unclicked_parts
from ..core.errors import GameError, cut, shown
from ..core.game import nothing_hidden
from ..core.session import Session
from .drawing import Viewer, bot_label, drawn_frame, frame_for
from .thoughts import chance_range, equal_best, hidden_said, said

__all__ = ["PACES", "Decision", "analysis_payload", "bot_decision", "check_pace", "drawn", "hinting", "pace_delay", "shown_analysis",
           "why_not_payload"]

# pace: the factor on bot_delay between two bot moves
PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.25, "instant": 0.0}
REASON_CHARS = 300  # a reason is a sentence or two
SHOWN_ACTIONS = 3  # the plain reason lists this many of the moves there are


def check_pace(pace: Any) -> str:
    if not isinstance(pace, str) or pace not in PACES:
        raise GameError(f"pace must be one of {', '.join(PACES)}, got {shown(pace, 30)}")
    return pace


def pace_delay(bot_delay: float, pace: str) -> float:
    """Seconds before a bot's move: ``bot_delay`` scaled by the pace (instant: none)."""
    return bot_delay * PACES[pace]


# -- why not --------------------------------------------------------------------------------


def _own(zones: Any) -> Iterator[str]:
    """The ids of the seat's own parts in its ``zones``: its hand's face-up cards, its pieces."""
    stack = [zones]
    while stack:
        here = stack.pop()
        for z in here if isinstance(here, list) else ():
            if not isinstance(z, dict):
                continue
            hand = z.get("layout") == "hand"
            for card in z.get("cards") or ():
                if hand and isinstance(card, dict) and isinstance(card.get("id"), str) and not card.get("down"):
                    yield card["id"]
            holders = [z] + [p for key in ("cells", "places") for p in z.get(key) or () if isinstance(p, dict)]
            for holder in holders:
                for piece in holder.get("pieces") or ():
                    if isinstance(piece, dict) and isinstance(piece.get("id"), str):
                        yield piece["id"]
            if isinstance(z.get("zones"), list):
                stack.append(z["zones"])


def _plainly(texts: list[str]) -> str:
    """The plain reason for a card of one's own hand the game says nothing about."""
    listed = ", ".join(texts[:SHOWN_ACTIONS]) + (f" and {len(texts) - SHOWN_ACTIONS} more" if len(texts) > SHOWN_ACTIONS else "")
    return f"No legal move uses this now. You may: {listed}."


def why_not_payload(session: Session, seat: int, board: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, str]:
    """``{part id: reason}`` for each part on ``board`` (drawn for a viewer who may act for
    ``seat``, the seat to act) that no legal action uses: the game's ``why_not``, read from
    the seat's own view; for the seat's own hand cards and pieces, a plain one failing that."""
    if not legal:
        return {}
    game, view = session.game, session.view(seat)
    seats = board.get("seats")
    own = {part for s in (seats if isinstance(seats, list) else ()) if isinstance(s, dict) and s.get("seat") == seat for part in _own(s.get("zones"))}
    out: dict[str, str] = {}
    for part in unclicked_parts(board, legal):  # the parts the checker asks about too (check_game)
        try:
            reason = game.why_not(view, seat, part)
            reason = session.named(reason, seat) if isinstance(reason, str) and reason.strip() else None
        except Exception:  # a game's bug must not cost the board: the part just says less
            reason = None
        if reason is None and part in own:
            reason = _plainly([e["text"] for e in legal])
        if reason:
            out[part] = cut(reason.strip(), REASON_CHARS)
    return out


# -- a bot's thinking ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """An analysis for the board: a bot's decision (``kind`` "bot": the game dealt from
    ``seed`` whose history starts with ``moves``, the bot's move last) or a hint (``kind``
    "hint", for the position ``state_id``), drawn as ``payload`` (the ``analysis`` trait)."""

    kind: str
    seat: int
    payload: dict[str, Any]
    state_id: int = -1
    seed: int | None = None
    moves: tuple[int, ...] = ()
    before: Decision | None = None  # a hint's: the bot decision it stands over, shown again once the hint is gone
    hidden: dict[str, Any] | None = None  # a bot's: what a reader who may not see its hand is told (its "said" filled in then)


def _figure(x: float | None) -> float | None:
    """A figure for the page: None for none, or for one that is no number (NaN, infinite)."""
    if x is None:
        return None
    try:
        f = float(x)
    except (TypeError, ValueError, OverflowError):
        return None
    return round(f, 3) if math.isfinite(f) else None


def analysis_payload(session: Session, kind: str, seat: int, name: str, thoughts: Thoughts | None, chosen: int | None,
                     random_bot: bool = False) -> dict[str, Any]:
    """The ``analysis`` trait for ``thoughts`` about the legal actions now (called before
    the move is made: each move's text and click are those of the position decided on),
    with what it weighed in plain words (``said``, ``thoughts``). ``thoughts`` None:
    a bot that weighs nothing (``random_bot``: it picks at random). A hint whose best moves
    the figures cannot tell apart names none (``chosen`` None, ``equal`` lists them)."""
    ids = session.legal_action_ids()
    clicks = dict(zip(ids, session.clicks(ids), strict=True))
    measure = thoughts.measure if thoughts is not None else "none"
    tries = int(thoughts.iterations) if thoughts is not None else 0
    moves = []
    for aid, w in ranked(thoughts or Thoughts({}), ids):
        click = clicks[aid]
        move: dict[str, Any] = {"action": session.action_text(aid),
                                "source": click["source"] if isinstance(click.get("source"), str) else None,
                                "target": click["target"] if isinstance(click.get("target"), str) else None,
                                "share": None if w is None else _figure(w.visits), "value": None if w is None else _figure(w.value)}
        if w is not None and w.score is not None:
            move["score"] = _figure(w.score)
        span = chance_range(move["value"], move["share"], tries) if measure == "win" else None
        if span is not None:
            move["low"], move["high"] = _figure(span[0]), _figure(span[1])
        moves.append(move)
    chosen_text = session.action_text(chosen) if chosen is not None and chosen in ids else None
    words = said(kind, name, measure, moves, chosen_text, random_bot, unseen=not nothing_hidden(session.game))
    ties = equal_best(moves, measure) if kind == "hint" and len(moves) > 1 else []
    equal = [m["action"] for m in ties] if len(ties) > 1 else []
    if equal:
        chosen_text = None  # the figures name no best move
    return {"kind": kind, "seat": seat, "name": name, "measure": measure, "chosen": chosen_text, "equal": equal,
            "said": [cut(x, REASON_CHARS * 2) for x in words], "moves": moves}


def current(decision: Decision | None, session: Session) -> bool:
    """Does ``decision`` still stand: a bot's move still in the history (the same game, the
    same moves up to it), a hint on its position?"""
    if decision is None:
        return False
    if decision.kind == "hint":
        return decision.state_id == session.state_id
    n = len(decision.moves)
    return session.seed == decision.seed and session.move_number >= n and tuple(map(int, session.history[:n])) == decision.moves


def _public_move(session: Session, decision: Decision, viewer: Viewer) -> str:
    """The bot's move of ``decision`` as ``viewer``'s log tells it ("" when it says nothing)."""
    back = session.move_number - (len(decision.moves) - 1)
    if back < 1:
        return ""
    try:
        events = session.recent_logs(back)[0]
        seat = viewer.seat if viewer.kind == "seat" else None
        words = [session.describe(e, seat, spectator=viewer.kind == "public") for e in events]
    except Exception:  # a game's fault in its log is told elsewhere (the board's error): here the move says nothing
        return ""
    return cut(" ".join(w for w in words if w).strip(), REASON_CHARS)


def shown_analysis(decision: Decision | None, session: Session, viewer: Viewer) -> dict[str, Any] | None:
    """The ``analysis`` trait for ``viewer``: the decision while it stands (a hint gone,
    the bot decision it stood over), in full where its seat's view may be shown (see the
    module's docstring); to anyone else, a bot's decision in words that name nothing of its
    hand (how it chooses, and its move as the viewer's log tells it); else None."""
    if decision is not None and decision.kind == "hint" and not current(decision, session):
        decision = decision.before
    if not current(decision, session):
        return None
    assert decision is not None
    if viewer.kind == "full" or (viewer.kind == "seat" and viewer.seat == decision.seat):
        return decision.payload
    if decision.kind == "bot" and nothing_hidden(session.game):
        return decision.payload
    if decision.kind == "bot" and decision.hidden is not None:
        h = decision.hidden
        said_now = hidden_said(h["name"], h["measure"], _public_move(session, decision, viewer), h["random"])
        return {**{k: v for k, v in h.items() if k != "random"}, "said": said_now}
    return None


def bot_decision(session: Session, seat: int, bot: Any, action: int) -> Decision | None:
    """What ``bot`` weighed for ``action``, the move it is about to make for ``seat`` (asked
    before the move: drawn on the position decided on); a bot that weighs nothing says so
    (the random bot: at random). None only when telling it fails."""
    seated, label = session.players[seat], bot_label(bot)
    name = seated if seated == label else f"{seated} ({label})"  # a seat named after its bot is not named twice
    random_bot = isinstance(bot, RandomBot)
    try:
        thoughts = bot.analysis()
        payload = analysis_payload(session, "bot", seat, name, thoughts if isinstance(thoughts, Thoughts) else None, action, random_bot)
    except Exception:  # what a bot weighed is a bonus: failing to tell it never stops its move
        return None
    hidden = {"kind": "bot", "seat": seat, "name": name, "measure": payload["measure"], "chosen": None, "equal": [], "moves": [],
              "hidden": True, "random": random_bot}
    return Decision("bot", seat, payload, seed=session.seed, moves=(*map(int, session.history), action), hidden=hidden)


def hinting(session: Session, seat: int, bot: Any, before: Decision | None = None,
            deadline: float | None = None) -> Generator[None, None, tuple[Analysis, Decision]]:
    """What ``bot`` would play for ``seat`` (the seat to act), from its view alone
    (``kum.bots.analyse``), and its drawing for the board (kind "hint"); ``before``: the
    board's decision it stands over (a bot's last move: shown again once the hint is gone).
    In steps (the search yields now and then: a board runs it a slice at a time), by
    ``deadline`` (a ``time.perf_counter()`` time) if one is given."""
    table = yield from analysing(session, bot, seat=seat, deadline=deadline)
    chosen = int(table.chosen) if table.chosen is not None else None
    payload = analysis_payload(session, "hint", seat, f"hint for {session.players[seat]}", table.thoughts(), chosen)
    kept = before.before if before is not None and before.kind == "hint" else before
    return table, Decision("hint", seat, payload, state_id=session.state_id, before=kept)


def drawn(session: Session, viewer: Viewer, status: str | None, actions: list[int], bots: dict[int, Any],
          decision: Decision | None) -> dict[str, Any]:
    """The traits that draw the board for ``viewer``: its board, the legal actions offered
    (``actions``), the log, the last move, the reasons why not (on its turn) and the
    analysis it may see."""
    traits = drawn_frame(frame_for(session, viewer, actions), bots=bots, status=status)
    return {**traits, "why_not": why_not_payload(session, session.current_player, traits["board"], traits["legal"]["actions"]),
            "analysis": shown_analysis(decision, session, viewer)}
