"""Texts that name any seat ({seat0}, {seat1}, ... and {player}) and notes shown to a chosen
set of seats (``Note(..., to=(p, q), others=...)``): rendered with the players' names by
the session, read back from either form, kept unrendered by records, and never showing a
viewer more than before (GAMES.md, "Texts that name seats")."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from _board_helpers import offered_id, send
from _paths import ROOT

from kum_widget import core
from kum_widget.board.drawing import Viewer, frame_for
from kum_widget.board.widget import GameWidget
from kum_widget.core import GameFault, IllegalMoveError, InvalidOptionError, Note, Session
from kum_widget.core.events import event_problems, placeholder_problems, render

SAY = 20  # action ids: q (the Priest on seat q), 10 + q (compare hands with q), SAY


@dataclass
class PriestState:
    hands: list[int]
    turn: int = 0
    moves: int = 0


class Priests(core.CardGame):
    """Love Letter's Priest and Baron, no more: each holds one card; look at another's
    card, compare hands with another, or say "{hi}". Six actions, then the high card wins."""

    name = "priests-test"
    min_players, max_players = 2, 4

    def setup(self, players: int, rng: random.Random) -> PriestState:
        return PriestState([rng.randint(1, 8) for _ in range(players)])

    def current_player(self, s: PriestState) -> int:
        return s.turn

    def legal_actions(self, s: PriestState) -> list[int]:
        others = [q for q in range(len(s.hands)) if q != s.turn]
        return [] if self.is_over(s) else [*others, *(10 + q for q in others), SAY]

    def action_text(self, s: PriestState, a: int) -> str:
        if a == SAY:
            return "say {{hi}}"
        if not (0 <= a < len(s.hands) or 0 <= a - 10 < len(s.hands)):
            raise IllegalMoveError(f"{a} is no action")
        return f"{{player}} plays the Priest on {{seat{a}}}" if a < 10 else f"compare hands with {{seat{a - 10}}}"

    def apply(self, s: PriestState, a: int) -> list[Any]:
        p, hands = s.turn, s.hands
        s.turn, s.moves = (p + 1) % len(hands), s.moves + 1
        if a == SAY:
            return [Note("{player} says {{hi}}.", seat=p)]
        if a < 10:
            return [Note(f"{{player}} sees {{seat{a}}}'s card {hands[a]}.", seat=p, others=f"{{player}} looks at {{seat{a}}}'s card.")]
        q = a - 10
        return [Note(f"{{player}} holds card {hands[p]}, {{seat{q}}} card {hands[q]}.", seat=p, to=(p, q),
                     others=f"{{player}} and {{seat{q}}} compared hands.")]

    def is_over(self, s: PriestState) -> bool:
        return s.moves >= 6

    def scores(self, s: PriestState) -> list[float]:
        return [float(h) for h in s.hands]

    def view(self, s: PriestState, seat: int | None) -> dict[str, Any]:
        return {"hands": [{"seat": p, "card": h} if seat in (None, p) else {"seat": p} for p, h in enumerate(s.hands)],
                "turn": s.turn, "moves": s.moves}

    def public_view(self, s: PriestState) -> dict[str, Any]:
        return self.view(s, -1)

    def secrets(self, s: PriestState, seat: int) -> list[Any]:
        return [{"seat": seat, "card": s.hands[seat]}]

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"seats": [{"seat": h["seat"], "zones": [{"id": f"hand {h['seat']}", "label": "Hand", "layout": "hand",
                                                        "cards": [{"id": f"card {h['seat']}", "faces": [{"value": h["card"]}]}
                                                                  if "card" in h else {"id": f"back {h['seat']}", "down": True}]}]}
                          for h in view["hands"]]}

    def click(self, s: PriestState, a: int) -> dict[str, Any]:
        return {"target": f"hand {a}", "label": f"Priest on {{seat{a}}}"} if a < 10 else {}


def session(names: tuple[str, ...] = ("Ada", "Bo", "Cy"), seed: int = 1) -> Session:
    return Session(Priests(), list(names), seed=seed)


def played(names: tuple[str, ...], seed: int, steps: int = 6) -> Session:
    s, rng = session(names, seed), random.Random(seed)
    for _ in range(steps):
        s.apply(rng.choice(s.legal_action_ids()))
    return s


def raw_texts(s: Session) -> list[str]:
    """The game's own text of each action of ``s``, placeholders unfilled (one action a turn here)."""
    game, state = s.game, s.game.setup(s.num_players, random.Random(s.seed))
    texts = []
    for a in s.history:
        texts.append(game.action_text(state, a))
        game.apply(state, a)
    return texts


