"""A frame: everything one viewer may know of a game now, in one value.

``Session.frame(viewer)`` builds it; the board draws the game from it alone, a hot seat's
pass screen shows the public frame, and it is what a referee sends across the network.
A viewer is a seat (an ``int``), ``None`` for the full table (every card face up: a
teacher's reveal, a replay), or ``"public"`` for a spectator who holds no cards.

Everything in a frame comes from what that viewer may see: the game's drawing of the
viewer's view (``CardGame.board``), the actions that viewer may take now, and the log
as the viewer may read it. The last move names a zone of the viewer's own board, never a
card, and nothing for a choice still sealed in a simultaneous step.

>>> from kum_widget.core import Session
>>> from kum_widget.core.examples import Bust
>>> s = Session(Bust(), ["Ada", "Bo"], seed=1)
>>> f = s.frame(0)
>>> f.viewer, f.to_act, f.status, [a.text for a in f.actions]
(0, (0,), 'Ada to act.', ['play 3', 'play 5', 'play 9', 'draw'])
>>> s.frame(1).actions, s.frame("public").actions
((), ())
>>> _ = s.apply("play 3")
>>> s.frame(1).log, s.frame(1).last_move, s.frame(1).sequence
(('Ada played a 3: the pile is at 3.',), {'seat': 0, 'target': 'pile'}, 1)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import GameFault, InvalidOptionError, cut, shown
from .help_text import cut_help, help_paragraphs

__all__ = ["Frame", "Offered", "PUBLIC", "LOG_LINES", "MAX_ACTION_ID", "frame_of", "check_viewer", "outcome", "status_line",
           "zone_ids"]

PUBLIC = "public"  # the viewer who holds no cards: a spectator, a pass screen
LOG_LINES = 20  # a frame's log: the last this many actions, one line each
MAX_ACTION_ID = 2**53 - 1  # a web page carries an action's id as a JavaScript number, exact up to this


@dataclass(frozen=True)
class Offered:
    """An action the viewer may take now: its id (what a click sends back), its text, and
    where it is clicked (``CardGame.click``): ``source`` and ``target`` name parts of the
    board; ``label`` and ``choice`` are words the player reads (a button's, a menu entry's)."""

    id: int
    text: str
    source: str | None = None
    target: str | None = None
    label: str | None = None
    choice: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The action as a page reads it: the fields that are set."""
        out: dict[str, Any] = {"id": self.id, "text": self.text}
        for key in ("source", "target", "label", "choice"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True)
class Frame:
    """Everything ``viewer`` may know of the game at state ``state_id``.

    - ``board``: the game's drawing of the viewer's view with the table's facts added
      (``title``, ``status``, ``over``, ``players`` with who acts, has won and the scores
      at the end, ``shown_seat``, ``spectator``, ``outcome`` at the end, and the help texts);
    - ``actions``: what the viewer may do now (none but for the seat to act, or the full table);
    - ``to_act``: the seats to act (several in a simultaneous step), ``current`` the one
      choosing now (None when the game is over);
    - ``status``: the status line; ``last_move``: who moved last (``seat``) and the zone of
      this board it went to (``target``), empty before the first move;
    - ``log``: the last actions as the viewer may read them, a line each;
    - ``state_id``: the session's state id (it grows at every change: the newer of two
      frames); ``sequence``: how many actions the game has taken (undo lowers it).
    """

    viewer: int | str | None
    board: Mapping[str, Any]
    actions: tuple[Offered, ...]
    to_act: tuple[int, ...]
    current: int | None
    status: str
    last_move: Mapping[str, Any]
    log: tuple[str, ...]
    state_id: int
    sequence: int
    over: bool

    def action(self, action_id: Any) -> Offered:
        """The offered action whose id is ``action_id``; an id not offered (or no whole
        number) is an :class:`InvalidOptionError` saying so."""
        if type(action_id) is int:
            for offered in self.actions:
                if offered.id == action_id:
                    return offered
        raise InvalidOptionError(f"action id {shown(action_id)} is not offered to {viewer_name(self.viewer)} at state {self.state_id}")

    def to_json(self) -> dict[str, Any]:
        """The frame as JSON values (what crosses a wire)."""
        return {"viewer": self.viewer, "board": dict(self.board), "actions": [a.to_json() for a in self.actions],
                "to_act": list(self.to_act), "current": self.current, "status": self.status, "last_move": dict(self.last_move),
                "log": list(self.log), "state_id": self.state_id, "sequence": self.sequence, "over": self.over}


def viewer_name(viewer: int | str | None) -> str:
    return "the full table" if viewer is None else "the public" if viewer == PUBLIC else f"seat {viewer}"


