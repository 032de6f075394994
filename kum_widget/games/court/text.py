"""The court solitaire as a compact text table (``str(game)``, the widget's text form)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import BUYING, FIGHTING, OVER, SETUP, CourtState, space_name

if TYPE_CHECKING:
    from .formulas import CourtFormulas

__all__ = ["court_text"]

_PHASE = {SETUP: "setup: choose 3 starting cards", BUYING: "phase 1: buy or pass", FIGHTING: "phase 2: fight or skip", OVER: "game over"}


def court_text(game: CourtFormulas, s: CourtState) -> str:
    """
    >>> from kum_widget.games.court import Court
    >>> print(str(Court(seed=4)).splitlines()[0])
    Court of the Three Clans, turn 1, setup: choose 3 starting cards; 10 CP, 0 VP from princes, strength 0
    """
    t = game.table

    def card(c: int | None, width: int) -> str:
        return ("-" if c is None else t[c].label).ljust(width)

    lines = [f"Court of the Three Clans, turn {s.turn}, {_PHASE[s.phase]}; {s.cp} CP, "
             f"{sum(t[c].vp for c in s.defeated)} VP from princes, strength {game.strength(s)}"]
    places = []
    for p, c in enumerate(s.row):
        if c is None:
            places.append(f"{p + 1} -")
        elif t[c].prince:
            places.append(f"{p + 1} {t[c].label} [{t[c].vp} VP]")
        else:
            places.append(f"{p + 1} {t[c].label} [{game.price(c, p + 1)} CP]")
    lines.append("Society Row:  " + " | ".join(places))
    for r in (0, 1):
        cells = " | ".join(f"{space_name(x)} {card(s.court[x], 20)}" for x in range(r * 4, r * 4 + 4))
        lines.append(("Royal Court:  " if r == 0 else " " * 14) + cells.rstrip())
    drawn = game.daemons_drawn(s)
    lines.append(f"Draw pile {len(s.pile)}; princes drawn {drawn} of {len(t.princes)}; defeated {len(s.defeated)}; "
                 f"discarded {len(s.discarded)}; daemons' court {len(s.captured)} (-{sum(t[c].vp for c in s.captured)} VP)")
    parts = game.breakdown(s)
    shown = ", ".join(f"{k} {v:+d}" for k, v in parts.items() if v)
    lines.append(f"Score {game.score(s)} ({game.rank(s)})" + (f": {shown}" if shown else ""))
    return "\n".join(lines)