# -- 1. rendering ------------------------------------------------------------------------


@pytest.mark.parametrize("text, player, out", [
    ("{player} plays the Priest on {seat1}", 0, "Ada plays the Priest on Bo"),
    ("{seat2}, {seat0} and {seat1}", None, "Cy, Ada and Bo"),
    ("{{player}} is written {player}", 2, "{player} is written Cy"),
    ("{{{seat0}}}", None, "{Ada}"),
    ("set {1, 2} and a lone { or }", None, "set {1, 2} and a lone { or }"),  # only {word}, {{ and }} are special
    ("no braces at all", None, "no braces at all"),
])
def test_render_fills_in_names_and_braces(text: str, player: int | None, out: str) -> None:
    assert render(text, ("Ada", "Bo", "Cy"), player) == out


def test_a_name_that_looks_like_a_placeholder_is_written_as_it_is() -> None:
    assert render("{seat0} and {seat1}", ("{seat1}", "Bo")) == "{seat1} and Bo"  # one pass: names are not read again


def test_a_seat_the_game_does_not_have_is_a_game_fault() -> None:
    with pytest.raises(GameFault) as caught:
        render("{player} looks at {seat5}", ("Ada", "Bo"), 0)
    for w in ["'{player} looks at {seat5}'", "{seat5}", "seats 0..1"]:
        assert w in str(caught.value)
    assert placeholder_problems("{player} looks at {seat5}", 2, player=0) == [str(caught.value)]


@pytest.mark.parametrize("text, words", [
    ("{palyer} draws", ["'{palyer} draws'", "unknown placeholder '{palyer}'", "{{ and }}"]),
    ("to {seat01}", ["unknown placeholder '{seat01}'"]),
    ("{Seat0}", ["unknown placeholder '{Seat0}'"]),
    ("{0} wins", ["unknown placeholder '{0}'"]),
])
def test_an_unknown_placeholder_is_written_as_it_is_and_the_checker_names_it(text: str, words: list[str]) -> None:
    """A game written before seat placeholders existed may have braces of its own: its texts
    read as before; placeholder_problems (check_game's "texts name seats") names a typo."""
    assert render(text, ("Ada", "Bo"), 0) == text
    problems = placeholder_problems(text, 2, player=0)
    assert len(problems) == 1 and all(w in problems[0] for w in words), problems


def test_player_with_no_seat_is_written_as_it_is_and_the_checker_names_it() -> None:
    assert render("{player} wins", ("Ada", "Bo")) == "{player} wins"  # as before: nothing to stand for
    assert render("{player} wins", ("Ada", "Bo"), 7) == "{player} wins"
    assert "stands for no seat here" in placeholder_problems("{player} wins", 2)[0]
    assert "7 is no seat of the game (seats 0..1)" in placeholder_problems("{player} wins", 2, player=7)[0]


def test_placeholder_problems_lists_each_mistake_once() -> None:
    assert placeholder_problems("{seat1} and {player}", 2, player=1) == []
    assert placeholder_problems("no placeholder", 2) == []
    found = placeholder_problems("{seat2} {seat2} {palyer} {player}", 2)
    assert len(found) == 3 and "{seat2}" in found[0] and "{palyer}" in found[1] and "{player}" in found[2]
    assert placeholder_problems(7, 2) == ["expected text, got 7"]
    assert placeholder_problems("{seat0}", 1) == [] and "one seat, 0" in placeholder_problems("{seat1}", 1)[0]


def test_event_problems_checks_notes_and_text_events() -> None:
    assert event_problems(Note("{player} and {seat1}", seat=0, to=(0, 1), others="{player} and {seat1} met."), 2) == []
    assert event_problems("{player} won", 2) and event_problems("{seat1} won", 2) == []
    assert event_problems(object(), 2) == []  # the game's own events: checked when described
    found = event_problems(Note("{seat0} holds a 7", seat=0, to=(0, 4), others="{seat9} compared."), 3)
    assert len(found) == 2 and "'to' names seat 4" in found[0] and "{seat9}" in found[1]
    assert "must say what the others read" in event_problems(Note("x", seat=0, to=(0, 1)), 2)[0]
    assert event_problems(Note(7, others=8), 2) == ["a note's text: expected text, got 7", "a note's others: expected text, got 8"]  # type: ignore[arg-type]


