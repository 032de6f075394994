"""Play across machines, for real: a referee process on 127.0.0.1 (port 0) and real Jupyter
kernels (jupyter_client), each joining one seat with ``kum.join`` and playing its seat of a
whole seeded game from its own frames.

The canary: the test deals the same game again (the class file's game, rules, players and
seed, then the actions the seats played) and knows at every state what each seat may not
know: every other seat's ``secrets(state, seat)``, their private log lines, the seed, and for
Kings Under Mountains the deck and its order (card ids as the game writes them, "card 7" and
"#7"); for Undercut a pick still sealed, as its picker's board shows it. Nothing a kernel can
reach holds any of it: not one frame its connection got (recorded in the kernel by wrapping
the connection's ``on_frame`` from the test's own cell), nor ``board.game``, its view, log and
repr, nor the board's traits, nor whatever the board's objects hold, nor the answers to asking
for the record, an undo or a replay (each refused, saying why). Nor does anything the
teacher's connection gets before a table's game is over (read on the wire: every message).
The canary is shown able to fire: each seat's own secrets are found, in the same forms, in
its own frames; and the frames the kernels got are the frames of the game dealt again."""

from __future__ import annotations

import json
import re
import threading
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from _conformance_helpers import Holdings
from _kernel_helpers import kernels
from _referee_helpers import DEADLINE, TEACHER, frame_after, referee

from kum_widget.core import VERSION
from kum_widget.core.registry import game_class
from kum_widget.core.session import Session, new_session

GAME_DEADLINE = 900.0  # seconds for a whole game played by the kernels, on a loaded 2-core machine

KINGS = """
[[table]]
name = "kings"
game = "kings-under-mountains"
players = ["Ada", "Bo", "Cy", "Di"]
seed = 7392816450173
"""

PICKS = """
[[table]]
name = "picks A"
game = "undercut"
players = ["Ada", "Bo"]
seed = 5820374619283

[[table]]
name = "picks B"
game = "undercut"
players = ["Cy", "Di"]
seed = 6194728305517
"""

# -- what runs in each kernel: the test's own cells (the product is not changed) -----------------

# KUM (url, code, seed, out, timeout) is set by the cell before.
JOIN = """
import json
import kum_widget as kum

board = kum.join(KUM["url"], KUM["code"], timeout=KUM["timeout"])
game = board.game
client = board._client  # the seat's connection: every frame it gets is recorded, then goes to the board as before
frames = [json.dumps(client.frame)]
shown = client.on_frame
def recorded(frame):
    frames.append(json.dumps(frame))
    shown(frame)
client.on_frame = recorded
try:  # before the end the record is the referee's (it holds every hand)
    game.record()
    early_record = None
except Exception as exc:
    early_record = str(exc)
print("KUM-JOINED", game.seat, game.state_id)
"""

PLAY = """
import random

rng = random.Random(KUM["seed"])
played = []
while game.wait_turn():
    texts, ids = game.legal_actions(), game.legal_action_ids()
    text = rng.choice(texts)
    played.append([game.state_id, ids[texts.index(text)]])
    game.act(text)
print("KUM-OVER", game.is_over, game.state_id, json.dumps(game.scores()))
"""

