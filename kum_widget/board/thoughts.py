"""What the board says of a bot's decision or a hint, in plain words for a student
(``said``: a sentence or three), and the figures a move is shown with (``insight``
builds the ``analysis`` trait from them).

The words follow what the figures are: the greedy bot's are the game's rule of thumb,
scaled so its best move is 100 (never a chance); only a search's or an evaluator's
figures speak of a chance to win, as "about 62%", with the range the search's own
sample leaves (a 95% Wilson interval over the play-outs behind that move). A hint names
one best move only when that range does not overlap the runner-up's; otherwise it says
which moves are about equal. No text says how the search counts its work.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["chance_range", "equal_best", "hidden_said", "said", "whole"]

Z = 1.96  # a 95% interval
NAMED = 4  # an "about equal" sentence names this many moves, then says how many more
NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def whole(n: int) -> str:
    """A small count in words ("three"), a larger one in figures."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def chance_range(value: float | None, share: float | None, tries: int) -> tuple[float, float] | None:
    """The 95% range of a chance to win ``value`` estimated from ``share`` of ``tries``
    play-outs (Wilson's interval: sound near 0 and 1, where most hints end up); None when
    nothing was tried."""
    if value is None or share is None or tries <= 0:
        return None
    n = share * tries
    if n < 1:
        return None
    p = min(1.0, max(0.0, value))
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _about(move: dict[str, Any], measure: str) -> str:
    """A move's figure in words: a chance ("about 62%"), an expected score, a rule-of-thumb score."""
    if measure == "win" and move.get("value") is not None:
        return f"about {pct(move['value'])}"
    if measure == "score" and move.get("score") is not None:
        return f"about {round(move['score'], 1):g}"
    if move.get("value") is not None:
        return f"{round(100 * move['value'])}"
    return "not tried"


def equal_best(moves: Sequence[dict[str, Any]], measure: str) -> list[dict[str, Any]]:
    """The moves as good as the best as far as the figures can tell, the best first: for a
    chance to win, those whose range overlaps the best's; otherwise those whose figure is
    the best's when shown (an expected score to one decimal, a rule-of-thumb score)."""
    tried = [m for m in moves if _about(m, measure) != "not tried"]
    if not tried:
        return []
    best = tried[0]
    if measure == "win":
        low = best.get("low")
        if low is None:
            return [best]
        return [best] + [m for m in tried[1:] if m.get("high") is not None and m["high"] >= low]
    if measure == "score" and best.get("score") is not None:  # no spread is known: within half a point or 5%
        near = best["score"] - max(0.5, 0.05 * abs(best["score"]))
        return [best] + [m for m in tried[1:] if m.get("score") is not None and m["score"] >= near]
    return [best] + [m for m in tried[1:] if _about(m, measure) == _about(best, measure)]


def _listed(moves: Sequence[dict[str, Any]], measure: str) -> str:
    named = [f"{m['action']} ({_about(m, measure)})" for m in moves[:NAMED]]
    more = len(moves) - NAMED
    return ", ".join(named) + (f" and {whole(more)} more" if more > 0 else "")


def said(kind: str, name: str, measure: str, moves: Sequence[dict[str, Any]], chosen: str | None, random_bot: bool,
         unseen: bool = True) -> list[str]:
    """What ``name`` (a bot, or the hint) considered and why, for the reader who may see its
    moves (``moves``: each with ``action``, and ``value``, ``score``, ``low``, ``high`` as
    measured, the one it rates best first; ``chosen``: the move it plays, or a hint's pick;
    ``unseen``: the game hides cards from the seat, which a search deals at random)."""
    hint = kind == "hint"
    who = "The hint" if hint else name
    played = [m for m in moves if m["action"] == chosen]
    if not hint and played:  # what a bot played leads (a search may play a move its figures put second)
        moves = played + [m for m in moves if m["action"] != chosen]
    if len(moves) == 1:
        only = moves[0]["action"]
        return [f"Only one move is legal here: {only}." if hint else f"{who} had only one legal move: {only}."]
    if measure == "none" or all(m.get("value") is None and m.get("score") is None for m in moves):
        how = "picks one of its legal moves at random: it weighs nothing" if random_bot else "does not say how it weighs its moves"
        return [f"{who} {how}." + (f" It played {chosen}." if chosen and not hint else "")]
    n = whole(len(moves))
    its, it = ("your", "you") if hint else ("its", "it")
    if measure == "heuristic":
        lead = (f"{who} judged each of {its} {n} moves by the game's rule of thumb: a quick score of how good a move looks "
                "right now, scaled so the best move is 100 and the worst 0. It does not look ahead.")
    elif measure == "score":
        lead = f"{who} played this solitaire out to the end many times from here, by each of {its} {n} moves, and took the best average final score."
    else:
        dealt = f", with the cards {it} cannot see dealt at random each time" if unseen else ""
        lead = f"{who} played the game out many times from here, by each of {its} {n} moves{dealt}; a move's chance to win is how often it won."
    ties = equal_best(moves, measure)
    best = moves[0]
    if hint and len(ties) > 1:
        why = "The rule of thumb scores them the same" if measure == "heuristic" else "The search cannot tell them apart"
        return [lead, f"These {whole(len(ties))} are about equal: {_listed(ties, measure)}. {why}: any of them is a fair choice."]
    figure = _about(best, measure)
    if measure == "win" and best.get("low") is not None:
        figure = f"chance to win {figure} (between {pct(best['low'])} and {pct(best['high'])})"
    elif measure == "win":
        figure = f"chance to win {figure}"
    elif measure == "score":
        figure = f"expected final score {figure}"
    else:
        figure = f"rule-of-thumb score {figure}"
    if hint:
        out = [lead, f"Best: {best['action']}, {figure}."]
    else:
        picked = chosen or best["action"]
        out = [lead, f"It played {picked}, {figure}." if picked == best["action"] else f"It played {picked}."]
        if len(ties) > 1 and measure == "heuristic":
            out.append(f"{whole(len(ties)).capitalize()} moves scored the same; it picked one of them at random.")
    rest = [m for m in moves[1:] if _about(m, measure) != "not tried"]
    if rest and hint:  # one sentence, the hint's verdict, last (the board says it aloud)
        out[-1] = f"{out[-1][:-1]}; next: {_listed(rest[:2], measure)}."
    elif rest and not (len(ties) > 1 and measure == "heuristic"):
        out.append(f"Next: {_listed(rest[:2], measure)}.")
    return out


def hidden_said(name: str, measure: str, public: str, random_bot: bool) -> list[str]:
    """What a reader who may not see the bot's hand is told of its decision: how it chooses,
    and the move as the log shows that reader (``public``), but neither the moves it had
    nor its figures (they would tell what it holds)."""
    how = {"heuristic": "by the game's rule of thumb (a quick score of how good each move looks now; it does not look ahead): "
                        "it played the move that scored best",
           "win": "by playing the game out many times from what it can see, the cards it cannot see dealt at random: "
                  "it played the move that won most often",
           "score": "by playing the solitaire out many times from here: it played the move with the best final score"}.get(
        measure, "at random: it weighs nothing" if random_bot else "in a way it does not say")
    played = f"{name}'s last move: {public}" if public else f"{name} has chosen; its choice stays sealed until it is shown"
    kept = "Its other moves stay hidden" if measure == "none" else "Its other moves and its figures stay hidden"
    return [played.rstrip(".") + ".", f"It chooses {how}. {kept}, as its hand does."]
