"""``Court``: a game of Court of the Three Clans you play and read from Python.

``Court`` is the core's :class:`~kum_widget.core.Session` (history, undo from snapshots,
state id, listeners, refusal before change, records) with the game's own reading API
on top. Actions are handed out as core ``Action``s (an id with its text, "buy place 3 to space 2.1"); ``apply``
takes the text or the id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.errors import InvalidOptionError, shown
from ...core.session import Session
from .card_game import CourtOfTheThreeClans
from .cards import Card
from .ruleset import CourtRules
from .state import CourtState
from .text import court_text

__all__ = ["Court"]


class Court(Session):
    """A game of Court of the Three Clans, the solitaire of the three clans.

    >>> g = Court(seed=4)
    >>> g.phase, len(g.row), g.cp
    ('setup', 4, 10)
    >>> g.legal_actions()[0]
    Action(0, 'start place 1 to space 1.1')
    >>> for text in ("start place 1 to space 1.1", "start place 2 to space 1.2", "start place 3 to space 1.3"):
    ...     _ = g.apply(text)
    >>> g.phase, sum(card is not None for card in g.court)
    ('buy', 3)
    >>> g.undo(); g.phase
    1
    'setup'
    """

    game: CourtOfTheThreeClans

    if TYPE_CHECKING:  # the session's, with this game's type

        @property
        def state(self) -> CourtState: ...

    def __init__(self, seed: int | None = None, rules: CourtRules | None = None, *, player: str = "Ruler") -> None:
        super().__init__(_rules_game(rules), [_player(player)], seed=seed)

    @classmethod
    def dealt(cls, game: Any, players: Any = None, *, seed: Any, setup: Any = None) -> Court:
        """A game dealt from ``seed`` under ``game``'s rules (how records read a save back)."""
        if setup is not None:
            raise InvalidOptionError(f"setup: Court of the Three Clans is dealt with no setup options, got {shown(setup)}")
        if not isinstance(players, (list, tuple)) or len(players) != 1:
            raise InvalidOptionError(f"Court of the Three Clans is a solitaire: players is a list of one name, got {shown(players)}")
        if seed is None:  # a dealt game replays only from its own seed (a game built by hand saves its start)
            raise InvalidOptionError("seed: a saved game of Court of the Three Clans needs the seed that dealt it, got None")
        return cls(seed=seed, rules=CourtRules.from_options(game.options()), player=players[0])

    @classmethod
    def from_dict(cls, data: Any, *, game: Any = None) -> Court:
        """Inverse of :meth:`to_dict` (a save of another game is refused by its name)."""
        return super().from_dict(data, game=_rules_class(game, "from_dict"))

    @classmethod
    def from_record(cls, text: Any, *, game: Any = None) -> Court:
        """Inverse of :meth:`record`: the identical game, history included."""
        return super().from_record(text, game=_rules_class(game, "from_record"))

    @classmethod
    def from_scenario(cls, row: Sequence[Any], court: Sequence[Any], *, rules: CourtRules | None = None,
                      player: str = "Ruler", **layout: Any) -> Court:
        """Any legal position, built by hand. ``row`` (4 places, left to right) and ``court``
        (8 spaces: 1.1..1.4, then 2.1..2.4) hold cards or None; the other fields (all
        optional): ``cp``, ``pile`` (the draw pile, top first; left out: every card not
        placed elsewhere), ``discarded``, ``defeated``, ``captured``, ``bought``,
        ``phase`` ("setup", "buy", "fight"), ``turn``, ``fights``, and ``aside`` (princes
        set aside during setup). Cards are ids, ``"#12"`` or labels (``"sun poet 4"``).

        >>> g = Court.from_scenario(row=["sun general 4", "daemon prince 3", None, None],
        ...     court=["moon general 3", None, None, None, None, None, None, None], phase="fight", cp=2)
        >>> g.legal_actions()
        [Action(211, 'fight place 2'), Action(220, 'skip')]
        """
        game = _rules_game(rules)
        return cls.from_position(game, game.scenario(row, court, **layout), [_player(player)])

    # -- reading ------------------------------------------------------------------------

    @property
    def rules(self) -> CourtRules:
        return CourtRules.from_options(self.game.options())

    @property
    def table(self) -> Any:
        """The card table in play (``CardTable``: ``table[id]`` is a ``Card``)."""
        return self.game.table

    def _cards(self, ids: Sequence[int | None]) -> list[Card | None]:
        return [None if c is None else self.game.table[c] for c in ids]

    @property
    def row(self) -> list[Card | None]:
        """The Society Row's four places, left (1) to right (4): a card or None."""
        return self._cards(self.state.row)

    @property
    def prices(self) -> list[int | None]:
        """What each card of the row costs now (None: an empty place or a Daemon Prince)."""
        s = self.state
        return [None if c is None or self.game.table[c].prince else self.game.price(c, p + 1) for p, c in enumerate(s.row)]

    @property
    def court(self) -> list[Card | None]:
        """The Royal Court's eight spaces, 1.1..1.4 then 2.1..2.4: a card or None."""
        return self._cards(self.state.court)

    @property
    def cp(self) -> int:
        """Copper pieces in hand."""
        return self.state.cp

    @property
    def vp(self) -> int:
        """VP gained so far in play: the defeated Daemon Princes' (the rest is scored at the end)."""
        return sum(self.game.table[c].vp for c in self.state.defeated)

    @property
    def strength(self) -> int:
        """The Generals' combined strength now (with the three-clan bonus)."""
        return self.game.strength(self.state)

    @property
    def draw_pile_size(self) -> int:
        return len(self.state.pile)

    @property
    def daemons_drawn(self) -> int:
        """Daemon Princes drawn into the row so far."""
        return self.game.daemons_drawn(self.state)

    @property
    def discarded(self) -> list[Card]:
        return [self.game.table[c] for c in self.state.discarded]

    @property
    def defeated(self) -> list[Card]:
        return [self.game.table[c] for c in self.state.defeated]

    @property
    def captured(self) -> list[Card]:
        """The Court of the Daemon Princes: the court cards the daemons took."""
        return [self.game.table[c] for c in self.state.captured]

    @property
    def phase(self) -> str:
        """"setup", "buy" (phase 1), "fight" (phase 2) or "over"."""
        return self.state.phase

    @property
    def turn(self) -> int:
        return self.state.turn

    def score_breakdown(self) -> dict[str, int]:
        """The score's parts; they add up to ``scores()[0]``: ``defeated`` (princes' VP),
        ``court`` (printed VP of the court's cards), ``powers`` (Poets and Courtesans),
        ``cp`` (1 per 3 CP left), ``captured`` (minus the daemons' court) and
        ``row_princes`` (C9's option; 0 by default)."""
        return self.game.breakdown(self.state)

    def rank(self) -> str:
        """The verdict on the score (C10): Overthrown, Troubled Reign, Prosperous Reign or Golden Age."""
        return self.game.rank(self.state)

    def fight_cost(self, place: int) -> int | None:
        """The CP a fight against the prince at ``place`` (1..4) would pay now (None: no prince)."""
        if type(place) is not int or not 1 <= place <= 4:
            raise InvalidOptionError(f"place must be 1..4, got {shown(place)}")
        return self.game.fight_cost(self.state, place)

    def describe(self, event: Any, viewer: int | None = None, *, spectator: bool = False) -> str | None:
        """An event (the text ``apply`` returned) as a sentence; a court event is public."""
        if not isinstance(event, str):
            raise InvalidOptionError(f"an event of Court of the Three Clans is the text apply() returned, got {shown(event)}")
        return super().describe(event, viewer, spectator=spectator)

    # -- text -----------------------------------------------------------------------------

    def __str__(self) -> str:
        return court_text(self.game, self.state)

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"turn {self.turn}, {self.phase}"
        rules = "" if not self.rules.diff() else f", rules={self.rules!r}"
        return f"<Court seed={self.seed}{rules}: {where}; {self.cp} CP; score {self.scores()[0]:g}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # IPython shows the table, not the repr
        p.text(str(self))


def _rules_game(rules: Any) -> CourtOfTheThreeClans:
    rules = CourtRules() if rules is None else rules
    if not isinstance(rules, CourtRules):
        raise InvalidOptionError(f"rules must be a kum.CourtRules, got {shown(rules)}")
    return CourtOfTheThreeClans(**rules.options())


def _rules_class(game: Any, call: str) -> Any:
    """``game=`` of from_dict and from_record: the court's rules, the class or an instance
    (anything else escaped from the core's loader as an AttributeError)."""
    if game is None:
        return CourtOfTheThreeClans
    if isinstance(game, CourtOfTheThreeClans) or (isinstance(game, type) and issubclass(game, CourtOfTheThreeClans)):
        return game
    raise InvalidOptionError(f"game: Court.{call} takes the rules, CourtOfTheThreeClans or an instance, got {shown(game)}")


def _player(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise InvalidOptionError(f"player is a name of 1-40 characters, got {shown(name)}")
    return name