GATHER = """
import asyncio
import time

from kum_widget.core.errors import GameError

deadline = time.monotonic() + KUM["timeout"]
while board.state_id != game.state_id:  # the last frames reach the board's traits on this kernel's loop
    assert time.monotonic() < deadline, "the board's traits never caught up with its connection"
    await asyncio.sleep(0.02)  # (polling, within the deadline)

refused = {"record": early_record}
for name, call in [("undo", game.undo)]:
    try:
        call()
        refused[name] = None
    except GameError as exc:
        refused[name] = str(exc)
for kind in ("replay", "undo", "redo", "new_game", "hint"):  # what the page may ask for: each answered with why not
    board.error = ""
    board._handle_msg({"content": {"data": {"method": "custom", "content": {"kind": kind, "id": kind}}}, "buffers": []})
    while not board.error:  # (at once, or once the referee answered)
        assert time.monotonic() < deadline, f"the page's {kind} was not answered"
        await asyncio.sleep(0.02)  # (polling, within the deadline)
    refused["the page's " + kind] = board.error

def reachable(*roots):
    # Every text, number and list of numbers the board's objects hold (kum_widget's objects,
    # dicts, lists), but the front-end's code.
    out, seen, todo = [], set(), list(roots)
    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, (bytes, bytearray)):
            out.append(bytes(x).decode("utf-8", "replace"))
        elif isinstance(x, (int, float)):
            out.append(str(x))
        elif isinstance(x, dict):
            todo.extend(k for k in x if k not in ("_esm", "_css"))
            todo.extend(v for k, v in x.items() if k not in ("_esm", "_css"))
        elif isinstance(x, (list, tuple, set, frozenset)):
            items = list(x)
            if items and all(type(i) is int for i in items):
                out.append(", ".join(map(str, items)))
            todo.extend(items)
        elif type(x).__module__.startswith("kum_widget"):
            todo.extend(getattr(x, "__dict__", {}).values())
            todo.extend(getattr(x, s) for c in type(x).__mro__ for s in getattr(c, "__slots__", ()) if hasattr(x, s))
    return out

synced = json.loads(json.dumps({k: v for k, v in board.get_state().items() if k not in ("_esm", "_css")}, default=repr))
seen = {
    "seat": game.seat,
    "played": played,
    "frames": frames,
    "structures": {"view": game.view, "synced": synced,
                   "traits": {"board": board.board, "legal": board.legal, "log_lines": board.log_lines, "last_move": board.last_move}},
    "refused": refused,
    "texts": {
        "repr(board)": repr(board), "str(board)": str(board), "repr(board.game)": repr(game), "str(board.game)": str(game),
        "board.game.view": json.dumps(game.view), "board.game.log": json.dumps(game.log),
        "board.game.legal_actions()": json.dumps(game.legal_actions()), "board.game.scores()": json.dumps(game.scores()),
        "board.game.players": json.dumps(game.players), "synced traits": json.dumps(synced, default=repr),
        "refused": json.dumps(refused), "reachable": "\\n".join(reachable(board, game, client)),
    },
}
# after everything reachable was gathered: at the end the game's whole record is the seat's to ask for (every hand is
# shown then); it is not kept in this kernel's objects, and is not gathered
seen["record_at_the_end"] = game.record().startswith("[Game ")
with open(KUM["out"], "w") as f:
    json.dump(seen, f)
print("KUM-GATHERED", len(frames))
"""


# -- the canary ---------------------------------------------------------------------------------

CARD = re.compile(r"\bcard (\d+)\b|#(\d+)\b")  # Kings Under Mountains writes a card's id "card 56" (a board), "#56" (an action)
NUMBER = re.compile(r"\d+")
NUMBERS_IN_A_ROW = re.compile(r"\d+(?:\s*,\s*\d+)+")  # as a list of numbers is written
RUN = 4  # the deck's order: any 4 of its ids in a row, either way


@dataclass
class Hidden:
    """What one viewer may not find, in the forms it would be found in: values found as a
    frame holds them (``secrets``, by their JSON), card ids (written "card 7" or "#7"), whole
    numbers (the seed), runs of the deck's order, and exact texts (another seat's log lines,
    a sealed pick's face as JSON and as Python writes it)."""

    secrets: dict[str, Any] = field(default_factory=dict)
    cards: set[int] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    runs: set[tuple[int, ...]] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)

    def update(self, other: Hidden) -> None:
        self.secrets.update(other.secrets)
        self.cards |= other.cards
        self.numbers |= other.numbers
        self.runs |= other.runs
        self.texts |= other.texts

    def found_in(self, text: str) -> list[str]:
        """What of it ``text`` holds (empty: nothing)."""
        found = []
        if self.cards:
            found += [f"card {c}" for c in sorted({int(a or b) for a, b in CARD.findall(text)} & self.cards)]
        if self.numbers:
            found += sorted(set(NUMBER.findall(text)) & self.numbers)
        if self.runs:
            for row in NUMBERS_IN_A_ROW.finditer(text):
                ids = tuple(int(n) for n in NUMBER.findall(row.group()))
                found += [f"the deck's order {ids[i:i + RUN]}" for i in range(len(ids) - RUN + 1) if ids[i:i + RUN] in self.runs]
        found += sorted(t for t in self.texts if t in text)
        return found

    def held_by(self, value: Any) -> list[str]:
        """The ``secrets`` ``value`` holds (a frame, a view, traits), action ids aside (an
        action's id is a number of the game's action space, not a card)."""
        held = Holdings(without_action_ids(value))
        return [key for key, secret in self.secrets.items() if held.hold(secret)]


