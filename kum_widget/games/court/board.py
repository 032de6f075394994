"""The court solitaire as the generic board draws it (GAMES.md, "The board").

Built from the view alone (and the static card table), so the draw pile's order, which
no seat's view holds, never reaches the page. The table holds the Society Row (four
places, each with its card's current price, or for a Daemon Prince what a fight costs),
the draw pile, the Royal Court (a 2 x 4 grid of spaces one clicks into, with the CP, VP
and strength counters) and the three face-up piles; the player's area holds the score
(at game over, its breakdown: the final table's columns) and the rank.

Ids: ``card <n>`` for a card (stable while it moves), ``place <p>`` for a place of the
row, ``space <r.c>`` for a space of the court, and one id per pile. Buying or choosing a
starting card is a click on the row's card, then on a space; a fight is a click on the
prince; pass and skip are buttons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import Card
from .state import (
    BUY,
    BUYING,
    FIGHT,
    FIGHTING,
    OVER,
    PASS,
    PLACES,
    RANKS,
    SETUP,
    SKIP,
    SPACES,
    START,
    STARTING_CARDS,
    CourtState,
    space_name,
)

if TYPE_CHECKING:
    from .formulas import CourtFormulas

__all__ = ["court_board", "court_click", "CLAN_STYLE"]

# clan: (colour, glyph); a glyph and the title say the clan too, colour is never the only cue
CLAN_STYLE = {"sun": ("gold", "☀"), "moon": ("blue", "☾"), "earth": ("green", "▲"), "fire": ("red", "✹")}
SHORT_POWER = {
    "minister": "bought: +1 CP per card in its row",
    "tax collector": "+1 CP every pass",
    "general": "+{strength} strength in every fight",
    "poet": "end: 1★ per clan next to it",
    "courtesan": "end: 1★ per clan-mate in her row",
}
BREAKDOWN = (("defeated", "princes"), ("court", "court VP"), ("powers", "powers"), ("cp", "CP left"),
             ("captured", "daemons' court"), ("row_princes", "princes in row"))


def _tip(c: Card) -> str:
    if c.prince:
        return f"Daemon Prince: strength {c.strength}, {c.vp} VP. {c.power}"
    extra = f", strength {c.strength}" if c.role == "general" else ""
    return f"{c.clan.title()} {c.role.title()} (cost {c.cost}, {c.vp} VP{extra}). {c.power}"


def card_face(c: Card, tags: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A card's face: its clan's colour and glyph, its role as title, its printed numbers."""
    color, glyph = CLAN_STYLE.get(c.clan, ("gray", "?"))
    if c.prince:
        fields = [{"label": "VP", "value": c.vp, "short": f"worth {c.vp}★"}]
        face: dict[str, Any] = {"title": "daemon prince", "value": c.strength, "fields": fields}
    else:
        fields = [{"label": "cost", "value": c.cost, "short": f"cost {c.cost}"}]
        if c.role == "general":
            fields.append({"label": "strength", "value": c.strength, "short": f"str {c.strength}"})
        face = {"title": f"{c.clan} {c.role}", "value": f"{c.vp}★", "fields": fields}
    face.update(color=color, glyph=glyph, tooltip=_tip(c))
    if tags:
        face["tags"] = tags
    return face


def power_face(c: Card) -> dict[str, Any]:
    return {"text": SHORT_POWER[c.role].format(strength=c.strength), "tooltip": c.power}


