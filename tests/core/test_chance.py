"""A game's chance (kum_widget.core.chance): the generator that counts its draws, what
``measure_chance`` finds in small games built here and in the shipped ones, and
``foreign_randomness`` catching a game that draws its chance from anywhere but the
generator ``setup()`` hands it."""

from __future__ import annotations

import copy
import importlib
import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from kum_widget import core
from kum_widget.core.chance import Chance, CountingRandom, foreign_randomness, measure_chance
from kum_widget.core.examples import Bust

# -- the small games: take 1-3 stones, whoever takes the last one wins ---------------------------


@dataclass
class Pile:
    stones: int
    rng: random.Random | None = None  # kept by the games that draw during play
    turn: int = 0
    last: int | None = None  # who took the last stone
    order: list[int] = field(default_factory=list)  # GlobalShuffle's seating


class TakeAway(core.CardGame):
    """No chance at all: every deal is the same pile, nothing is drawn."""

    title = "Take-away"
    perfect_information = True
    defaults = {"stones": 15}

    def setup(self, players: int, rng: random.Random) -> Pile:
        return Pile(self.rules["stones"])

    def current_player(self, s: Pile) -> int:
        return s.turn

    def legal_actions(self, s: Pile) -> list[int]:
        return [k for k in (1, 2, 3) if k <= s.stones]

    def apply(self, s: Pile, action: int) -> list[str]:
        s.stones -= action
        s.last, s.turn = s.turn, 1 - s.turn
        s.stones -= min(s.stones, self.gust(s))
        return [f"took {action}"]

    def gust(self, s: Pile) -> int:
        """Stones the wind blows away after a take (none here)."""
        return 0

    def is_over(self, s: Pile) -> bool:
        return s.stones == 0

    def scores(self, s: Pile) -> list[float]:
        return [float(p == s.last and s.stones == 0) for p in (0, 1)]

    def view(self, s: Pile, seat: int | None) -> dict[str, Any]:
        return {"stones": s.stones, "turn": s.turn, "last": s.last, "order": s.order[:]}


class DealtPile(TakeAway):
    """Chance at the deal only: the pile's size is drawn once."""

    def setup(self, players: int, rng: random.Random) -> Pile:
        return Pile(rng.randint(10, 30))


class Gusts(TakeAway):
    """Chance during play only: the same pile each deal, and the game keeps its generator
    to blow a stone away now and then."""

    def setup(self, players: int, rng: random.Random) -> Pile:
        return Pile(self.rules["stones"], rng)

    def gust(self, s: Pile) -> int:
        assert s.rng is not None
        return s.rng.randint(0, 1)


class DealtGusts(Gusts):
    """Chance at the deal and during play."""

    def setup(self, players: int, rng: random.Random) -> Pile:
        return Pile(rng.randint(10, 30), rng)


class IdleDraws(Gusts):
    """Draws during play, but what it draws changes nothing."""

    def gust(self, s: Pile) -> int:
        assert s.rng is not None
        s.rng.random()
        return 0


class OwnGenerator(Gusts):
    """Makes its own unseeded generator: no two runs of a seed are the same game."""

    def setup(self, players: int, rng: random.Random) -> Pile:
        return Pile(self.rules["stones"], random.Random())


class SeededGusts(Gusts):
    """Chance during play, hidden at the deal: it keeps a generator of its own, seeded from
    the one it is handed (whose draws it never counts again): every deal looks the same."""

    def setup(self, players: int, rng: random.Random) -> Pile:
        return Pile(self.rules["stones"], random.Random(rng.getrandbits(64)))


class GlobalRandom(TakeAway):
    """Draws its gusts from Python's global generator."""

    def gust(self, s: Pile) -> int:
        return int(random.random() < 0.5)


class GlobalShuffle(TakeAway):
    """Seats the players with Python's global shuffle."""

    def setup(self, players: int, rng: random.Random) -> Pile:
        order = list(range(6))
        random.shuffle(order)
        return Pile(self.rules["stones"], order=order)