def check_viewer(viewer: Any, players: int) -> int | str | None:
    """``viewer`` if it is one: a seat ``0..players-1``, None (the full table) or "public"."""
    if viewer is None or (viewer == PUBLIC and isinstance(viewer, str)):
        return viewer
    if type(viewer) is not int or not 0 <= viewer < players:
        raise InvalidOptionError(f"a viewer is a seat 0..{players - 1}, None (the full table) or 'public', got {shown(viewer)}")
    return viewer


def frame_of(session: Any, viewer: int | str | None, offer: Sequence[int] | None = None, log_lines: int = LOG_LINES) -> Frame:
    """``session``'s frame for ``viewer`` (checked by the caller: ``Session.frame``); ``offer``:
    only these of the viewer's actions (a board offers none on a bot's turn)."""
    view = session.public_view() if viewer == PUBLIC else session.view(viewer)
    seat = viewer if type(viewer) is int else None
    over = session.is_over
    board = _board(session, view, seat, viewer == PUBLIC)
    current = None if over else session.current_player
    mine = not over and (viewer is None or viewer == current)
    ids = session.legal_action_ids() if mine else []
    if offer is not None and ids:
        offered = set(offer)  # once, not per legal action: the board asks at every change
        ids = [a for a in ids if a in offered]
    return Frame(viewer=viewer, board=board, actions=tuple(_offered(session, ids)),
                 to_act=tuple(session.to_act) if not over else (), current=current, status=board["status"],
                 last_move=_last_move(session, board), log=tuple(_log(session, seat, viewer == PUBLIC, log_lines)),
                 state_id=session.state_id, sequence=session.move_number, over=over)


def _board(session: Any, view: dict[str, Any], seat: int | None, public: bool) -> dict[str, Any]:
    game = session.game
    drawn = game.board(view, seat)
    board: dict[str, Any] = dict(drawn) if drawn is not None else {"text": json.dumps(view, indent=1, ensure_ascii=False)[:20_000]}
    over = session.is_over
    winners = session.winners() if over and session.num_players > 1 else []  # a solitaire has no winner to name
    cur = session.current_player
    step = session.to_act if not over else []
    chosen = set(step[:step.index(cur)]) if len(step) > 1 and cur in step else set()  # a simultaneous step: who has chosen
    board["title"] = str(board.get("title") or game.title or game.name)
    board["status"] = status_line(session, board.get("status"))
    for key, value in help_texts(game, board["title"]).items():
        board.setdefault(key, value)  # an intro the game's board gives itself wins
    board["over"] = over
    scores = session.scores() if over else []
    board["players"] = [
        {
            "seat": p,
            "name": name,
            "current": p == cur and not over,
            **({"winner": True} if p in winners else {}),
            **({"choice": "chosen" if p in chosen else "choosing"} if len(step) > 1 and p in step else {}),
            **({"score": _number(scores[p])} if over else {}),
        }
        for p, name in enumerate(session.players)
    ]
    board["shown_seat"] = seat
    board["spectator"] = public
    if over:  # what decided the game: the game's words, else who won and the scores
        said = board.get("outcome")
        board["outcome"] = said.strip() if isinstance(said, str) and said.strip() else outcome(session)
    else:
        board.pop("outcome", None)
    return board


def status_line(session: Any, said: Any = None) -> str:
    """The status line: ``said`` (the game's board's, or a board's own) when it is text,
    else whose turn it is. At game over a line about a game going on ("Round 5 of 5") is
    replaced by who won: only a line that starts "Game over" stays."""
    line = str(said) if said else _status(session)
    return _status(session) if session.is_over and not line.startswith("Game over") else line


def outcome(session: Any) -> str:
    """Who won, with what, and the others' scores, with the players' names: the game-over
    banner's words when the game gives none.

    >>> from kum_widget.core import Session
    >>> from kum_widget.core.examples import Bust
    >>> game = Session(Bust(), ["Ada", "Bo"], seed=1)
    >>> while not game.is_over: _ = game.apply(game.legal_actions()[-1])
    >>> outcome(game)
    'Ada wins with 1 point; Bo 0.'
    """
    names, scores = session.players, [_number(v) for v in session.scores()]
    if session.num_players == 1:
        return f"Final score: {scores[0]}."
    won = session.winners()
    if not won:
        return "Game over: " + ", ".join(f"{names[p]} {scores[p]}" for p in range(len(names))) + "."
    top = scores[won[0]]
    unit = "point" if top in (1, -1) else "points"
    who = f"{' and '.join(names[w] for w in won)} {'wins' if len(won) == 1 else 'share the win'} with {top} {unit}"
    rest = [f"{names[p]} {scores[p]}" for p in sorted(range(len(names)), key=lambda p: -scores[p] if isinstance(scores[p], (int, float)) else 0)
            if p not in won]
    return who + (f"; {', '.join(rest)}." if rest else ".")


