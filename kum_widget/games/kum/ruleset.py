"""Rule options: every number and decision of the rules as a named field.

A :class:`Rules` value is immutable; change one option with
``dataclasses.replace`` or :meth:`Rules.with_`. Decisions D1-D7 are the
project's answers where the publisher's rules are silent (see RULES.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import Deck, Race
from .errors import InvalidDeckError, InvalidRulesError, KumError, shown, shown_names

__all__ = ["Rules"]

Refill = Literal["immediate", "end_of_turn"]
End = Literal["immediate", "finish_round"]
Stuck = Literal["discard", "draw"]
Ties = Literal["share", "developed"]
Visibility = Literal["physical", "hidden", "open"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "refill": ("immediate", "end_of_turn"),
    "end": ("immediate", "finish_round"),
    "stuck": ("discard", "draw"),
    "ties": ("share", "developed"),
    "visibility": ("physical", "hidden", "open"),
}


class _Standard:
    """The default deck in the signature, read when a Rules is made (not at import)."""

    def __repr__(self) -> str:
        return "Deck.standard()"


STANDARD_DECK: Any = _Standard()


@dataclass(frozen=True, slots=True, init=False)
class Rules:
    """Every rule option. The defaults are the publisher's rules plus D1-D7.

    >>> Rules().hand_size, Rules().stuck
    (6, 'discard')
    >>> Rules(stuck="draw").stuck
    'draw'
    """

    hand_size: int = 6
    """Cards dealt to each player (the hand then stays this size)."""
    mines: int = 4
    """Available mines on the table."""
    camp_cards: int = 4
    """Cards laid creature-face-up to start the Camp."""
    refill: Refill = "immediate"
    """D1: a claimed mine's slot is refilled at once ("immediate") or after the draw."""
    end: End = "immediate"
    """D2: the game ends the moment the deck is empty, or "finish_round" so every seat has had as many turns."""
    stuck: Stuck = "discard"
    """D3: with no legal play, discard a card then draw from the deck ("discard"),
    or keep every card and just draw from the deck ("draw")."""
    ties: Ties = "share"
    """D4: players tied on the top score share the win, or "developed" points break the tie first."""
    first_player: int | Literal["random"] = 0
    """D5: the seat that starts, or "random" (drawn from the game's seed)."""
    visibility: Visibility = "physical"
    """D6: "physical" (each card shows one face), "hidden" (hands wholly private) or "open" (all hands public)."""
    races: str = ""
    """Each seat's King, in seat order, as text: ``"giant,orc"`` (one different race per
    seat; a list such as ``["giant", "orc"]`` is read as that text). ``""``: the Kings
    are dealt from the game's seed (the deck a seed deals is the same either way)."""
    deck: Deck = field(default_factory=Deck.standard)
    """D7: the table of all cards (mine faces); ``Deck.standard()`` ships with the package."""

    def __init__(
        self,
        *,
        hand_size: int = 6,
        mines: int = 4,
        camp_cards: int = 4,
        refill: Refill = "immediate",
        end: End = "immediate",
        stuck: Stuck = "discard",
        ties: Ties = "share",
        first_player: int | Literal["random"] = 0,
        visibility: Visibility = "physical",
        races: str | Sequence[str] = "",
        deck: Deck = STANDARD_DECK,
        **unknown: Any,
    ) -> None:
        # Written out (not the dataclass's own __init__) so that an unknown option is bad
        # input like any other, an InvalidRulesError naming it, while help() and
        # completion still list every option.
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s): {shown_names(unknown)}")
        values = dict(hand_size=hand_size, mines=mines, camp_cards=camp_cards, refill=refill, end=end, stuck=stuck,
                      ties=ties, first_player=first_player, visibility=visibility, races=races_text(races),
                      deck=Deck.standard() if deck is STANDARD_DECK else deck)
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    def __post_init__(self) -> None:
        for name in ("hand_size", "mines", "camp_cards"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= 20:
                raise InvalidRulesError(f"rule {name!r} must be a whole number 1..20, got {shown(value)}")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise InvalidRulesError(f"rule {name!r} must be one of {', '.join(choices)}; got {shown(value)}")
        fp = self.first_player
        if fp != "random" and (type(fp) is not int or not 0 <= fp <= 3):
            raise InvalidRulesError(f"rule 'first_player' must be a seat 0..3 or 'random', got {shown(fp)}")
        if not isinstance(self.deck, Deck):
            raise InvalidRulesError(f"rule 'deck' must be a Deck, got {type(self.deck).__name__}")

    def with_(self, **changes: Any) -> Rules:
        """A copy with some options changed (unknown names raise InvalidRulesError)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s): {shown_names(unknown)}")
        return dataclasses.replace(self, **changes)

    def cards_needed(self, players: int) -> int:
        """Cards the setup lays out, plus one so the deck is not empty at the start."""
        return self.mines + self.camp_cards + self.hand_size * players + 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form; the deck is ``"standard"`` or its CSV text."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["deck"] = "standard" if self.deck == Deck.standard() else self.deck.to_csv_text()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; missing options take their defaults."""
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"rules must be a mapping, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s): {shown_names(unknown)}")
        kwargs = dict(data)
        if "deck" in kwargs:
            kwargs["deck"] = _deck_from(kwargs["deck"])
        return cls(**kwargs)

    def diff(self) -> dict[str, Any]:
        """Options that differ from the defaults (the deck by name)."""
        default = Rules()
        return {
            f.name: (getattr(self, f.name) if f.name != "deck" else self.deck.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


def races_text(races: Any) -> str:
    """The rule ``races`` as its text: race names joined by commas (``"giant,orc"``), read
    from such text (commas or spaces between names, any case, plurals) or a list of names;
    ``""`` (or an empty list) for Kings dealt from the seed. The number of names is checked
    against the players when a game is dealt."""
    if isinstance(races, str):
        names: Any = races.replace(",", " ").split()
    elif isinstance(races, (list, tuple)):
        names = races
    else:
        raise InvalidRulesError(f"rule 'races' must be text like 'giant,orc' (one King race per seat) or '', got {shown(races)}")
    try:
        kings = [Race.parse(name) for name in names]
    except KumError as exc:
        raise InvalidRulesError(f"rule 'races': {exc}") from None
    if (kings and not 2 <= len(kings) <= 4) or len(set(kings)) != len(kings):
        raise InvalidRulesError(f"rule 'races' must name 2-4 different King races, one per seat, like 'giant,orc' "
                                f"('' deals them from the seed); got {shown(races)}")
    return ",".join(k.value for k in kings)


_PARSED: dict[str, Deck] = {}


def _deck_from(value: Any) -> Deck:
    if isinstance(value, Deck):
        return value
    if value == "standard":
        return Deck.standard()
    if isinstance(value, str):
        deck = _PARSED.get(value)  # views carry a custom deck as CSV: parse each text once
        if deck is None:
            try:
                deck = Deck.from_csv_text(value)
            except InvalidDeckError as exc:
                raise InvalidRulesError(f"rule 'deck': {exc}") from None
            if len(_PARSED) >= 16:
                _PARSED.clear()
            _PARSED[value] = deck
        return deck
    raise InvalidRulesError(f"rule 'deck' must be 'standard' or CSV text, got {type(value).__name__}")
