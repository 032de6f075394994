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

__all__ = ["kum_board", "click", "RACE_STYLE"]

RACE_STYLE = {"orc": ("green", "▲"), "dwarf": ("blue", "■"), "goblin": ("gold", "●"), "giant": ("purple", "◆")}
PHASE_TEXT = {"play": "to play a creature", "draw": "to draw", "discard": "has no legal play: discard a card"}


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
                **({"hint": "needs your own race on top"} if c.get("needs_overseer") else {}),
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
    if view["over"]:
        won = [names[w] for w in view["winners"]]
        status = f"Game over: {' and '.join(won)} {'wins' if len(won) == 1 else 'share the win'}."
    else:
        status = f"{names[view['current']]} {PHASE_TEXT.get(view['phase'], view['phase'])}. Deck: {deck['size']}."
    return {
        "title": "Kings Under Mountains",
        "status": status,
        "zones": [
            {"id": "supply", "layout": "row", "zones": [
                {"id": "deck", "label": "Deck", "layout": "pile", "count": deck["size"], "cards": deck_cards},
                {"id": "camp", "label": "Camp", "layout": "row", "zones": camp},
            ]},
            {"id": "mines", "label": "Mines", "layout": "grid", "columns": len(mines), "zones": mines},
        ],
        "seats": seats,
    }


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