def gallery(module: str, cls: str) -> core.CardGame:
    made: core.CardGame = getattr(importlib.import_module(f"kum_widget.gallery.{module}"), cls)()
    return made


# -- 1. CountingRandom: the same numbers as random.Random, each draw counted -------------------


DRAWS: dict[str, Callable[[random.Random], object]] = {
    "random": lambda r: r.random(),
    "getrandbits": lambda r: r.getrandbits(40),
    "randbytes": lambda r: r.randbytes(5),
    "randrange": lambda r: r.randrange(3, 90, 4),
    "randint": lambda r: r.randint(1, 6),
    "choice": lambda r: r.choice("abcdef"),
    "choices": lambda r: r.choices("abc", k=3),
    "weighted choices": lambda r: r.choices("abc", weights=[1, 2, 3], k=2),
    "sample": lambda r: r.sample(range(50), 5),
    "shuffle": lambda r: r.shuffle(list(range(10))),  # type: ignore[func-returns-value]
    "uniform": lambda r: r.uniform(2.0, 3.0),
    "triangular": lambda r: r.triangular(0.0, 1.0, 0.3),
    "gauss": lambda r: (r.gauss(0.0, 1.0), r.gauss(0.0, 1.0)),
    "normalvariate": lambda r: r.normalvariate(0.0, 1.0),
    "lognormvariate": lambda r: r.lognormvariate(0.0, 1.0),
    "expovariate": lambda r: r.expovariate(2.0),
    "vonmisesvariate": lambda r: r.vonmisesvariate(1.0, 2.0),
    "gammavariate": lambda r: r.gammavariate(2.0, 1.0),
    "betavariate": lambda r: r.betavariate(2.0, 3.0),
    "paretovariate": lambda r: r.paretovariate(2.0),
    "weibullvariate": lambda r: r.weibullvariate(1.0, 2.0),
}


@pytest.mark.parametrize("method", sorted(DRAWS))
def test_every_public_method_draws_the_same_numbers_as_random_random_and_is_counted(method: str) -> None:
    counting, plain = CountingRandom(7), random.Random(7)
    assert counting.draws == 0
    for _ in range(3):
        before = counting.draws
        assert DRAWS[method](counting) == DRAWS[method](plain)
        assert counting.draws > before, method
    assert counting.getstate() == plain.getstate()


def test_every_public_method_of_random_random_is_tried() -> None:
    public = {n for n in dir(random.Random) if not n.startswith("_") and callable(getattr(random.Random, n))}
    not_draws = {"seed", "getstate", "setstate"}
    assert public - not_draws <= set(DRAWS) | {"binomialvariate"}, public - not_draws - set(DRAWS)


def test_seeding_is_not_a_draw_and_keeps_the_count() -> None:
    r = CountingRandom(3)
    r.random()
    r.seed(3)
    assert r.draws == 1 and r.random() == random.Random(3).random() and r.draws == 2


@pytest.mark.parametrize("how", ["deepcopy", "copy", "pickle", "getstate"])
def test_a_copy_keeps_the_count_and_the_sequence(how: str) -> None:
    r = CountingRandom(11)
    r.shuffle(list(range(20)))
    r.gauss(0.0, 1.0)  # a gauss keeps its second number for the next call: the copy too
    if how == "deepcopy":
        c = copy.deepcopy({"rng": r})["rng"]
    elif how == "copy":
        c = copy.copy(r)
    elif how == "pickle":
        c = pickle.loads(pickle.dumps(r))
    else:
        c = CountingRandom(99)
        c.setstate(r.getstate())
    assert type(c) is CountingRandom and c is not r and c.draws == r.draws > 0
    assert [c.gauss(0.0, 1.0), c.random(), c.randrange(1000)] == [r.gauss(0.0, 1.0), r.random(), r.randrange(1000)]
    assert c.draws == r.draws


def test_its_state_reads_into_a_plain_generator_and_back() -> None:
    r = CountingRandom(5)
    r.random()
    plain = random.Random()
    plain.setstate(r.getstate())
    assert plain.random() == r.random()
    again = CountingRandom(0)
    again.setstate(plain.getstate())  # a plain state carries no count: the count stays
    assert again.draws == 0 and again.random() == r.random()


