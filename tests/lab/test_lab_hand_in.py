"""A class's games handed in (issue 45, point 5): ``kum.lab.load`` reads a folder (or files) of
records, saved games and replays into one ``HandIn``, refuses what is not a finished game of
one game under one set of rules (naming the file, returning nothing), and its result goes
straight into ``kum.lab.report(..., pooled=...)``, which names what it cannot compute from
the games a seat's replay gives only by their outcome."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

import pytest

import kum_widget as kum
from kum_widget.core import GameError, Session
from kum_widget.core.examples import Bust
from kum_widget.lab import HandIn, load

PLAYERS = ["Ada", "Bo"]


def bust(seed: int, *, players: list[str] = PLAYERS, actions: int | None = None, **rules: Any) -> Session:
    """A game of Bust played by hand (a choice that varies with the seed), to its end or for ``actions``."""
    s = Session(Bust(**rules), players, seed=seed)
    while not s.is_over and (actions is None or s.move_number < actions):
        legal = s.legal_actions()
        s.apply(legal[(seed + s.move_number) % len(legal)])
    return s


def result_of(page: str) -> dict[str, Any]:
    """The result a replay carries for the lab (its application/x-kum-result element)."""
    (found,) = re.findall(r'<script type="application/x-kum-result">([^<]*)</script>', page)
    data: dict[str, Any] = json.loads(found)
    return data


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture()
def class_folder(tmp_path: Path) -> tuple[Path, list[Session]]:
    """A folder as a class hands it in: a record, a saved game, a full-table replay, one
    game's replay from each of its two seats, the public's replay of another, the record of
    the first game again as its replay, and a file of notes."""
    games = [bust(seed) for seed in range(5)]
    (tmp_path / "a.kum.txt").write_text(games[0].record())
    (tmp_path / "b.json").write_text(json.dumps(games[1].to_dict()))
    kum.save_replay(games[2], tmp_path / "c.html")
    kum.save_replay(games[3], tmp_path / "d-ada.html", seat=0)
    kum.save_replay(games[3], tmp_path / "d-bo.html", seat=1)
    kum.save_replay(games[4], tmp_path / "e.html", public=True)
    kum.save_replay(games[0], tmp_path / "a.html")  # the first game again, whole
    (tmp_path / "notes.md").write_text("who sat where")
    return tmp_path, games


def test_load_reads_every_kind_of_file_of_a_folder_each_game_once(class_folder: tuple[Path, list[Session]]) -> None:
    folder, games = class_folder
    before = contents(folder)
    hand = load(folder)
    assert contents(folder) == before  # read, not changed
    assert isinstance(hand, HandIn) and type(hand.game) is Bust and hand.players == 2 and len(hand) == 5
    assert hand.files == ("a.html", "a.kum.txt", "b.json", "c.html", "d-ada.html", "d-bo.html", "e.html")
    assert hand.skipped == ("notes.md",)
    assert hand.same == (("a.kum.txt", "a.html"), ("d-bo.html", "d-ada.html"))  # a record and its replay; two seats of one game
    assert [s.record() for s in hand.sessions] == [games[0].record(), games[1].record(), games[2].record()]
    assert [o.file for o in hand.outcomes] == ["d-ada.html", "e.html"]
    for o, g in zip(hand.outcomes, games[3:], strict=True):
        assert (o.players, list(o.scores), list(o.winners), o.first, o.actions) == \
               (g.players, g.scores(), g.winners(), g.movers[0], g.move_number)
    assert [o.seen_by for o in hand.outcomes] == ["seat 0 (Ada)", "the public"]
    assert repr(hand) == ("<HandIn: 5 games of Bust (standard rules), 2 players: 3 whole, 2 by outcome only (a seat's "
                          "replay); 7 files read (2 repeating a game another file holds, counted once); 1 other file skipped>")
    t = hand.results()
    assert t["whole"].tolist() == [True, True, True, False, False] and set(t["bot_0"]) == {"class"}
    assert t["winners"].tolist() == [tuple(g.winners()) for g in games]
    assert t["trace_turns"].tolist() == [g.move_number for g in games]  # Bust: a turn is one seat's action


def test_load_reads_a_list_of_files_in_its_order_and_one_file(class_folder: tuple[Path, list[Session]]) -> None:
    folder, games = class_folder
    hand = load([folder / "e.html", str(folder / "b.json")])
    assert hand.files == (str(folder / "e.html"), str(folder / "b.json")) and len(hand) == 2
    assert hand.sessions[0].record() == games[1].record() and hand.outcomes[0].players == tuple(PLAYERS)
    one = load(folder / "a.kum.txt", game="bust")
    assert len(one) == 1 and one.skipped == () and one.sessions[0].record() == games[0].record()


def test_a_seat_replay_holds_the_outcome_and_never_the_record() -> None:
    """A seat's replay of a game with hidden cards (Kings Under Mountains) carries its public
    result only: no record, no seed (which would deal every hidden card again); the full
    table's carries the record and loads as the whole game."""
    game = kum.lab.play_game(0, seed=3, bots=("random", "greedy"))
    for seat in (0, 1):
        r = result_of(kum.replay_html(game, seat=seat))
        assert "record" not in r and "seed" not in r and str(game.seed) not in json.dumps(r)
        assert (r["seen_by"], r["scores"], r["winners"], r["actions"]) == (seat, game.scores(), game.winners(), game.move_number)
    assert "record" not in result_of(kum.replay_html(game, public=True))
    going = kum.lab.play_game(0, seed=3, bots=("random", "greedy")).clone()
    going.undo(3)
    assert set(result_of(kum.replay_html(going))) == {"format", "version", "game", "options", "players", "over", "seen_by"}
    assert result_of(kum.replay_html(game))["record"] == game.record()