# -- 2. the session renders: log lines, action texts, labels ------------------------------


def test_describe_names_any_seat() -> None:
    s = session()
    assert s.describe(Note("{player} plays the Priest on {seat1}.", seat=0)) == "Ada plays the Priest on Bo."
    assert s.describe(Note("{seat2} wins.")) == "Cy wins."  # a note with no seat names seats too
    assert s.describe("{seat1} shuffles.", spectator=True) == "Bo shuffles."
    assert s.describe("{{seat1}} is literal") == "{seat1} is literal"
    assert s.describe("{player} shuffles.") == "{player} shuffles."  # text has no seat: nothing to stand for (as before)
    with pytest.raises(GameFault, match=r"\{seat3\}.*seats 0..2"):
        s.describe(Note("{player} looks at {seat3}.", seat=0))

    class Numbers(Priests):
        def describe(self, state: Any, event: Any, viewer: int | None) -> Any:
            return 7

    with pytest.raises(GameFault, match="must give text or None, got 7"):
        Session(Numbers(), 2, seed=1).describe("x")


def test_action_texts_and_labels_are_named() -> None:
    s = session()
    assert s.action_text(1) == "Ada plays the Priest on Bo" and s.action_text(12) == "compare hands with Cy"
    assert s.action_text(SAY) == "say {hi}"
    assert [s.action_text(a) for a in s.legal_action_ids()][:2] == ["Ada plays the Priest on Bo", "Ada plays the Priest on Cy"]
    label = s.game.click(s._state, 2)["label"]
    assert label == "Priest on {seat2}" and s.named(label) == "Priest on Cy"
    assert s.named("{player}: pick {seat1}") == "Ada: pick Bo"  # {player}: the seat to act
    assert s.named("{player} answers", seat=2) == "Cy answers"
    with pytest.raises(GameFault, match=r"\{seat4\}"):
        s.named("choose {seat4}")
    with pytest.raises(InvalidOptionError, match="named takes a game's text, got 5"):
        s.named(5)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match=r"seat must be 0\.\.2, got 3"):
        s.named("{player}", seat=3)


def test_an_action_text_naming_no_seat_is_a_game_fault() -> None:
    class Far(Priests):
        def action_text(self, s: PriestState, a: int) -> str:
            return "look at {seat7}" if a in (0, 1) else super().action_text(s, a)

    s = Session(Far(), ["Ada", "Bo"], seed=1)
    with pytest.raises(GameFault, match=r"'look at \{seat7\}' names \{seat7\}, but the game has seats 0..1"):
        s.action_text(1)
    with pytest.raises(IllegalMoveError, match=r"^look at \{seat7\} \(action 0\): not a legal action now"):
        s.apply(0)  # a refusal still names the action, as the game wrote it


# -- 3. reading actions back --------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Ada plays the Priest on Bo", "  ada PLAYS the priest   on bo ", "{player} plays the Priest on {seat1}", "{PLAYER} plays the priest on {SEAT1}",
])
def test_apply_reads_named_and_raw_texts(text: str) -> None:
    s = session()
    s.apply(text)
    assert s.history == (1,)


def test_literal_braces_read_back_both_ways() -> None:
    for text in ("say {hi}", "say {{hi}}", "SAY {HI}"):
        s = session()
        assert s.action_id(text) == SAY
        (note,) = s.apply(text)
        assert s.describe(note) == "Ada says {hi}."


def test_text_naming_nothing_is_refused_as_before() -> None:
    s = session()
    before = s.to_dict(), s.state_id
    for text in ("Ada plays the Priest on Dee", "Bo plays the Priest on Ada", "{seat9}", "fly"):
        with pytest.raises(IllegalMoveError, match="is not a legal action now"):
            s.apply(text)
    assert (s.to_dict(), s.state_id) == before


def test_parse_action_gets_the_text_as_typed() -> None:
    seen: list[str] = []

    class Short(Priests):
        def parse_action(self, s: PriestState, text: str) -> int:
            seen.append(text)
            if text == "p1":  # a short form of the game's own
                return 1
            return super().parse_action(s, text)

    s = Session(Short(), ["Ada", "Bo", "Cy"], seed=1)
    assert s.action_id("p1") == 1 and seen == ["p1"]
    assert s.action_id(" Ada plays the Priest on Cy") == 2 and seen[-1] == " Ada plays the Priest on Cy"
    with pytest.raises(IllegalMoveError, match="'nonsense' is not a legal action now"):
        s.action_id("nonsense")
    assert seen[-1] == "nonsense"