def _card(game: CourtFormulas, card: int, tags: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    c = game.table[card]
    return {"id": f"card {card}", "faces": [card_face(c, tags)] if c.prince else [card_face(c, tags), power_face(c)]}


def _fight_text(strength: int, c: Card, cost: int, cp: int) -> str:
    if cost == 0:
        return f"your strength {strength} vs {c.strength}: wins for free"
    if cost > cp:
        return f"your strength {strength} vs {c.strength}: needs {cost} CP, you have {cp}"
    return f"your strength {strength} vs {c.strength}: pays {cost} CP"


def _place(game: CourtFormulas, view: dict[str, Any], p: int) -> dict[str, Any]:
    card, price, cost = view["row"][p], view["prices"][p], view["fight_costs"][p]
    zone: dict[str, Any] = {"id": f"place {p + 1}", "label": f"Place {p + 1}", "layout": "row", "empty": "empty place"}
    if card is None:
        return zone
    c = game.table[card]
    if view["phase"] == OVER:  # nothing is for sale and nobody fights: the cards as they lie
        zone["cards"] = [_card(game, card)]
        return zone
    if c.prince:
        assert cost is not None
        if view["fights_per_turn"] == 0:
            text = "no fights in this game (fights_per_turn is 0)"
            badge = {"text": "no fights", "color": "gray", "title": text}
        else:
            text = _fight_text(view["strength"], c, cost, view["cp"])
            badge = {"text": "free fight" if cost == 0 else f"fight {cost} CP", "color": "red" if cost <= view["cp"] else "gray",
                     "title": f"A fight against this prince: {text}"}
        entry = {"id": f"card {card}", "title": f"Fight: {text}.",
                 "faces": [card_face(c), {"text": text, "tooltip": f"Fight: {text}. {c.power}"}]}
        zone.update(badges=[badge], cards=[entry])
        return zone
    assert price is not None
    if view["phase"] == SETUP:
        zone["cards"] = [_card(game, card)]
        return zone
    affordable = price <= view["cp"]
    note = f"costs {price} CP now (printed {c.cost})" + ("" if affordable else f": you have {view['cp']} CP")
    zone["badges"] = [{"text": f"price {price} CP", "color": "gold" if affordable else "gray", "title": f"Its price: {note}"}]
    zone["cards"] = [_card(game, card)]
    return zone


def _space(game: CourtFormulas, view: dict[str, Any], x: int) -> dict[str, Any]:
    zone: dict[str, Any] = {"id": f"space {space_name(x)}", "label": space_name(x), "layout": "row", "empty": "empty space"}
    card = view["court"][x]
    if card is not None:
        c = game.table[card]
        tags = []
        if c.role in ("poet", "courtesan"):
            vp = game.power_of(view["court"], x)
            tags.append({"text": f"+{vp} VP", "color": "purple", "title": f"its power scores {vp} VP at the end, as the court stands"})
        zone["cards"] = [_card(game, card, tags)]
    return zone


def _pile(game: CourtFormulas, zid: str, label: str, cards: list[int], *, vp_sign: str = "", empty: str = "none yet",
          top_only: bool = False) -> dict[str, Any]:
    vp = sum(game.table[c].vp for c in cards)
    zone: dict[str, Any] = {"id": zid, "label": label, "layout": "pile" if top_only else "stack", "empty": empty,
                            "counters": [{"label": "cards", "value": len(cards)}]}
    if vp_sign:
        zone["counters"].append({"label": "VP won" if vp_sign == "+" else "VP lost", "value": f"{vp_sign}{vp}" if vp else 0,
                                 "title": f"{label}: {vp_sign}{vp} VP to the score"})
    if top_only:
        zone["count"] = len(cards)
        zone["cards"] = [_card(game, cards[-1])] if cards else []
    else:
        zone["cards"] = [_card(game, c) for c in cards]
    return zone


def _status(view: dict[str, Any]) -> str:
    phase, turn = view["phase"], view["turn"]
    score = f"Score so far {view['score']} ({view['rank']})."
    if phase == SETUP:
        chosen = sum(c is not None for c in view["court"])
        return (f"Setup: choose starting card {chosen + 1} of {STARTING_CARDS}: click a card of the Society Row, "
                f"then an empty space of the Royal Court (starting powers do not trigger).")
    if phase == BUYING:
        return f"Turn {turn}, phase 1: buy a card of the Society Row (click it, then a space of your court) or pass. {score}"
    if phase == FIGHTING:
        return f"Turn {turn}, phase 2: fight a Daemon Prince (click it) or skip; your strength is {view['strength']}. {score}"
    b = view["breakdown"]
    parts = ", ".join(f"{name} {b[key]:+d}" for key, name in BREAKDOWN if b.get(key))
    return f"Game over after turn {turn}: {view['score']} points, {view['rank']} ({parts or 'nothing scored'})."


def _pass_hint(game: CourtFormulas, view: dict[str, Any]) -> str | None:
    if view["phase"] != BUYING:
        return None
    taxes = sum(1 for c in view["court"] if c is not None and game.table[c].role == "tax collector")
    gain = 1 + taxes
    right = next((c for c in reversed(view["row"]) if c is not None and not game.table[c].prince), None)
    if right is None:
        pays = gain if game.rules["empty_pass_pays"] else 0
        return f"A pass discards nothing and pays {pays} CP."
    return f"A pass discards the {game.table[right].name} and pays {gain} CP."


CP_TITLE = "copper pieces: pay prices and fights; 1 VP per 3 left at the end"


def _court(game: CourtFormulas, view: dict[str, Any]) -> dict[str, Any]:
    b = view["breakdown"]
    counters = [
        {"label": "CP", "value": view["cp"], "title": CP_TITLE},
        {"label": "court VP", "value": b["court"],
         "title": f"the printed VP of the cards in your court; their powers score {b['powers']} more as the court stands"},
        {"label": "strength", "value": view["strength"], "title": "the Generals' combined strength (+2 with all three clans), used in every fight"},
    ]
    return {"id": "royal court", "label": "Royal Court", "layout": "grid", "columns": 4, "size": "large",
            "zones": [_space(game, view, x) for x in range(SPACES)], "counters": counters}


def _parts(game: CourtFormulas, b: dict[str, int]) -> list[tuple[str, str]]:
    return [(key, name) for key, name in BREAKDOWN if key != "row_princes" or game.rules["row_princes_subtract"]]


def breakdown_text(game: CourtFormulas, view: dict[str, Any]) -> str:
    """The score and its parts: "34 = princes +12, court VP +8, ..."."""
    b = view["breakdown"]
    return f"{view['score']} = " + ", ".join(f"{name} {b[key]:+d}" for key, name in _parts(game, b))


def thresholds(game: CourtFormulas) -> str:
    """The verdicts and the scores they start at (C10)."""
    t = game.thresholds
    return f"{RANKS[0]} below {t[0]}, " + ", ".join(f"{RANKS[i + 1]} from {x}" for i, x in enumerate(t))


def _seat(game: CourtFormulas, view: dict[str, Any]) -> dict[str, Any]:
    b = view["breakdown"]
    if view["phase"] == OVER:
        counters = [{"label": name, "value": b[key]} for key, name in _parts(game, b)]
    else:
        counters = [
            {"label": "CP", "value": view["cp"], "title": CP_TITLE},
            {"label": "princes' VP", "value": view["vp"], "title": "VP of the Daemon Princes you defeated so far"},
            {"label": "score so far", "value": view["score"], "title": f"the score if the game ended now: {breakdown_text(game, view)}"},
        ]
    scale = f"the verdict on the final score: {thresholds(game)}"
    if view["phase"] == SETUP:
        rank = {"text": "verdict at the end", "color": "gray", "title": scale}
    else:
        final = view["phase"] == OVER
        rank = {"text": view["rank"] if final else f"{view['rank']} so far", "color": "gold" if view["rank"] == "Golden Age" else "purple",
                "title": scale if final else f"{view['rank']} with the score so far ({view['score']}); {scale}"}
    return {"seat": 0, "counters": counters, "badges": [rank]}


def court_board(game: CourtFormulas, view: dict[str, Any]) -> dict[str, Any] | None:
    """The board description of a view (a seat's, the public one or the full table)."""
    row: dict[str, Any] = {"id": "society row", "label": "Society Row", "layout": "row", "size": "large",
                           "zones": [_place(game, view, p) for p in range(PLACES)]}
    hint = _pass_hint(game, view)
    if hint:
        row["badges"] = [{"text": hint, "color": "gray"}]
    to_come = view["princes_to_come"]
    draw = {"id": "draw pile", "label": "Draw pile", "layout": "pile", "count": view["draw_pile"], "empty": "empty",
            "badges": [{"text": f"{to_come} prince{'s' if to_come != 1 else ''} to come", "color": "red",
                        "title": f"Daemon Princes not yet drawn or still in the draw pile; {view['daemons_drawn']} drawn so far"}]}
    zones = [row, draw, _court(game, view)]
    if view["aside"]:
        zones.append(_pile(game, "aside", "Set aside", view["aside"], empty="none"))
    zones += [
        _pile(game, "defeated", "Defeated princes", view["defeated"], vp_sign="+"),
        _pile(game, "captured", "Court of the Daemon Princes", view["captured"], vp_sign="-"),
        _pile(game, "discarded", "Discarded", view["discarded"], top_only=True),
    ]
    out = {"title": "Court of the Three Clans", "status": _status(view), "intro": intro(game), "zones": zones, "seats": [_seat(game, view)]}
    if view["phase"] == OVER:
        out["outcome"] = outcome(game, view)
    return out


def intro(game: CourtFormulas) -> dict[str, Any]:
    """The first-time panel: the goal, a turn, how to read a card, the score."""
    price = ("a card gets 1 CP cheaper with each place it slides right (the badge on its place says its price now)"
             if game.descending else "a card costs its printed price (the badge on its place)")
    return {"title": "Court of the Three Clans: how to play", "paragraphs": [
        "The goal: as many VP as you can by the end, ruling the Sun, Moon and Earth clans against the Daemon Princes "
        "(red, ✹). The game ends when four princes stand in the Society Row, or every prince has been drawn. "
        f"The verdict on your final score: {thresholds(game)}.",
        "A turn: 1, buy a card of the Society Row (click it, then an empty space of your Royal Court) or pass (the "
        "rightmost court card of the row is discarded and you gain CP); 2, fight a prince of the row with your "
        "Generals' strength, paying a CP for each point it lacks; 3, if a prince is in the row, the daemons take "
        "the rightmost court card. Cards slide right as the row refills from the left.",
        "Reading a card: its clan by colour and sign (sun ☀ gold, moon ☾ blue, earth ▲ green); the big number is "
        f"its VP (★) on a court card and its strength on a prince; 'cost' is its printed cost, and {price}. "
        "The text below is its power.",
        "The score: the VP of the princes you defeated, your court's VP and what its powers score, 1 VP per 3 CP "
        "left, minus the VP of the cards the daemons took. The score counter shows it as it stands; point at it "
        "for its parts.",
    ]}


def outcome(game: CourtFormulas, view: dict[str, Any]) -> str:
    """What decided a finished game: why it ended, the verdict and the score's parts."""
    in_row = sum(1 for c in view["row"] if c is not None and game.table[c].prince)
    ended = ("four Daemon Princes stood in the Society Row" if in_row >= PLACES
             else "the draw pile ran out" if view["exhausted"] else "every Daemon Prince had been drawn")
    b = view["breakdown"]
    parts = ", ".join(f"{name} {b[key]:+d}" for key, name in _parts(game, b))
    return f"The game ended when {ended}. Final score {view['score']} ({parts}): {view['rank']}. The verdicts: {thresholds(game)}."


def court_click(s: CourtState, action: int) -> dict[str, Any]:
    """Where each action is clicked: a row card then a court space, a prince, or a button."""
    if START <= action < START + PLACES * SPACES or BUY <= action < BUY + PLACES * SPACES:
        p, x = divmod(action - (START if action < BUY else BUY), SPACES)
        return {"source": f"card {s.row[p]}", "target": f"space {space_name(x)}"}
    if FIGHT <= action < FIGHT + PLACES:
        return {"target": f"card {s.row[action - FIGHT]}"}
    if action == PASS:
        return {"label": "Pass"}
    if action == SKIP:
        return {"label": "No fight (skip)"}
    return {}