def test_a_full_table_replay_of_a_game_with_hidden_cards_loads_whole(tmp_path: Path) -> None:
    game = kum.lab.play_game(0, seed=3, bots=("random", "greedy"))
    kum.save_replay(game, tmp_path / "full.html")
    kum.save_replay(game, tmp_path / "mine.html", seat=0)
    hand = load(tmp_path)
    assert len(hand) == 1 and hand.sessions[0].record() == game.record() and hand.same == (("mine.html", "full.html"),)
    assert type(hand.game) is type(game.game)


# -- refused: naming the file, returning nothing --------------------------------------------------


def _write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text)


def _record(folder: Path, name: str, s: Session) -> None:
    _write(folder, name, s.record())


def _edited_result(folder: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    page = kum.replay_html(bust(4), seat=1)
    r = result_of(page)
    change(r)
    _write(folder, name, re.sub(r'(<script type="application/x-kum-result">)[^<]*', lambda m: m.group(1) + json.dumps(r), page))


REFUSED: list[Any] = [
    pytest.param(lambda f: _record(f, "b.kum.txt", kum.lab.play_game(0, seed=1, bots=("random", "random"))), {},
                 "b.kum.txt: a game of 'kings-under-mountains', not of Bust ('bust', the first file's, a.kum.txt)",
                 id="another game"),
    pytest.param(lambda f: _record(f, "b.kum.txt", bust(2, limit=30)), {},
                 "b.kum.txt: played under other rules: limit=30 (the first file's, a.kum.txt: 21)", id="other rules"),
    pytest.param(lambda f: None, {"game": Bust(limit=30)},
                 "no game of Bust under these rules in", id="other rules than game="),  # (a folder's: skipped)
    pytest.param(lambda f: kum.save_replay(bust(2, limit=30), f / "b.html", seat=0), {},
                 "b.html: played under other rules: limit=30", id="a seat's replay of other rules"),
    pytest.param(lambda f: _record(f, "b.kum.txt", bust(2, players=["Ada", "Bo", "Cy"])), {},
                 "b.kum.txt: a game of 3 players, the others' of 2", id="another number of players"),
    pytest.param(lambda f: _record(f, "b.kum.txt", bust(2, actions=1)), {},
                 "b.kum.txt: the game has not ended (1 actions played)", id="an unfinished record"),
    pytest.param(lambda f: kum.save_replay(bust(2, actions=1), f / "b.html", seat=0), {},
                 "b.html: the game had not ended when this replay was saved", id="an unfinished replay"),
    pytest.param(lambda f: _write(f, "b.kum.txt", bust(2).record().replace("1. Ada:", "1. Cy:")), {},
                 "b.kum.txt: cannot read this record", id="a record edited by hand"),
    pytest.param(lambda f: _write(f, "b.json", json.dumps({**bust(2).to_dict(), "actions": ["fly"]})), {},
                 "b.json: cannot read this saved game", id="a saved game edited by hand"),
    pytest.param(lambda f: _write(f, "b.html", kum.replay_html(bust(2)).split('<script type="application/x-kum-result">')[0]), {},
                 "b.html: a replay without the game's result in it", id="a replay without its result"),
    pytest.param(lambda f: _edited_result(f, "b.html", lambda r: r.update(scores=["many", 0])), {},
                 "b.html: the replay's result holds no final score", id="a replay's result edited by hand"),
    pytest.param(lambda f: _edited_result(f, "b.html", lambda r: r.update(winners=[0, 0])), {},
                 "b.html: the replay's result names no winning seats", id="a replay naming a winner twice"),
    pytest.param(lambda f: _edited_result(f, "b.html", lambda r: r.update(game="nope")), {},
                 "b.html: a game of 'nope', not of Bust", id="a replay of a game not installed"),
    pytest.param(lambda f: _edited_result(f, "b.html", lambda r: r.update(version=2)), {},
                 "b.html: the replay's result is not a kum-widget-result 1", id="a replay's result of another version"),
    pytest.param(lambda f: _write(f, "b.html", kum.replay_html(bust(2)).replace('x-kum-result">{', 'x-kum-result">{{')), {},
                 "b.html: the replay's result is not readable JSON", id="a replay's result that is no JSON"),
]


@pytest.mark.parametrize(("make", "kw", "words"), REFUSED)
def test_what_is_not_a_finished_game_of_the_first_files_game_and_rules_is_refused(
        tmp_path: Path, make: Callable[[Path], Any], kw: dict[str, Any], words: str) -> None:
    _record(tmp_path, "a.kum.txt", bust(1))
    make(tmp_path)
    before = contents(tmp_path)
    with pytest.raises(GameError) as caught:
        load(tmp_path, **kw)
    assert str(caught.value).startswith("load: ") and words in str(caught.value), str(caught.value)
    assert contents(tmp_path) == before


def test_what_load_cannot_read_is_refused(tmp_path: Path) -> None:
    """Paths that are no folder or files of games, each a GameError saying what is wrong."""
    (tmp_path / "notes.txt").write_text("who sat where")
    (tmp_path / "sub").mkdir()
    big = tmp_path / "big" / "huge.kum.txt"
    big.parent.mkdir()
    with big.open("wb") as f:
        f.truncate(kum.lab.hand_in.MAX_FILE_BYTES + 1)
    for call, words in [
        (lambda: load(tmp_path), "no record, saved game or replay in"),  # notes.txt and sub/: skipped, named
        (lambda: load(tmp_path / "notes.txt"), "notes.txt: not a game record"),
        (lambda: load([tmp_path / "sub"]), "is not a file (give a folder alone, or a list of files)"),
        (lambda: load(tmp_path / "nowhere"), "there is no file or folder"),
        (lambda: load([]), "give a folder, a file, or a list of files"),
        (lambda: load(42), "give a folder, a file, or a list of files"),
        (lambda: load([42]), "each file is a path"),
        (lambda: load(big.parent), "larger than the"),
        (lambda: load(tmp_path, game="no-such-game"), "load: "),
    ]:
        with pytest.raises(GameError) as caught:
            call()
        assert words in str(caught.value), str(caught.value)
    with pytest.raises(GameError, match=r"\(3 other files skipped: big, notes.txt, sub\)"):
        load(tmp_path)


# -- into the report --------------------------------------------------------------------------


def test_a_handed_in_folder_goes_straight_into_the_report(class_folder: tuple[Path, list[Session]]) -> None:
    folder, games = class_folder
    r = kum.lab.report("bust", games=20, ladder=False, bots="random", progress=False, pooled=load(folder))
    assert [s.key for s in r.sections][-1] == "pooled"
    ours = r["pooled"].table[r["pooled"].table["games of"] == "class"].set_index("measure")
    assert ours.loc["turns", "games"] == 5 and ours.loc["turns", "value"] == sum(g.move_number for g in games) / 5
    assert ours.loc["first player's share", "games"] == 5
    assert ours.loc["real decisions", "games"] == 3  # the games read whole only
    reading = r["pooled"].reading
    assert reading.startswith("5 games played by people") and "2 of them are known by their outcome alone" in reading
    assert "cannot give real decisions: it is measured on the 3 games read whole" in reading
    assert r["pooled"].table.attrs["not_computed"] == {"real decisions": kum.lab.reports.NOT_FROM_OUTCOMES["real decisions"]}
    assert r.settings["pooled games"].startswith("5 games of Bust (standard rules), 2 players: 3 whole, 2 by outcome only")


def test_games_known_by_their_outcome_alone_name_what_they_cannot_give(tmp_path: Path) -> None:
    for seed in range(3):
        kum.save_replay(bust(seed), tmp_path / f"{seed}.html", seat=seed % 2)
    hand = load(tmp_path)
    assert hand.sessions == () and len(hand.outcomes) == 3
    with pytest.raises(GameError, match="no game here was read whole"):
        hand.traced()
    r = kum.lab.report("bust", games=20, ladder=False, bots="random", progress=False, pooled=hand)
    ours = r["pooled"].table[r["pooled"].table["games of"] == "class"].set_index("measure")
    assert math.isnan(ours.loc["real decisions", "value"]) and ours.loc["real decisions", "games"] == 0
    assert ours.loc["turns", "games"] == 3
    assert "which cannot give real decisions: with no game read whole, it is not computed." in r["pooled"].reading


@pytest.mark.parametrize(("game", "words"), [
    pytest.param(Bust(limit=30), "the pooled games were played under other rules: limit=21 (the report's: 30)", id="other rules"),
    pytest.param("kings-under-mountains", "the pooled games are games of Bust, not of Kings Under Mountains", id="another game"),
])
def test_the_report_refuses_a_hand_in_of_another_game_or_rules(class_folder: tuple[Path, list[Session]], game: Any,
                                                              words: str) -> None:
    with pytest.raises(GameError) as caught:
        kum.lab.report(game, games=4000, progress=False, pooled=load(class_folder[0]))
    assert str(caught.value).startswith(f"report: {words}"), str(caught.value)


def test_a_hand_in_made_by_hand_is_checked() -> None:
    done = bust(1)
    for args, words in [
        ((42, (done,)), "game must be a CardGame"),
        ((Bust(), [done]), "sessions must be a tuple of finished games"),
        ((Bust(), ()), "no game"),
        ((Bust(), (done, bust(2, actions=1))), "game 1 has not ended (1 actions played)"),
        ((Bust(limit=30), (done,)), "game 0 is not a game of Bust under these rules"),
        ((Bust(), (done, bust(2, players=["Ada", "Bo", "Cy"]))), "one number of players, got [2, 3]"),
    ]:
        with pytest.raises(GameError) as caught:
            HandIn(*args)
        assert str(caught.value).startswith("HandIn: ") and words in str(caught.value), str(caught.value)
    with pytest.raises(GameError, match="HandIn: outcomes must be a tuple of Outcome"):
        HandIn(Bust(), (done,), ("a row",))


def test_a_folder_of_several_games_gives_the_one_asked_for_and_skips_the_others(tmp_path: Path) -> None:
    """A referee's games/ holds every table's game: game= picks one, the others are skipped by name."""
    _record(tmp_path, "a.kum.txt", bust(1))
    _record(tmp_path, "b.kum.txt", bust(2, limit=30))
    with pytest.raises(GameError, match=r"a folder of several games: load\(folder, game=...\) reads one"):
        load(tmp_path)
    hand = load(tmp_path, game=Bust(limit=30))
    assert hand.files == ("b.kum.txt",) and hand.skipped == ("a.kum.txt",)
    with pytest.raises(GameError, match="played under other rules"):  # a file named in the call is refused, not skipped
        load([tmp_path / "a.kum.txt", tmp_path / "b.kum.txt"], game=Bust(limit=30))