def without_action_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: [{**a, "id": None} if isinstance(a, dict) else a for a in v] if k == "actions" and isinstance(v, list)
                else without_action_ids(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_action_ids(v) for v in value]
    return value


def hidden_at(session: Session, viewer: int | str) -> Hidden:
    """What ``viewer`` (a seat, or "public": the teacher before the end) may not know now."""
    game, state = session.game, session.state
    others = [q for q in range(session.num_players) if q != viewer]
    hidden = Hidden(numbers={str(session.seed)})
    for q in others:
        for secret in game.secrets(state, q):
            hidden.secrets[json.dumps(secret, sort_keys=True)] = secret
            if isinstance(secret, dict) and set(secret) == {"id"} and type(secret["id"]) is int:
                hidden.cards.add(secret["id"])
    if game.name == "kings-under-mountains":  # the deck: every card in it, and its order
        deck = list(state.deck)
        hidden.cards.update(deck)
        for ids in (deck, deck[::-1]):
            hidden.runs.update(tuple(ids[i:i + RUN]) for i in range(len(ids) - RUN + 1))
    if game.name == "undercut":  # a pick still sealed, as its picker's own board shows it
        for q in others:
            if state.picks[q] is not None:
                face = pick_face(session.frame(q).to_json(), q)
                picks = {"picks": session.view(q)["picks"]}  # and as its view holds it
                hidden.secrets.update({json.dumps(face, sort_keys=True): face, json.dumps(picks): picks})
                hidden.texts.update({json.dumps(face), repr(face)})
    return hidden


def own(session: Session, seat: int) -> Hidden:
    """What ``seat`` itself holds now, as ``hidden_at`` would name it for the others."""
    mine = Hidden()
    for secret in session.game.secrets(session.state, seat):
        mine.secrets[json.dumps(secret, sort_keys=True)] = secret
        if isinstance(secret, dict) and set(secret) == {"id"} and type(secret["id"]) is int:
            mine.cards.add(secret["id"])
    return mine


def pick_face(frame: dict[str, Any], seat: int) -> dict[str, Any]:
    for player in frame["board"]["seats"]:
        for zone in player["zones"]:
            for card in zone.get("cards", []):
                if card["id"] == f"pick {seat}":
                    return dict(card["faces"][0])
    raise AssertionError(f"seat {seat}'s board shows no pick of its own: {json.dumps(frame['board'])[:500]}")


@dataclass
class Dealt:
    """A table of the class dealt again here, and what it went through: its session at every
    state id, each viewer's frames, and the log lines each seat read that the public did not."""

    name: str
    states: list[Session]
    frames: dict[int | str, list[dict[str, Any]]]
    private_lines: dict[int, set[str]]

    @property
    def seats(self) -> range:
        return range(self.states[0].num_players)

    def lines_hidden_from(self, viewer: int | str) -> set[str]:
        read = {line for frame in self.frames[viewer] for line in frame["log"]}
        return {line for q, lines in self.private_lines.items() if q != viewer for line in lines} - read

    def at(self, state: int, viewer: int | str) -> Hidden:
        """What ``viewer`` may not find in its frame of ``state``."""
        hidden = hidden_at(self.states[state], viewer)
        hidden.texts |= self.lines_hidden_from(viewer)
        return hidden

    def ever(self, viewer: int | str) -> Hidden:
        """What was hidden from ``viewer`` at some state and was never its own: what nothing it
        holds at the end may hold."""
        hidden, mine = Hidden(texts=self.lines_hidden_from(viewer)), Hidden()
        for session in self.states:
            hidden.update(hidden_at(session, viewer))
            if viewer != "public":
                mine.update(own(session, int(viewer)))
        hidden.cards -= mine.cards
        hidden.secrets = {k: v for k, v in hidden.secrets.items() if k not in mine.secrets}
        return hidden