# -- 2. measure_chance on the small games ---------------------------------------------------------


@pytest.mark.parametrize("game, at_setup, during_play, words", [
    (TakeAway(), False, False, "no chance: every deal is the same and nothing is drawn during play"),
    (DealtPile(), True, False, "chance at the deal only"),
    (Gusts(), False, True, "chance during play only: every deal is the same"),
    (DealtGusts(), True, True, "chance at the deal and during play"),
    (IdleDraws(), False, False, "no chance: every deal is the same, and what is drawn during play changes nothing"),
])
def test_measure_chance_tells_the_deal_from_play(game: core.CardGame, at_setup: bool, during_play: bool, words: str) -> None:
    chance = measure_chance(game, 2)
    assert (chance.at_setup, chance.during_play, chance.words) == (at_setup, during_play, words)
    assert chance.has_chance == (at_setup or during_play)
    assert chance.games == 8 and chance.actions > 8
    assert (chance.draws_at_setup > 0) == at_setup
    assert (chance.draws_in_play > 0) == isinstance(game, Gusts)


def test_measure_chance_is_the_same_for_a_seed() -> None:
    assert measure_chance(DealtGusts(), 2, seed=4) == measure_chance(DealtGusts(), 2, seed=4)
    assert measure_chance(DealtGusts(), 2, seed=4, games=3).games == 3
    assert isinstance(measure_chance(Bust(), 3, games=2), Chance)


def test_the_draws_are_counted_over_the_games_measured() -> None:
    one, four = measure_chance(DealtPile(), 2, games=2), measure_chance(DealtPile(), 2, games=4)
    assert one.draws_at_setup >= 2 and four.draws_at_setup >= 4 and one.draws_in_play == four.draws_in_play == 0
    capped = measure_chance(Gusts(stones=400), 2, games=2, max_actions=5)
    assert capped.actions == 10 and capped.draws_in_play >= 10  # (a draw may take more than one number)


def test_the_actions_are_chosen_with_a_generator_of_their_own() -> None:
    class Watched(Gusts):
        handed: list[random.Random] = []

        def setup(self, players: int, rng: random.Random) -> Pile:
            self.handed.append(rng)
            return super().setup(players, rng)

    measure_chance(Watched(), 2, games=2)
    assert Watched.handed and all(type(r) is CountingRandom for r in Watched.handed)
    assert len({id(r) for r in Watched.handed}) == len(Watched.handed)  # one per deal (and one per replay)


@pytest.mark.parametrize("method", ["setup", "same", "apply", "legal_actions"])
def test_a_crash_in_the_game_is_a_game_fault_naming_the_method(method: str) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("broke")

    game = DealtGusts()
    setattr(game, method, broken)
    with pytest.raises(core.GameFault, match=rf"^DealtGusts\.{method}\(\) raised ZeroDivisionError: broke"):
        measure_chance(game, 2)


