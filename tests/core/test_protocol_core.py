"""The core a student holds in mind (issue 33, item 5): ``CardGame`` is the required methods
plus optional capabilities, each declared with its default; search settings belong to the
bots (a game only hints); rule options are declared once."""

from __future__ import annotations

import ast
import inspect
import re
from typing import Any

import pytest
from _paths import ROOT

import kum_widget as kum
from kum_widget import core
from kum_widget.bots import Bot, GreedyBot, ISMCTSBot, RandomBot, bot_move, make_bot
from kum_widget.core.capabilities import GROUPS, REQUIRED
from kum_widget.core.examples import Bust
from kum_widget.games.court import CourtOfTheThreeClans, CourtRules


def play_out(session: core.Session, bots: list[Any], limit: int = 300) -> core.Session:
    for _ in range(limit):
        if session.is_over:
            return session
        session.apply(bot_move(session, bots[session.current_player]))
    raise AssertionError(f"no end after {limit} actions")


# -- 1. search settings belong to the bots ---------------------------------------------------


class Hinted(Bust):
    name = "hinted-bust"
    search_hints = {"iterations": 7, "prior": 2.5, "exploration": 0.2}


def test_search_hints_reach_the_bot_and_its_own_settings_win() -> None:
    s = core.Session(Hinted(), 2, seed=4)
    bot = ISMCTSBot(seed=1)
    bot_move(s, bot)
    assert (bot.last_stats["budget"], bot.last_stats["prior"], bot.last_stats["exploration"]) == (7, 2.5, 0.2)
    mine = ISMCTSBot(iterations=30, exploration=1.5, seed=1)
    bot_move(s, mine)
    assert (mine.last_stats["budget"], mine.last_stats["prior"], mine.last_stats["exploration"]) == (30, 2.5, 1.5)
    assert ISMCTSBot().settings(Bust()) == dict(ISMCTSBot.defaults)  # no hints: the bot's own defaults
    assert ISMCTSBot(trees=3).settings(Hinted()) == {**ISMCTSBot.defaults, **Hinted.search_hints, "trees": 3}


@pytest.mark.parametrize(("hints", "message"), [
    ({"iteration": 500}, r"Odd\.search_hints: 'iteration' is not an ISMCTSBot setting \(they are iterations, rollout_depth"),
    ({"iterations": 0}, r"Odd\.search_hints\['iterations'\] must be a whole number >= 1, got 0"),
    ({"split": "yes"}, r"Odd\.search_hints\['split'\] must be True or False"),
])
def test_a_bad_hint_is_named_and_changes_nothing(hints: Any, message: str) -> None:
    Odd = type("Odd", (Bust,), {"name": "odd-bust", "search_hints": hints})
    s = core.Session(Odd(), 2, seed=4)
    before = s.to_dict()
    with pytest.raises(core.GameError, match=message):
        bot_move(s, ISMCTSBot(seed=1))
    assert s.to_dict() == before


def test_a_subclass_that_writes_its_own_heuristic_keeps_what_it_inherits() -> None:
    class Quick(Bust):  # a game that finds its favourites without scoring every action
        name = "quick-bust"
        search_hints = {"iterations": 50}

        def best_actions(self, state: Any, legal: list[int]) -> list[int] | None:
            return core.top_actions(legal, self.heuristic(state, legal))

    class Drawer(Quick):  # a new heuristic, and nothing else written
        name = "drawer-bust"

        def heuristic(self, state: Any, actions: list[int]) -> list[float]:
            return [1.0 if a == 100 else 0.0 for a in actions]

    assert Drawer.search_hints == {"iterations": 50} and Drawer.fair_heuristic  # no reset
    assert Drawer.best_actions is Quick.best_actions
    # the inherited best_actions reads the heuristic here, so it agrees; one that does not is named:
    stale = type("Stale", (Drawer,), {"name": "stale-bust", "best_actions": lambda self, s, legal: legal[:1]})
    assert "best actions agree" in core.check_game(stale(), games=3).failures
    assert core.check_game(Drawer(), games=3).ok


# -- 2. every capability declared, with its default -------------------------------------------


HOOKS = ("new_session", "encode", "from_view", "view_heuristic")
BOT_HOOKS = ("pick", "scores_only", "reads_view", "decide")