def dealt_again(setup: dict[str, Any], played: list[list[int]]) -> Dealt:
    """The table ``setup`` (its class file entry) dealt here and played with ``played`` ([state id, action id])."""
    session = new_session(game_class(setup["game"])().with_options(setup.get("rules", {})), setup["players"], seed=setup["seed"])
    states = [session.clone()]
    for state, action in sorted(played):
        assert state == session.state_id, f"{setup['name']}: the seats played at states {sorted(played)}"
        session.apply(action)
        states.append(session.clone())
    assert session.is_over, f"{setup['name']}: the seats' actions did not end the game"
    viewers: list[int | str] = [*range(session.num_players), "public"]
    frames = {v: [json.loads(json.dumps(s.frame(v).to_json())) for s in states] for v in viewers}
    public = {line for frame in frames["public"] for line in frame["log"]}
    private = {q: {line for frame in frames[q] for line in frame["log"]} - public for q in range(session.num_players)}
    return Dealt(setup["name"], states, frames, private)


def same_frame(sent: dict[str, Any], dealt: dict[str, Any]) -> bool:
    """``sent`` (a referee's frame: the session's, and the table's fields) is the frame ``dealt``."""
    return {k: sent.get(k) for k in dealt} == dealt


def leaks(hidden: Hidden, text: str, value: Any = None) -> list[str]:
    return hidden.found_in(text) + (hidden.held_by(value) if value is not None else [])