@pytest.mark.parametrize("call", [measure_chance, foreign_randomness])
@pytest.mark.parametrize("args, kwargs, words", [
    (("bust", 2), {}, "takes a CardGame"),
    ((Bust(), 7), {}, "Bust is for 2..4 players, got 7"),
    ((Bust(), "2"), {}, "got '2'"),
    ((Bust(), 2), {"games": 0}, "games must be a whole number "),
    ((Bust(), 2), {"games": True}, "games must be a whole number "),
    ((Bust(), 2), {"seed": 1.5}, "seed must be a whole number"),
    ((Bust(), 2), {"max_actions": 0}, "max_actions must be a whole number >= 1"),
])
def test_bad_input_is_named(call: Any, args: tuple[Any, ...], kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(core.GameError, match=words.replace("(", r"\(").replace(".", r"\.")):
        call(*args, **kwargs)


def test_measure_chance_compares_deals_in_pairs() -> None:
    with pytest.raises(core.GameError, match=r"games must be a whole number 2\.\.1000"):
        measure_chance(Bust(), 2, games=1)


# -- 3. the shipped games -------------------------------------------------------------------------


@pytest.mark.parametrize("make, players, words", [
    (Bust, 2, "chance at the deal only"),
    (lambda: core.game_class("kings-under-mountains")(), 2, "chance at the deal only"),
    (lambda: core.game_class("court")(), 1, "chance at the deal only"),
    (lambda: gallery("connect_four", "ConnectFour"), 2, "no chance: every deal is the same and nothing is drawn during play"),
    (lambda: gallery("undercut", "Undercut"), 2, "no chance: every deal is the same and nothing is drawn during play"),
    (lambda: gallery("whispers", "Whispers"), 2, "chance at the deal only"),
    (lambda: gallery("workers", "Woodcutters"), 2, "no chance: every deal is the same and nothing is drawn during play"),
])
def test_the_shipped_games_chance(make: Callable[[], core.CardGame], players: int, words: str) -> None:
    game = make()
    assert measure_chance(game, players, games=4).words == words
    assert foreign_randomness(game, players, games=2) is None


# -- 4. foreign_randomness: chance only from the generator setup() gets -------------------------------


@pytest.mark.parametrize("game", [TakeAway(), DealtPile(), Gusts(), DealtGusts(), IdleDraws()])
def test_a_game_drawing_only_from_its_generator_passes(game: core.CardGame) -> None:
    assert foreign_randomness(game, 2) is None


@pytest.mark.parametrize("game, when, what", [
    (OwnGenerator(), r"after action 1 \(1\)", r"the positions differ \(at stones, the first run has \d+ and the second has \d+\)"),
    (GlobalRandom(), r"after action 1 \(1\)", r"the positions differ \(at stones, the first run has \d+ and the second has \d+\)"),
    (GlobalShuffle(), "at the deal", r"the positions differ \(at order\[\d\], the first run has \d and the second has \d\)"),
])
def test_a_game_drawing_chance_elsewhere_is_named_at_its_first_step(game: core.CardGame, when: str, what: str) -> None:
    import re

    message = foreign_randomness(game, 2)
    assert message is not None
    name = type(game).__name__
    assert re.fullmatch(rf"game \d of 4 \(dealt with seed \d+\), ({when}|after action \d+ \(\d\)): ({what}|the legal actions differ "
                        rf"\(\[.*\] and \[.*\]\)) with Python's global random module seeded otherwise: {name} draws chance from "
                        r"somewhere other than the generator setup\(\) hands it \(an unseeded random\.Random\(\), random\.random\(\), "
                        r"random\.shuffle\.\.\.\), so its games cannot be replayed", message), message


def test_the_global_generator_is_left_as_it_was() -> None:
    random.seed(1234)
    before = random.getstate()
    for game in (GlobalRandom(), GlobalShuffle(), Gusts()):
        foreign_randomness(game, 2)
        assert random.getstate() == before
    with pytest.raises(core.GameFault):
        broken = GlobalRandom()
        broken.apply = lambda s, a: 1 / 0  # type: ignore[method-assign, assignment, misc, return-value]
        foreign_randomness(broken, 2)
    assert random.getstate() == before


def test_foreign_randomness_is_the_same_for_a_seed() -> None:
    assert foreign_randomness(GlobalShuffle(), 2, seed=3) == foreign_randomness(GlobalShuffle(), 2, seed=3)
    assert foreign_randomness(Gusts(stones=400), 2, games=1, max_actions=3) is None


def test_the_core_exports_them() -> None:
    assert (core.measure_chance, core.foreign_randomness, core.Chance, core.CountingRandom) == (
        measure_chance, foreign_randomness, Chance, CountingRandom)


def test_chance_hidden_in_a_generator_the_deal_seeds_shows_during_play() -> None:
    """Every deal of SeededGusts looks the same and its handed generator is never drawn during
    play; the same actions played from two deals still come apart: chance during play."""
    chance = measure_chance(SeededGusts(), 2)
    assert chance.draws_in_play == 0 and not chance.at_setup
    assert chance.during_play and chance.has_chance and chance.words.startswith("chance during play")
