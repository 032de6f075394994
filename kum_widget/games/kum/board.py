"""The Kings Under Mountains table as the generic board draws it (GAMES.md, "The board").

Built from a seat's view only, so it can hold nothing the view does not. Every card
shows its two faces as the view gives them: the creature (a large value in its race's
colour and glyph) and the mine (its points large, defense and size spelled out, and
explained on hover).
"""

from __future__ import annotations

from typing import Any

from .actions import Discard, Draw, Play, action_from_id
from .state import State

__all__ = ["kum_board", "click", "RACE_STYLE", "INTRO"]

RACE_STYLE = {"orc": ("green", "▲"), "dwarf": ("blue", "■"), "goblin": ("gold", "●"), "giant": ("purple", "◆")}
PHASE_TEXT = {"play": "to play a creature", "draw": "to draw", "discard": "has no legal play: discard a card"}
INTRO = {
    "title": "Kings Under Mountains: how to play",
    "paragraphs": [
        "The goal: the most points when the deck runs out. Claim mines, then develop them: a developed mine scores "
        "its points (★), but a mine you claimed and have not developed counts its points against you.",
        "Every card has two faces. The creature, drawn large (its value, with its race's colour and sign: orc ▲, "
        "dwarf ■, goblin ●, giant ◆), is what you play. The mine below it is what the card is when it lies as a "
        "mine: its points (★), def (its defense: the creatures it takes to claim it) and size (the creatures it "
        "takes to develop it); an overseer mine is finished by a creature of its owner's own race.",
        "Your turn: play one creature from your hand onto a mine whose top creature is lower (a 0 goes on a 9), "
        "then draw a card, from the deck or from a Camp pile (everyone has seen a Camp card's creature). When a "
        "mine holds as many creatures as its defense, the King of the race of the last one played claims it: "
        "each player is the King of one race (the badge by their name).",
        "Only you play on your claimed mines: creatures of the other races, higher each time, until the mine's "
        "size is reached; then it is developed and scores. Point at a card or a mine you cannot play on to read why.",
    ],
}


def creature_face(c: dict[str, Any] | None) -> dict[str, Any]:
    if not c or c.get("race") is None:
        return {"hidden": True, "tooltip": "creature face hidden"}
    color, glyph = RACE_STYLE[c["race"]]
    return {"title": c["race"], "value": c["value"], "color": color, "glyph": glyph, "tooltip": f"{c['race']} {c['value']}"}


def mine_face(f: dict[str, Any] | None) -> dict[str, Any]:
    if not f or f.get("defense") is None:
        return {"hidden": True, "tooltip": "mine face hidden"}
    over = bool(f.get("overseer"))
    tip = (f"Mine: defense {f['defense']} (creatures it takes to claim), size {f['size']} "
           f"(creatures it takes to develop), {f['points']} points")
    if over:
        tip += "; overseer: the last creature must be of the owner's own race"
    return {
        "title": "mine",
        "value": f"{f['points']}★",
        "fields": [{"label": "defense", "value": f["defense"], "short": f"def {f['defense']}"},
                   {"label": "size", "value": f["size"], "short": f"size {f['size']}"}],
        "tags": [{"text": "overseer", "color": "red", "title": "finish it with a creature of your own race"}] if over else [],
        "tooltip": tip,
    }