def test_each_capability_has_a_default_on_the_base_class() -> None:
    for name in (*HOOKS, "aliases", "search_hints", "options_class", "defaults", "fair_heuristic", "best_actions"):
        assert name in vars(core.CardGame), name
    for name in (*BOT_HOOKS, "choose", "name"):
        assert name in vars(Bot), name
    game, view = Bust(), {"game": "bust"}
    assert game.view_heuristic(view, [1, 2]) is None and game.new_session(2, seed=1) is None
    assert game.encode(view, 7) == 7 and game.encode(view, core.Action(7, "play 8")) == 7
    with pytest.raises(core.IllegalMoveError, match="Bust has no encode"):
        game.encode(view, "play 8")
    with pytest.raises(core.InvalidOptionError, match="unknown option 'colour' for a new game"):
        game.new_session(2, colour="red")
    assert Bust.from_view(view) == Bust() and Bust.aliases == ()
    assert Bot().reads_view and not Bot().scores_only and Bot().decide(game, None, 0, [1]) is None
    assert Bot().pick([3, 5, 8], [0.0, 2.0, 2.0]) == 5 and Bot().pick([3, 5], None) == 3


def test_no_capability_is_looked_up_by_name_in_the_package() -> None:
    """``getattr(game, "encode", None)`` and the like are gone: callers use the declared
    attribute. The one place that reads a user's bot object by name is its adapter."""
    names = set(HOOKS) | set(BOT_HOOKS)
    found = []
    for path in sorted((ROOT / "kum_widget").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        adapter = {id(n) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name == "_ObjectBot" for n in ast.walk(c)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                    and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in names
                    and id(node) not in adapter):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id}(..., {node.args[1].value!r})")
    assert found == []
    text = (ROOT / "kum_widget" / "core" / "game.py").read_text(encoding="utf-8")
    assert "__init_subclass__" in text and not re.search(r"setattr\(cls, name, getattr\(CardGame", text)  # no resets


def test_new_session_and_the_board_use_the_declared_hook() -> None:
    from kum_widget.core.session import new_session

    assert type(new_session(Bust(), ["Ada", "Bo"], seed=1)) is core.Session
    assert type(new_session(kum.KingsUnderMountains(), 2, seed=1, races=["giant", "orc"])) is kum.Game
    with pytest.raises(core.InvalidOptionError, match="Bust: unknown option 'races' for a new game"):
        new_session(Bust(), 2, races="x")
    with pytest.raises(core.InvalidOptionError, match="game must be a CardGame"):
        new_session("bust", 2)  # type: ignore[arg-type]

    class Wrong(Bust):
        def new_session(self, players: Any = None, *, seed: int | None = None, **setup: Any) -> Any:
            return "a session"

    with pytest.raises(core.InvalidOptionError, match=r"Wrong\.new_session\(\) must return a core Session"):
        new_session(Wrong(), 2)


# -- 3. a bot written against the README still plays -------------------------------------------


class Plain:
    """A bot as the README wrote it: an object with a name and choose(), no base class."""

    name = "Plain bot"

    def __init__(self) -> None:
        self.views: list[Any] = []

    def choose(self, view: Any, legal: list[Any]) -> Any:
        self.views.append(view)
        return legal[-1]


class Blind(Plain):
    reads_view = False


class Deciding:
    """No name, no choose: decide() alone, with the action ids."""

    def decide(self, game: Any, view: Any, seat: int, legal: list[int]) -> int:
        assert all(type(a) is int for a in legal)
        return legal[0]


def test_plain_object_bots_still_play() -> None:
    plain, blind = Plain(), Blind()
    s = play_out(core.Session(Bust(), ["Ada", "Bo"], seed=3), [plain, blind])
    assert s.is_over and plain.views and all(isinstance(v, dict) for v in plain.views)
    assert blind.views and all(v is None for v in blind.views)  # reads_view = False: no view built
    s = play_out(core.Session(Bust(), ["Ada", "Bo"], seed=3), [make_bot(Deciding()), RandomBot(seed=1)])
    assert s.is_over
    wrapped = make_bot(plain)
    assert isinstance(wrapped, Bot) and wrapped.bot is plain and wrapped.name == "Plain bot" and not wrapped.scores_only
    assert make_bot(Deciding()).name == "Deciding" and make_bot(GreedyBot(1)).name == "Greedy bot"
    board = kum.GameWidget(Bust(), bots={1: Plain()}, bot_delay=0, seed=2)
    assert board.bot_seats["1"]["name"] == "Plain bot"
    df = kum.simulate(6, game=Bust(), bots=(lambda seed: Plain(), lambda seed: Blind()), progress=False)
    assert len(df) == 6 and (df["actions"] > 0).all() and df["n_winners"].sum() >= 6


def test_a_plain_bot_that_asks_for_the_scores_alone_gets_them() -> None:
    class Scorer:
        name, scores_only = "Scorer", True

        def choose(self, view: Any, legal: list[Any]) -> Any:
            raise AssertionError("a fair heuristic's scores are all it reads")

        def pick(self, ids: list[int], scores: Any) -> int:
            return ids[0] if scores is None else ids[max(range(len(ids)), key=lambda i: scores[i])]

    s = play_out(core.Session(Bust(), ["Ada", "Bo"], seed=5), [Scorer(), Scorer()])
    assert s.is_over