def _number(v: Any) -> Any:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _status(session: Any) -> str:
    if session.is_over:
        if session.num_players == 1:
            return f"Game over: final score {_number(session.scores()[0])}."
        won = [session.players[w] for w in session.winners()]
        return f"Game over: {' and '.join(won)} {'wins' if len(won) == 1 else 'share the win'}." if won else "Game over."
    return f"{session.players[session.current_player]} to act."


def help_texts(game: Any, title: str) -> dict[str, Any]:
    """The board keys the game's ``how_to_play()`` gives (``CardGame.how_to_play``): ``intro``
    (the first-time panel: a title and its paragraphs) and ``rules`` (the same shape), each
    only when the game has it. A text is cut into paragraphs at its blank lines, and cut
    short (``core.help_text``: a board sends it on every change). A hook that raises or
    gives a bad shape is a GameFault naming the game and the hook.

    >>> from kum_widget.core.examples import Bust
    >>> class Told(Bust):
    ...     def how_to_play(self): return {"intro": "Reach 21.\\n\\nOne card a turn.", "rules": ["Over 21 busts."]}
    >>> texts = help_texts(Told(), "Bust")
    >>> texts["intro"]["title"], texts["intro"]["paragraphs"], texts["rules"]["title"]
    ('Bust: how to play', ['Reach 21.', 'One card a turn.'], 'The rules')
    """
    headings = {"intro": f"{title}: how to play", "rules": "The rules"}
    return {key: {"title": headings[key], "paragraphs": cut_help(paragraphs)} for key, paragraphs in help_paragraphs(game, title).items()}


def _offered(session: Any, ids: list[int]) -> list[Offered]:
    out = []
    for aid, click in zip(ids, session.clicks(ids) if ids else [], strict=True):
        if not -MAX_ACTION_ID <= aid <= MAX_ACTION_ID:
            raise GameFault(f"{session.title} offers an action id beyond ±(2**53 - 1), which a page cannot send back exactly: "
                            "a game's action ids stay within that range")
        where = {key: click[key] for key in ("source", "target") if isinstance(click.get(key), str)}
        words = {key: session.named(click[key]) for key in ("label", "choice") if isinstance(click.get(key), str)}  # with the names in
        out.append(Offered(aid, session.action_text(aid), **where, **words))
    return out


def _log(session: Any, seat: int | None, public: bool, count: int) -> list[str]:
    lines = []
    for events in session.recent_logs(count):
        words = [_line(session, e, seat, public) for e in events]
        lines.append(" ".join(w for w in words if w))
    return lines


def _line(session: Any, event: Any, seat: int | None, public: bool) -> str | None:
    """One event for the log: a line the game fails to write says so, in its place, and the
    game goes on (the fault names a private line without its words: ``Session.describe``)."""
    try:
        line: str | None = session.describe(event, seat, spectator=public)
        return line
    except GameFault as exc:
        return f"({cut(str(exc))})"


def zone_ids(board: Mapping[str, Any]) -> set[str]:
    """The ids of every zone on a board description, and of its cells and places (the
    board's own parts: they say nothing a view hides, as a card's or a piece's id might)."""
    return set(_zone_ids(board))


def has_zone(board: Mapping[str, Any], zone_id: str) -> bool:
    """Is ``zone_id`` one of :func:`zone_ids` (looked for until found: every frame asks it)?"""
    return any(found == zone_id for found in _zone_ids(board))


def _zone_ids(board: Mapping[str, Any]) -> Iterator[str]:
    def walk(zones: Any) -> Iterator[str]:
        for z in zones if isinstance(zones, list) else ():
            if isinstance(z, dict):
                if isinstance(z.get("id"), str):
                    yield z["id"]
                for key in ("cells", "places"):
                    parts = z.get(key)
                    for part in parts if isinstance(parts, list) else ():
                        if isinstance(part, dict) and isinstance(part.get("id"), str):
                            yield part["id"]
                if "zones" in z:
                    yield from walk(z["zones"])

    yield from walk(board.get("zones"))
    seats = board.get("seats")
    for seat in seats if isinstance(seats, list) else ():
        if isinstance(seat, dict):
            yield from walk(seat.get("zones"))


def sealed(session: Any, seat: int) -> bool:
    """Has ``seat`` chosen in the simultaneous step still open, its choice not yet revealed?"""
    if not session.game.simultaneous or session.is_over:
        return False
    to_act, now = session.to_act, session.current_player
    return bool(now in to_act and seat in to_act[:to_act.index(now)])


def _last_move(session: Any, board: Mapping[str, Any]) -> dict[str, Any]:
    if not session.move_number:
        return {}
    seat = session.movers[-1]
    out: dict[str, Any] = {"seat": seat}
    if sealed(session, seat):
        return out
    click = session.last_click() or {}
    if isinstance(click.get("target"), str) and has_zone(board, click["target"]):
        out["target"] = click["target"]
    return out