@pytest.mark.parametrize("names", [("Ada", "ada", "ADA"), ("{seat1}", "Bo", "Cy"), ("Ada", "Ada  B", "Ada B"), ("{player}", "{seat0}")])
def test_every_named_text_reads_back_as_its_own_action(names: tuple[str, ...]) -> None:
    """Names may differ only in case or spaces, or look like placeholders: the closest match wins."""
    s = session(names)
    for _ in range(5):
        for a in s.legal_action_ids():
            assert s.action_id(s.action_text(a)) == a, (names, s.action_text(a))
        s.apply(s.legal_action_ids()[-2])


def test_the_board_offers_named_texts_and_applies_them() -> None:
    s = played(("Ada", "Bo", "Cy"), seed=3, steps=2)
    w = GameWidget(s, seat=2, bots={0: "random", 1: "random"}, bot_delay=0)
    try:
        assert w.offered[:2] == ["Cy plays the Priest on Ada", "Cy plays the Priest on Bo"]
        assert [e["text"] for e in w.legal["actions"]] == w.offered
        send(w, "act", action_id=offered_id(w, "Cy plays the Priest on Bo"))  # the page sends the id of the text it shows
        assert w.error == "" and s.history[2] == 1
    finally:
        w.close()


# -- 4. notes to chosen seats -------------------------------------------------------------


def test_a_note_to_two_seats() -> None:
    note = Note("{seat0} holds a 3, {seat1} a 5.", seat=0, to=(0, 1), others="{seat0} and {seat1} compared hands.")
    assert [note.text_for(v) for v in (None, 0, 1, 2, -1)] == [note.text] * 3 + [note.others] * 2
    s = session()
    assert [s.describe(note, v) for v in (None, 0, 1, 2)] == ["Ada holds a 3, Bo a 5."] * 3 + ["Ada and Bo compared hands."]
    assert s.describe(note, 0, spectator=True) == "Ada and Bo compared hands."
    quiet = Note("{seat0} holds a 3.", seat=0, to=(0, 1), others=None)
    assert [s.describe(quiet, v) for v in (None, 1, 2)] == ["Ada holds a 3.", "Ada holds a 3.", None]
    assert s.describe(quiet, spectator=True) is None
    hidden_from_actor = Note("{seat2} learns a secret.", seat=0, to=(2,), others="{player} whispers.")
    assert [s.describe(hidden_from_actor, v) for v in (0, 1, 2)] == ["Ada whispers.", "Ada whispers.", "Cy learns a secret."]


def _old_text_for(note: Note, viewer: int | None) -> str | None:
    """``Note.text_for`` as it was before ``to``."""
    if viewer is None or note.seat is None or viewer == note.seat or note.others == "":
        return note.text
    return note.others


@pytest.mark.parametrize("note", [
    Note("{player} drew a 7.", seat=1, others="{player} drew a card."), Note("{player} passes.", seat=0),
    Note("{player} folds.", seat=2, others=None), Note("The deck is shuffled."), Note("x", seat=None, others="y"),
])
def test_a_note_without_to_reads_as_before(note: Note) -> None:
    for viewer in (None, -1, 0, 1, 2):
        assert note.text_for(viewer) == _old_text_for(note, viewer)
    assert "to=" not in repr(note) and repr(note).startswith(f"Note(text={note.text!r}, seat={note.seat!r}, others={note.others!r})")


def test_to_takes_a_list_or_a_set() -> None:
    a = Note("t", seat=0, to=[1, 0], others="o")  # type: ignore[arg-type]
    b = Note("t", seat=0, to={1, 0}, others="o")  # type: ignore[arg-type]
    assert a.to == (1, 0) and b.to == (0, 1) and hash(a) != 0 and "to=(1, 0)" in repr(a)