def test_a_bot_subclass_needs_only_decide_or_choose() -> None:
    class First(Bot):
        name = "First"

        def decide(self, game: core.CardGame, view: Any, seat: int, legal: Any, *, position: Any = None) -> int:
            return legal[0]

    g = kum.Game(2, seed=1)
    legal = g.legal_actions()
    assert First().choose(g.view(g.current_player), legal) == legal[0]  # choose() through decide()
    with pytest.raises(core.GameError, match="Bot has neither choose"):
        Bot().choose(g.view(g.current_player), legal)


# -- 4. rule options declared once --------------------------------------------------------------


def test_the_court_declares_its_options_once() -> None:
    sig = inspect.signature(CourtOfTheThreeClans)
    params = list(sig.parameters.values())
    assert [p.name for p in params] == [f.name for f in CourtRules.__dataclass_fields__.values()]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)
    assert {p.name: p.default for p in params} == CourtRules().options() == dict(CourtOfTheThreeClans.defaults)
    assert CourtOfTheThreeClans.options_class is CourtRules  # (its defaults are read from CourtRules, read only)
    game = CourtOfTheThreeClans(price="printed", ranks="20,30,40")
    assert game.settings == CourtRules(price="printed", ranks=(20, 30, 40)) and game.thresholds == (20, 30, 40)
    assert game.rules == game.options() == {**CourtRules().options(), "price": "printed", "ranks": "20,30,40"}
    assert game.with_options({"fights_per_turn": 2}).settings == CourtRules(price="printed", ranks=(20, 30, 40), fights_per_turn=2)


@pytest.mark.parametrize(("options", "message"), [
    ({"price": "cheap"}, r"option 'price' must be one of 'descending', 'printed', got 'cheap'"),
    ({"fights_per_turn": 5}, r"option 'fights_per_turn' must be 0\.\.4, got 5"),
    ({"fights_per_turn": "2"}, r"option 'fights_per_turn' must be a whole number like 1, got '2'"),
    ({"court_vp": 1}, r"option 'court_vp' must be True or False like True, got 1"),
    ({"ranks": "3,2,1"}, r"option 'ranks' must rise"),
    ({"wizards": 1}, r"Court of the Three Clans: unknown option 'wizards' \(options: table, first_refill"),
])
def test_the_court_constructor_names_a_bad_option(options: dict[str, Any], message: str) -> None:
    with pytest.raises(core.InvalidOptionError, match=message):
        CourtOfTheThreeClans(**options)


def test_court_records_round_trip_with_their_options() -> None:
    g = kum.Court(seed=6, rules=CourtRules(price="printed", ranks=(20, 30, 40), empty_pass_pays=False))
    for _ in range(12):
        if g.is_over:
            break
        g.apply(g.legal_actions()[-1])
    for back in (kum.Court.from_dict(g.to_dict()), kum.Court.from_record(g.record()), core.Session.from_record(g.record())):
        assert back.game == g.game and back.game.settings == g.game.settings and back.history == g.history
    assert g.to_dict()["options"]["ranks"] == "20,30,40"


def test_a_defaults_game_gets_its_signature_and_a_custom_init_keeps_its_own() -> None:
    assert str(inspect.signature(Bust)) == "(*, limit=21, hand=3)"

    class Checked(Bust):
        defaults = {"limit": 21, "hand": 3, "open": False}

        def __init__(self, **options: Any) -> None:  # GAMES.md's way to check more: the options stay declared once
            super().__init__(**options)

    assert str(inspect.signature(Checked)) == "(*, limit=21, hand=3, open=False)"
    assert "rules" in inspect.signature(kum.KingsUnderMountains).parameters  # its own __init__: its own signature


def test_the_games_md_options_class_example_works() -> None:
    text = (ROOT / "GAMES.md").read_text(encoding="utf-8")
    section = text.split("**Rule options**", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, Any] = {"core": core}
    exec(compile(code[1], "GAMES.md", "exec"), scope)  # the page's own example (its annotations text: this file's future import)
    game_class = scope["Bust"]
    assert str(inspect.signature(game_class)) == "(*, limit=21, hand=3, deal='deck')"
    game = game_class(hand=4)
    assert game.rules == {"limit": 21, "hand": 4, "deal": "deck"} and game.settings.hand == 4
    for options, name in (({"hand": 9}, "'hand' must be 1..5"), ({"deal": "all"}, "'deal' must be one of"),
                          ({"hands": 4}, "unknown option 'hands'"), ({"limit": 21.5}, "'limit' must be a whole number")):
        with pytest.raises(core.InvalidOptionError, match=name):
            game_class(**options)
    with pytest.raises(core.InvalidOptionError, match="BustOptions: options are given by name"):
        scope["BustOptions"](30)