@contextmanager
def watching(url: str, code: str, tables: int) -> Iterator[list[dict[str, Any]]]:
    """The teacher's connection, read on the wire (websockets' own client, on a thread of its
    own): the list of every message the referee sends it, as sent, until the block ends. It
    starts once the referee has sent the frames of its ``tables`` tables."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    messages: list[dict[str, Any]] = []

    def read() -> None:
        try:
            for raw in socket:
                messages.append(json.loads(raw))
        except ConnectionClosed:
            pass  # closed by the test, or by the referee's end

    with connect(url, proxy=None, open_timeout=DEADLINE, max_size=2**24) as socket:
        socket.send(json.dumps({"kind": "hello", "code": code, "version": VERSION}))
        while sum(m.get("kind") == "frame" for m in messages) < tables:
            messages.append(json.loads(socket.recv(timeout=DEADLINE)))
        reader = threading.Thread(target=read, name="the teacher's connection", daemon=True)
        reader.start()
        try:
            yield messages
        finally:
            socket.close()
            reader.join(DEADLINE)
    assert not reader.is_alive(), "the teacher's connection did not close"


# -- the tests --------------------------------------------------------------------------------------


def play_and_check(tmp_path: Path, classfile: str, seats: list[tuple[str, int]]) -> None:
    """One kernel per seat in ``seats`` ((table, seat)) plays to the end; the canary checks what
    each kernel could reach, and what the teacher's connection got; then that the game dealt
    again is the one the kernels played."""
    seen, said, watched = played(tmp_path, classfile, seats)
    setups = {t["name"]: t for t in tomllib.loads(classfile)["table"]}
    tables = {name: dealt_again(setups[name], [p for (table, _), saw in zip(seats, seen, strict=True) if table == name for p in saw["played"]])
              for name in {table for table, _ in seats}}
    for table in tables.values():
        canary_can_fire(table)
    found = [f"{name}, seat {seat}: {leak}" for (name, seat), saw in zip(seats, seen, strict=True) for leak in held_by_kernel(tables[name], seat, saw)]
    found += [f"the teacher: {leak}" for leak in held_by_teacher(tables, watched)]
    assert not found, f"{len(found)} secrets reached a kernel or the teacher: {found[:8]}"
    for (name, seat), saw, printed in zip(seats, seen, said, strict=True):
        the_game_played(tables[name], seat, saw, printed)
    frames = [frame for _, frame in the_teachers_frames(watched)]
    for name, table in tables.items():
        states = {f["state_id"]: f for f in frames if f["at_table"] == name}
        assert sorted(states) == list(range(table.states[-1].state_id + 1)), f"the teacher missed states of {name}"
        assert all(same_frame(f, table.frames["public"][state]) for state, f in states.items()), f"the teacher's frames of {name}"


def played(tmp_path: Path, classfile: str, seats: list[tuple[str, int]]) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
    """The games of ``classfile`` played by a kernel per seat of ``seats``: what each kernel
    gathered (``GATHER``), what each printed at the end, and what the teacher's connection got."""
    folder = tmp_path / "kernels"
    with referee(tmp_path, classfile=classfile) as (url, codes, _), kernels(folder, len(seats)) as running:
        for k, (kernel, (table, seat)) in enumerate(zip(running, seats, strict=True)):
            params = {"url": url, "code": codes[(table, seat)], "seed": 1000 + k, "out": str(folder / f"seen-{k}.json"), "timeout": DEADLINE}
            said = kernel.run(f"KUM = {params!r}\n{JOIN}")
            assert f"KUM-JOINED {seat} 0" in said, said
        teacher_code = next(code for (_, seat), code in codes.items() if seat == TEACHER)
        with watching(url, teacher_code, len(tomllib.loads(classfile)["table"])) as teacher:
            cells = [kernel.start(PLAY) for kernel in running]  # the seats play at once, each in its kernel
            over = [kernel.finish(cell, GAME_DEADLINE) for kernel, cell in zip(running, cells, strict=True)]
            for kernel in running:
                assert "KUM-GATHERED" in kernel.run(GATHER)
            # the referee tells the seats of a move before the teacher: the teacher's connection is read
            # until each table's record, which the referee sends after that table's last frame
            tables = {t["name"] for t in tomllib.loads(classfile)["table"]}
            deadline = time.monotonic() + DEADLINE
            while not tables <= {m.get("table") for m in list(teacher) if m.get("kind") == "over"}:
                assert time.monotonic() < deadline, "the teacher's connection never got every table's record"
                time.sleep(0.05)  # (polling, within the deadline)
    assert teacher[0].get("ok") is True, teacher[:1]
    return [json.loads((folder / f"seen-{k}.json").read_text()) for k in range(len(seats))], over, teacher


def canary_can_fire(table: Dealt) -> None:
    """Each seat's own secrets are found, in the forms the canary looks for, in its own frames;
    the seats read log lines of their own; in Undercut a pick was sealed."""
    for state, session in enumerate(table.states):
        for seat in table.seats:
            mine, text = own(session, seat), json.dumps(table.frames[seat][state])
            assert mine.found_in(text) == [f"card {c}" for c in sorted(mine.cards)], f"{table.name}: seat {seat}'s cards, as its frame writes them"
            sealed = {t for other in table.seats for t in hidden_at(session, other).texts} - hidden_at(session, seat).texts
            assert all(t in text for t in sealed if not t.startswith("{'")), f"{table.name}: seat {seat}'s pick, as its frame writes it"
    assert any(table.private_lines.values()), f"{table.name}: no seat read a log line of its own: the log's canary is idle"
    if table.states[0].game.name == "undercut":
        assert any(hidden_at(s, 1).texts for s in table.states), f"{table.name}: no pick was ever sealed"


