"""``Note``: a line of the log that may say more to some seats than to the others; and
the placeholders that name seats in a game's texts.

A text (a note's, an action's, a click's label or choice) names seats with placeholders
that the session fills with the players' names:

- ``{player}``: the note's ``seat`` (in an action's text or a click's: the seat to act);
- ``{seat0}``, ``{seat1}``, ...: the seat of that number;
- ``{{`` and ``}}``: one brace. Any other brace is written as it is.

A seat the game does not have (``{seat5}`` with two players) is a :class:`GameFault`
naming the text, when the text is rendered. Other words in braces (``{palyer}``, a game's
own ``{x}``) and ``{player}`` where no seat acts are written as they are, as before seat
placeholders existed; :func:`placeholder_problems` (``check_game``) names them.

>>> render("{player} plays the Priest on {seat1}.", ("Ada", "Bo"), player=0)
'Ada plays the Priest on Bo.'
>>> render("{{seat0}} is written {seat0}", ("Ada", "Bo"))
'{seat0} is written Ada'
>>> placeholder_problems("{player} looks at {seat5}", 2, player=0)
["the text '{player} looks at {seat5}' names {seat5}, but the game has seats 0..1"]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import GameFault, shown

__all__ = ["Note", "event_problems", "placeholder_problems", "read_named", "render"]

# A brace pair around a word is a placeholder; {{ and }} are braces (as in str.format).
_PART = re.compile(r"\{\{|\}\}|\{([A-Za-z0-9_]+)\}")
_SEAT = re.compile(r"seat(0|[1-9][0-9]{0,5})")  # one spelling per seat: {seat01} is unknown


@dataclass(frozen=True, slots=True, repr=False)
class Note:
    """What happened, in words. ``{player}`` in a text stands for the name of ``seat``,
    ``{seat0}``, ``{seat1}``... for the name of that seat.

    ``text`` is what the seats in ``to`` (and the full table) read; ``others`` what every
    other viewer reads, spectators included. ``to`` is ``seat`` alone when left out, and
    then ``others`` left out means the same text (a public event). A note to chosen seats
    (``to``: a tuple of seats) must say what the others read: ``others`` text, or None to
    tell them nothing.

    ``Note("{player} drew the 7.", seat=0, others="{player} drew a card.")``;
    ``Note("{seat0} holds a 3, {seat1} a 5.", seat=0, to=(0, 1), others="{seat0} and {seat1} compared hands.")``
    """

    text: str
    seat: int | None = None
    others: str | None = ""  # "" stands for "the same text"
    to: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        to: Any = self.to
        if isinstance(to, (set, frozenset)) and all(type(s) is int for s in to):
            object.__setattr__(self, "to", tuple(sorted(to)))
        elif isinstance(to, (list, set, frozenset)):  # a list is as good as a tuple (and a Note stays hashable)
            object.__setattr__(self, "to", tuple(to))

    def text_for(self, viewer: int | None) -> str | None:
        """The line ``viewer`` reads (None: the full table; -1: a spectator)."""
        if viewer is None:
            return self.text
        if self.to is None:
            if self.seat is None or viewer == self.seat or self.others == "":
                return self.text
            return self.others
        problem = self.to_problem()
        if problem:
            raise GameFault(f"{self.name_for(viewer)}: {problem}")
        return self.text if viewer in self.to else self.others

    def to_problem(self, players: int | None = None) -> str | None:
        """What is wrong with ``to`` (and, given the number of seats, whether they exist);
        None when nothing is."""
        to: Any = self.to
        if to is None:
            return None
        if not isinstance(to, tuple) or any(type(s) is not int for s in to):
            return f"'to' must be a tuple of seats (whole numbers), got {shown(to)}"
        if players is not None and any(not 0 <= s < players for s in to):
            bad = next(s for s in to if not 0 <= s < players)
            return f"'to' names seat {bad}, but the game has {_seats(players)}"
        if self.others == "":
            return "a note to chosen seats ('to') must say what the others read: others='...', or others=None to tell them nothing"
        return None

    def name_for(self, viewer: int | None) -> str:
        """The note in an error message that ``viewer`` may read: quoted by a text they may
        read (so no message shows one seat what only another was told)."""
        if viewer is None or (self.to is None and viewer == self.seat):
            return f"the note {shown(self.text)}"
        if isinstance(self.others, str) and self.others:
            return f"the note {shown(self.others)} (as the others read it)"
        return f"a note of seat {shown(self.seat)}"

    def __repr__(self) -> str:
        to = "" if self.to is None else f", to={self.to!r}"  # left out as before when not given
        return f"Note(text={self.text!r}, seat={self.seat!r}, others={self.others!r}{to})"


def _problems(text: str, players: int, player: Any, *, first: bool, called: str | None = None) -> list[str]:
    """What is wrong with the placeholders of ``text``, each once (stop at the first if
    ``first``); ``called``: how to name the text (default: quoted)."""
    found: list[str] = []
    for m in _PART.finditer(text):
        name = m[1]
        if name is None or (name == "player" and _is_seat(player, players)):
            continue
        seat = _SEAT.fullmatch(name)
        if seat and int(seat[1]) < players:
            continue
        if name == "player":
            why = (f"names {{player}}, but {shown(player)} is no seat of the game ({_seats(players)})" if player is not None
                   else "names {player}, but stands for no seat here ({player} is a note's seat, or the seat to act)")
        elif seat:
            why = f"names {{{name}}}, but the game has {_seats(players)}"
        else:
            why = (f"has the unknown placeholder {shown('{' + name + '}', 30)} (placeholders: {{player}}, "
                   f"{', '.join(f'{{seat{s}}}' for s in range(min(players, 3)))}{', ...' if players > 3 else ''};"
                   " write {{ and }} for a brace)")
        problem = f"{called or 'the text ' + shown(text)} {why}"
        if problem not in found:
            found.append(problem)
            if first or len(found) == 20:  # enough to go on with, however long the text
                break
    return found


def _seats(players: int) -> str:
    return "one seat, 0" if players == 1 else f"seats 0..{players - 1}"


def _is_seat(seat: Any, players: int) -> bool:
    return type(seat) is int and 0 <= seat < players


def render(text: str, names: Sequence[str], player: int | None = None, *, called: str | None = None) -> str:
    """``text`` with the players' ``names`` in place of its placeholders: ``{player}``
    stands for seat ``player``. A placeholder naming no seat raises :class:`GameFault`,
    which quotes the text, or names it as ``called`` (a line only some seats may read)."""
    if "{" not in text and "}" not in text:  # most texts: nothing to do
        return text
    n = len(names)

    def name(m: re.Match[str]) -> str:
        word = m[1]
        if word is None:
            return m[0][0]
        if word == "player":
            # (no seat to name: as written, as before {seatN} existed; check_game names it)
            return names[player] if type(player) is int and 0 <= player < n else m[0]
        seat = _SEAT.fullmatch(word)
        if seat is None:  # not a placeholder of ours: a game's own braces stay (check_game names a typo)
            return m[0]
        if int(seat[1]) < n:
            return names[int(seat[1])]
        raise GameFault(_problems(text, n, player, first=True, called=called)[0])

    return _PART.sub(name, text)


def read_named(text: str, texts: Iterable[tuple[int, str]], names: Sequence[str], player: int | None, *,
               written_first: bool = False) -> int | None:
    """Which of ``texts`` (action ids and the game's texts) ``text`` reads, named (by
    :func:`render`) or as written; None if none. Case and spaces aside, the closest match
    first: names may differ only in case ("Ada", "ADA") or spaces. When a name reads like
    a placeholder ("{seat1}"), a text may read both ways: the named form wins, or the
    written one with ``written_first`` (a record's texts are written).

    >>> read_named("ADA plays on bo", [(3, "{player} plays on {seat1}")], ("Ada", "Bo"), 0)
    3
    """
    keys = (text, " ".join(text.split()), " ".join(text.lower().split()))
    best: tuple[int, int, int] | None = None  # (how loosely it matched, which form, action)
    for aid, raw in texts:
        forms = {int(not written_first): raw}  # the preferred form ranks 0
        try:
            forms[int(written_first)] = render(raw, names, player)
        except GameFault:  # a text that cannot be named is read only as written
            pass
        for rank, form in forms.items():
            for loose, key in enumerate((form, " ".join(form.split()), " ".join(form.lower().split()))):
                if key == keys[loose] and (best is None or (loose, rank) < best[:2]):
                    best = (loose, rank, aid)
        if best is not None and best[:2] == (0, 0):
            break
    return None if best is None else best[2]


def placeholder_problems(text: Any, players: int, *, player: int | None = None) -> list[str]:
    """What is wrong with the placeholders of ``text`` in a game of ``players`` seats,
    ``{player}`` standing for seat ``player`` (None: the text has no seat, so ``{player}``
    is wrong): each in words, none when the text renders."""
    if not isinstance(text, str):
        return [f"expected text, got {shown(text)}"]
    if "{" not in text and "}" not in text:
        return []
    return _problems(text, players, player, first=False)


def event_problems(event: Any, players: int) -> list[str]:
    """What is wrong with an event's texts in a game of ``players`` seats: a :class:`Note`'s
    ``to``, ``text`` and ``others``, or a text event's placeholders (a text has no seat, so
    no ``{player}``). The game's own event objects are checked when described."""
    if isinstance(event, str):
        return placeholder_problems(event, players)
    if not isinstance(event, Note):
        return []
    problem = event.to_problem(players)
    found = [f"{event.name_for(None)}: {problem}"] if problem else []
    for field, text in (("text", event.text), ("others", event.others)):
        if field == "text" or text is not None:
            found += [f"a note's {field}: {p}" if p.startswith("expected") else p
                      for p in placeholder_problems(text, players, player=event.seat)]
    return found