@pytest.mark.parametrize("to, others, words", [
    (5, "o", "'to' must be a tuple of seats (whole numbers), got 5"),
    ("01", "o", "'to' must be a tuple of seats"),
    ((0, "1"), "o", "'to' must be a tuple of seats"),
    ((0, True), "o", "'to' must be a tuple of seats"),
    ((0, 7), "o", "'to' names seat 7, but the game has seats 0..2"),
    ((0, -1), "o", "'to' names seat -1"),
    ((0, 1), "", "must say what the others read"),
])
def test_a_bad_to_is_a_game_fault_naming_the_note(to: Any, others: str, words: str) -> None:
    s = session()
    note = Note("Ada holds a 7.", seat=0, to=to, others=others)
    for viewer, spectator in ((None, False), (0, False), (2, False), (None, True)):
        with pytest.raises(GameFault) as caught:
            s.describe(note, viewer, spectator=spectator)
        assert words in str(caught.value)
        named = "the note 'Ada holds a 7.'" if viewer is None and not spectator else "the note 'o' (as the others read it)" if others else "a note of seat 0"
        assert str(caught.value).startswith(named), str(caught.value)
    if not isinstance(to, tuple) or others == "":  # what the note alone can tell, it tells its own readers too
        with pytest.raises(GameFault, match=re.escape(words)):
            note.text_for(1)


# -- 5. privacy: each viewer reads no more than before --------------------------------------


def compare_then_peek(names: tuple[str, ...] = ("Ada", "Bo", "Cy")) -> tuple[Session, list[int]]:
    s = session(names, seed=2)
    hands = list(s._state.hands)
    s.apply("compare hands with Bo")  # Ada and Bo read both cards
    s.apply("{player} plays the Priest on {seat2}")  # Bo alone reads Cy's card
    s.apply("say {hi}")
    return s, hands


def test_log_lines_show_each_viewer_only_their_texts() -> None:
    s, (a, b, c) = compare_then_peek()
    compared, mine = f"Ada holds card {a}, Bo card {b}.", "Ada and Bo compared hands."
    saw, looked = f"Bo sees Cy's card {c}.", "Bo looks at Cy's card."
    said = "Cy says {hi}."
    assert list(frame_for(s, Viewer("full")).log) == [compared, saw, said]
    assert list(frame_for(s, Viewer("seat", 0)).log) == [compared, looked, said]
    assert list(frame_for(s, Viewer("seat", 1)).log) == [compared, saw, said]
    assert list(frame_for(s, Viewer("seat", 2)).log) == [mine, looked, said]
    assert list(frame_for(s, Viewer("public")).log) == [mine, looked, said]
    for viewer in (Viewer("seat", 2), Viewer("public")):
        assert not any(f"card {a}" in line or f"card {b}" in line for line in frame_for(s, viewer).log)


def test_the_widgets_log_shows_each_viewer_only_their_texts() -> None:
    s, (a, b, c) = compare_then_peek()
    for _ in range(3):
        s.apply(s.legal_action_ids()[0])
    assert s.is_over
    seat2 = GameWidget(s, seat=2, bots={0: "random", 1: "random"}, bot_delay=0)
    full = GameWidget(s, seat=0, reveal=True, bots={1: "random", 2: "random"}, bot_delay=0)
    hot = GameWidget(s, bot_delay=0)  # three humans at game over: the public table
    try:
        assert seat2.log_lines[:3] == ["Ada and Bo compared hands.", "Bo looks at Cy's card.", "Cy says {hi}."]
        assert hot.log_lines[:3] == seat2.log_lines[:3]
        assert full.log_lines[:2] == [f"Ada holds card {a}, Bo card {b}.", f"Bo sees Cy's card {c}."]
        for w in (seat2, hot):
            assert f"card {a}," not in json.dumps(w.get_state())
    finally:
        for w in (seat2, full, hot):
            w.close()


def test_an_error_quotes_only_what_its_viewer_may_read() -> None:
    s = session()
    secret = Note("{seat9} holds a 7.", seat=0, to=(0, 1), others="{seat0} and {seat1} compared hands.")
    assert s.describe(secret, 2) == "Ada and Bo compared hands."  # the others' text is fine: they read it
    with pytest.raises(GameFault, match=r"its words are not shown\) names \{seat9\}") as faulted:  # even to a seat it is for:
        s.describe(secret, 1)  # a fault may reach a public trait (the board's error line)
    assert "holds a 7" not in str(faulted.value)
    bad_to = Note("Ada holds a 7.", seat=0, to=(0, 9), others="They compared hands.")
    with pytest.raises(GameFault) as caught:
        s.describe(bad_to, 2)
    assert "holds a 7" not in str(caught.value) and "They compared hands." in str(caught.value)


# -- 6. records keep the texts as the game wrote them ---------------------------------------