def _stack(cards: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    return [{"id": f"{prefix} {j}", "faces": [creature_face(c)]} for j, c in enumerate(cards)]


def kum_board(view: dict[str, Any]) -> dict[str, Any]:
    """The board description of one view (a seat's, the public one, or the full table)."""
    players = view["players"]
    names = [p["name"] for p in players]
    deck = view["deck"]
    deck_cards = [{"id": "deck top", "faces": [mine_face(deck["top"])], "title": "the deck's top card: its mine face shows"}] if deck["top"] else []
    camp = []
    for race, pile in view["camp"].items():
        color, glyph = RACE_STYLE[race]
        camp.append({"id": f"camp {race}", "label": f"{glyph} {race}", "layout": "stack", "cards": _stack(pile, f"camp {race}"),
                     "badges": [{"text": f"×{len(pile)}", "color": color, "title": f"{len(pile)} cards in the {race} pile"}],  # noqa: RUF001
                     "empty": "empty"})
    mines = []
    for m in view["mines"]:
        zone: dict[str, Any] = {"id": f"mine {m['number']}", "label": f"Mine {m['number']}", "layout": "row", "empty": "no mine (the deck ran out)"}
        if m["mine"] is not None:
            zone["cards"] = [{"id": f"mine {m['number']} card", "faces": [mine_face(m["mine"])]}]
            zone["zones"] = [{"id": f"mine {m['number']} stack", "layout": "stack", "cards": _stack(m["stack"], f"mine {m['number']} stack"), "empty": "no creatures yet"}]
            zone["badges"] = [{"text": f"{len(m['stack'])}/{m['mine']['defense']}", "title": "creatures on it / its defense (to claim it)"}]
        mines.append(zone)
    seats = []
    for p in players:
        s = p["seat"]
        claimed = []
        for c in p["claimed"]:
            need = c["mine"]["size"] + (1 if c["mine"].get("overseer") else 0)
            claimed.append({
                "id": f"claimed {s}.{c['number']}", "label": f"Claimed {c['number']}", "layout": "row",
                "cards": [{"id": f"claimed {s}.{c['number']} card", "faces": [mine_face(c["mine"])]}],
                "zones": [{"id": f"claimed {s}.{c['number']} stack", "layout": "stack",
                           "cards": _stack(c["stack"], f"claimed {s}.{c['number']} stack"), "empty": "none yet"}],
                "badges": [{"text": f"{len(c['stack'])}/{need}", "title": "creatures on it / needed to develop it"}],
                # a hint speaks to the seat it is for: on its own board only
                **({"hint": "needs your own race on top"} if c.get("needs_overseer") and s == view.get("seat") else {}),
            })
        hand = []
        for i, c in enumerate(p["hand"]):
            known = c.get("id") is not None
            hand.append({
                "id": f"card {c['id']}" if known else f"hand {s} {i}",
                "faces": [creature_face(c), mine_face(c)],
                **({"marked": True, "title": "drawn from the Camp: everyone has seen its creature"} if c.get("public") and not known else {}),
            })
        color, glyph = RACE_STYLE[p["king"]]
        seats.append({
            "seat": s,
            "badges": [{"text": f"{glyph} {p['king']} King", "color": color, "title": f"King of the {p['king']}s: mines finished by {p['king']}s go to this player"}],
            "counters": [{"label": "score", "value": p["score"], "title": "developed minus undeveloped points"},
                         {"label": "developed", "value": p["developed_points"]},
                         {"label": "undeveloped", "value": p["undeveloped_points"]}],
            "zones": [
                {"id": f"claimed {s}", "label": "Claimed", "layout": "row", "zones": claimed, "empty": "none"},
                {"id": f"developed {s}", "label": "Developed", "layout": "row",
                 "cards": [{"id": f"developed {s} {k}", "faces": [mine_face(f)]} for k, f in enumerate(p["developed"])], "empty": "none yet"},
                {"id": f"hand {s}", "label": "Hand", "layout": "hand", "cards": hand},
            ],
        })
    extra: dict[str, Any] = {}
    if view["over"]:
        won = [names[w] for w in view["winners"]]
        status = f"Game over: {' and '.join(won)} {'wins' if len(won) == 1 else 'share the win'}."
        extra["outcome"] = outcome(view)
    else:
        status = f"{names[view['current']]} {PHASE_TEXT.get(view['phase'], view['phase'])}. Deck: {deck['size']}."
    return {
        "title": "Kings Under Mountains",
        "status": status,
        "intro": INTRO,
        **extra,
        "zones": [
            {"id": "supply", "layout": "row", "zones": [
                {"id": "deck", "label": "Deck", "layout": "pile", "count": deck["size"], "cards": deck_cards},
                {"id": "camp", "label": "Camp", "layout": "row", "zones": camp},
            ]},
            {"id": "mines", "label": "Mines", "layout": "grid", "columns": len(mines), "zones": mines},
        ],
        "seats": seats,
    }


def _points(p: dict[str, Any], long: bool = False) -> str:
    """A score and its parts: "5 points (8 developed, minus 3 ...)"."""
    against = "for mines claimed and not developed" if long else "undeveloped"
    minus = f", minus {p['undeveloped_points']} {against}" if p["undeveloped_points"] else ""
    return f"{p['score']} point{'' if abs(p['score']) == 1 else 's'} ({p['developed_points']} developed{minus})"


def outcome(view: dict[str, Any]) -> str:
    """What decided a finished game, with the players' names: the winners and each score's parts."""
    players = view["players"]
    won = view["winners"]
    top = max(p["score"] for p in players)
    tied = [p for p in players if p["score"] == top]
    first = " and ".join(players[w]["name"] for w in won)
    said = f"{first} {'wins' if len(won) == 1 else 'share the win'} with {_points(players[won[0]], long=True)}."
    if len(tied) > len(won):  # the ties rule "developed" broke a tie on the score
        said += f" Tied on {top} with {' and '.join(p['name'] for p in tied if p['seat'] not in won)}, won on developed points."
    rest = [p for p in sorted(players, key=lambda p: -p["score"]) if p["seat"] not in won]
    if rest:
        said += " " + "; ".join(f"{p['name']}: {_points(p)}" for p in rest) + "."
    return said


def click(state: State, aid: int) -> dict[str, Any]:
    """Where an action is clicked: the card in hand, then the mine (or pile) it goes to."""
    action = action_from_id(aid, state.n, state.m)
    if isinstance(action, Play):
        if action.slot is not None:
            return {"source": f"card {action.card}", "target": f"mine {action.slot + 1}"}
        return {"source": f"card {action.card}", "target": f"claimed {state.current}.{(action.claim or 0) + 1}"}
    if isinstance(action, Draw):
        return {"target": "deck" if action.race is None else f"camp {action.race.value}"}
    assert isinstance(action, Discard)
    return {"target": f"card {action.card}"}