def held_by_kernel(table: Dealt, seat: int, saw: dict[str, Any]) -> list[str]:
    """What the kernel of ``seat`` gathered (``saw``) holds that it may not: each frame against
    what was hidden from the seat at that frame's state; everything else against what was
    hidden from it at some state and never its own."""
    found = []
    for text in saw["frames"]:
        frame = json.loads(text)
        state = frame["state_id"]
        found += [f"the frame of state {state} holds {leak}" for leak in leaks(table.at(state, seat), text, frame)]
    ever = table.ever(seat)
    found += [f"{what} holds {leak}" for what, text in saw["texts"].items() for leak in ever.found_in(text)]
    found += [f"{what} holds {leak}" for what, value in saw["structures"].items() for leak in leaks(ever, json.dumps(value), value)]
    return found


def the_teachers_frames(watched: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Each frame the teacher's connection got, whole or as changes: (its message's index, the frame)."""
    held: dict[str, dict[str, Any]] = {}
    out = []
    for i, message in enumerate(watched):
        name = str(message.get("table") if message.get("kind") == "delta" else message.get("frame", {}).get("at_table"))
        frame = frame_after(held.get(name), message)
        if frame is not None:
            held[name] = frame
            out.append((i, frame))
    return out


def held_by_teacher(tables: dict[str, Dealt], watched: list[dict[str, Any]]) -> list[str]:
    """What the teacher's connection got before a table's game was over that holds a seat's
    secret: each frame against its state, anything else about a table against all its game hid."""
    found = []
    ever = {name: table.ever("public") for name, table in tables.items()}
    frames = dict(the_teachers_frames(watched))
    for i, message in enumerate(watched):
        frame = frames.get(i)  # a frame message's frame, or the frame a delta makes: the delta is part of it
        name = frame["at_table"] if frame is not None else message.get("table")
        if name not in tables or message.get("kind") == "over" or (frame or message).get("over"):
            continue  # another table, or after the end: the teacher's to see
        if frame is not None:
            hidden, what = tables[name].at(frame["state_id"], "public"), f"its frame of {name} at state {frame['state_id']}"
        else:
            hidden, what = ever[name], f"its {message.get('kind')} message of {name}"
        found += [f"{what} holds {leak}" for leak in leaks(hidden, json.dumps(message), message)]
    return found


def the_game_played(table: Dealt, seat: int, saw: dict[str, Any], printed: str) -> None:
    """The kernel of ``seat`` saw the game dealt again here, every state of it, to its end;
    asked for the record, an undo or a replay, it was refused with why."""
    last = table.states[-1]
    scores = [p["score"] for p in table.frames[seat][-1]["board"]["players"]]
    assert f"KUM-OVER True {last.state_id} {json.dumps(scores)}" in printed and scores == last.scores(), printed
    assert saw["seat"] == seat
    frames = [json.loads(text) for text in saw["frames"]]
    assert all(f["at_table"] == table.name and f["viewer"] == seat for f in frames)
    assert sorted({f["state_id"] for f in frames}) == list(range(last.state_id + 1)), f"{table.name}, seat {seat}: a state's frame never came"
    for frame in frames:
        assert same_frame(frame, table.frames[seat][frame["state_id"]]), f"{table.name}, seat {seat}: the frame of state {frame['state_id']}"
    refused = saw["refused"]
    assert all(refused.values()), f"{table.name}, seat {seat}: not refused: {[k for k, v in refused.items() if not v]}"
    assert "referee" in refused["record"] and "replay" in refused["the page's replay"], refused
    assert saw["record_at_the_end"] is True  # once over, the seat may have the whole record


@pytest.mark.soak  # four kernels and a whole game of Kings Under Mountains (make test: Undercut, below, the same checks)
def test_four_kernels_play_kings_under_mountains_and_none_holds_another_seats_secret(tmp_path: Path) -> None:
    play_and_check(tmp_path, KINGS, [("kings", seat) for seat in range(4)])


def test_four_kernels_play_undercut_at_two_tables_and_no_sealed_pick_leaks(tmp_path: Path) -> None:
    play_and_check(tmp_path, PICKS, [("picks A", 0), ("picks A", 1), ("picks B", 0), ("picks B", 1)])