@pytest.mark.parametrize("names", [
    ("Ada", "Bo", "Cy"), ("A;B", "C: d", "Zoë"), ("{seat1}", "Bo", "[x \"y\"]"), ("Ada", "ada", "ADA"), ("Dee", "Eve"),
])
def test_records_round_trip_whatever_the_names(names: tuple[str, ...]) -> None:
    s = played(names, seed=len(names) * 7)
    record = s.record()
    lines = [f"{k}. {s.players[seat]}: {text}" for k, (seat, text) in enumerate(zip(s.movers, raw_texts(s), strict=True), start=1)]
    assert record.endswith("\n\n" + "\n".join(lines) + "\n")  # each text as the game wrote it
    back = Session.from_record(record, game=Priests())
    assert back == s and back.logs == s.logs and back.record() == record
    s.undo(2)
    data = json.loads(json.dumps(s.to_dict()))
    assert data["actions"] + data["redo"] == raw_texts(played(names, seed=len(names) * 7))
    again = Session.from_dict(data, game=Priests())
    assert again == s and again.redo_count == 2 and again.to_dict() == data


class OwnWords(Priests):
    """A game whose parse_action reads only its own short forms ("p1"), not its texts."""

    def parse_action(self, s: PriestState, text: str) -> int:
        if re.fullmatch(r"p\d", text) and int(text[1]) in self.legal_actions(s):
            return int(text[1])
        raise IllegalMoveError(f"{text!r} is not a legal action now")


@pytest.mark.parametrize("names", [("{seat1}", "Bo", "Cy"), ("Ada", "{seat0}", "{player}")])
def test_a_record_reads_texts_as_written_first(names: tuple[str, ...]) -> None:
    """A name that reads like a placeholder makes "compare hands with {seat1}" read two ways:
    a record's text is as the game wrote it, even when the game's parse_action does not read it."""
    for game in (Priests(), OwnWords()):
        s, rng = Session(game, list(names), seed=4), random.Random(4)
        for _ in range(6):
            s.apply(rng.choice([a for a in s.legal_action_ids() if a >= 10] or s.legal_action_ids()))
        assert Session.from_record(s.record(), game=game) == s
        assert Session.from_dict(s.to_dict(), game=game) == s


def test_a_record_reads_back_with_other_names() -> None:
    s = played(("Ada", "Bo", "Cy"), seed=5)
    renamed = s.record().replace("Ada", "Xi").replace("Bo", "Yu").replace("Cy", "Zed")  # tags, lines, result
    back = Session.from_record(renamed, game=Priests())
    assert back.players == ("Xi", "Yu", "Zed") and back.history == s.history


def test_a_record_written_with_names_reads_back() -> None:
    s = session(("Ada", "Bo", "Cy"), seed=1)
    record = s.record() + "1. Ada: Ada plays the Priest on Cy\n2. Bo: compare hands with ADA; \n3. Cy: say {hi}\n"
    back = Session.from_record(record, game=Priests())
    assert back.history == (2, 10, SAY)


def test_a_record_reads_back_and_writes_the_same_text() -> None:
    text = ('[Game "bust"]\n[Format "kum-widget-session 1"]\n[Player0 "Ada"]\n[Player1 "Bo"]\n[Seed "5"]\n'
           '[Options "{\\"hand\\": 3, \\"limit\\": 21}"]\n\n1. Ada: draw\n2. Bo: play 8\n3. Ada: play 1\n')
    s = Session.from_record(text)
    assert s.record() == text and s.history == (100, 7, 0)
    assert [s.describe(e) for events in s.logs for e in events][1] == "Bo played a 8: the pile is at 8."


# -- 7. the checker and the docs ----------------------------------------------------------


def test_check_game_passes_on_a_game_that_names_seats() -> None:
    report = core.check_game(Priests(), games=12)
    assert report.ok, str(report)


def test_the_games_md_example_runs() -> None:
    text = (ROOT / "GAMES.md").read_text(encoding="utf-8")
    section = text.split("## Texts that name seats", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, Any] = {}
    exec(compile(code[1], "GAMES.md", "exec"), scope)  # the page's own example
    game = scope["game"]
    assert game.history == (1, 10)
    note = game.logs[-1][0]
    assert [game.describe(note, seat) for seat in range(3)][2] == "Bo and Ada compared hands."
    assert game.describe(game.logs[0][0], 0) == "Ada sees Bo's 2."  # as the page says
    assert game.named("look at {seat2}") == "look at Cy"