def test_an_options_class_must_be_a_rule_options_dataclass_with_defaults() -> None:
    from dataclasses import dataclass

    with pytest.raises(core.InvalidOptionError, match=r"must be a dataclass subclassing core\.RuleOptions"):
        type("Bad", (core.CardGame,), {"options_class": dict})

    @dataclass(frozen=True, kw_only=True)
    class NoDefault(core.RuleOptions):
        limit: int

    with pytest.raises(core.InvalidOptionError, match="option 'limit' has no default"):
        type("Bad", (core.CardGame,), {"options_class": NoDefault})


# -- what a game is, read once (core.game_type) ---------------------------------------------

def test_every_method_of_the_protocol_is_required_or_in_one_group() -> None:
    grouped = [hook for hooks in GROUPS.values() for hook in hooks]
    assert len(grouped) == len(set(grouped)) and not set(grouped) & set(REQUIRED)
    methods = {name for name, value in vars(core.CardGame).items()
               if not name.startswith("_") and not isinstance(value, type) and (callable(value) or isinstance(value, classmethod))}
    assert methods - set(grouped) - set(REQUIRED) == {"options", "with_options"}  # the rule options' own API
    assert set(grouped) <= methods and set(REQUIRED) <= methods


@pytest.mark.parametrize("name", ["kum", "court", "bust", "connect-four", "undercut", "whispers", "woodcutters"])
def test_a_game_type_names_what_the_class_writes(name: str) -> None:
    cls = core.game_class(name)
    kind = core.game_type(cls)
    assert kind is core.game_type(cls()) and kind.name == cls.name and kind.players == (cls.min_players, cls.max_players)
    for hooks in kind.groups().values():
        for hook in hooks:
            assert getattr(cls, hook) is not getattr(core.CardGame, hook) or hook == "from_view"
    unwritten = {h for hooks in GROUPS.values() for h in hooks} - kind.hooks
    assert all(getattr(cls, h) is getattr(core.CardGame, h) or h == "from_view" for h in unwritten)
    assert kind.nothing_hidden == (cls.perfect_information and not cls.simultaneous)


def test_a_subclass_that_writes_a_method_has_it_and_one_that_inherits_keeps_it() -> None:
    class Scored(Bust):
        def evaluate(self, state: Any) -> list[float]:
            return [0.5] * state.players

    class Again(Scored):
        pass

    assert not core.game_type(Bust).has("evaluate") and core.game_type(Scored).has("evaluate")
    assert core.game_type(Again).has("evaluate") and core.game_type(Again).has("heuristic")
    with pytest.raises(core.InvalidOptionError, match="'evaluat' is no optional method of a game"):
        core.game_type(Bust).has("evaluat")
    with pytest.raises(core.InvalidOptionError, match=r"a game is a core\.CardGame"):
        core.game_type(object)


@pytest.mark.parametrize(("declared", "words"), [
    ({"min_players": "2"}, "Bad: min_players and max_players must be whole numbers with 1 <= min <= max, got '2' and 4"),
    ({"min_players": 3, "max_players": 2}, "got 3 and 2"),
    ({"max_players": 0.5}, "got 2 and 0.5"),
    ({"min_players": True}, "got True and 4"),
    ({"name": 7}, "Bad.name must be text, got 7"),
    ({"title": None}, "Bad.title must be text, got None"),
    ({"aliases": "bad"}, "Bad.aliases must be a tuple of other names"),
    ({"perfect_information": 1}, "Bad.perfect_information must be True or False, got 1"),
    ({"simultaneous": "no"}, "Bad.simultaneous must be True or False, got 'no'"),
    ({"fair_heuristic": None}, "Bad.fair_heuristic must be True or False, got None"),
    ({"search_hints": [("iterations", 5)]}, "Bad.search_hints must be a dict of ISMCTSBot settings by name"),
    ({"search_hints": {1: 5}}, "Bad.search_hints must be a dict"),
    ({"heuristic": 7}, "Bad.heuristic must be a method, got 7"),
    ({"board": "a board"}, "Bad.board must be a method, got 'a board'"),
])
def test_a_declaration_of_the_wrong_kind_is_named_by_the_session_and_the_checker(declared: dict[str, Any], words: str) -> None:
    bad = type("Bad", (Bust,), declared)
    with pytest.raises(core.InvalidOptionError, match=re.escape(words)):
        core.Session(bad(), 2, seed=1)
    report = core.check_game(bad(), games=2)
    assert not report.ok and words in report.failures["declarations hold"] and len(report.failures) == 1
    assert report.skipped["plays to the end"] == "not run: the declarations do not hold"
