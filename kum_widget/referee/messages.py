"""What a client may send a referee, read without trusting it: a size cap before anything is
decoded, JSON that is one object of a known kind with only that kind's fields, each of its type
and length. Anything else is refused by name (:class:`~kum_widget.referee.table.Refused`), and
the refusal repeats nothing of what was sent but its kind and field names, cut short.

>>> parse('{"kind": "act", "action_id": 3, "state_id": 7, "id": "c1"}')
Message(kind='act', fields={'action_id': 3, 'state_id': 7, 'id': 'c1'})
>>> parse('{"kind": "act", "action_id": true, "state_id": 7}')
Traceback (most recent call last):
...
kum_widget.referee.table.Refused: act: action_id is a whole number, got True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import shown, shown_names
from .table import Refused

__all__ = ["KINDS", "MAX_MESSAGE_BYTES", "Message", "parse"]

MAX_MESSAGE_BYTES = 16_384  # a click is well under 200 bytes; a hello with rules well under 4 KiB
MAX_TEXT = 80  # a field of text: a code (32), a game's name, a version, a token
MAX_RULES = 4_096  # the rules a hello names, as JSON

# Per kind, its fields: (type, required). "id" is the client's token for the answer.
KINDS: dict[str, dict[str, tuple[str, bool]]] = {
    "hello": {"code": ("text", True), "game": ("text", False), "version": ("text", True), "rules": ("object", False),
              "id": ("token", False)},
    "act": {"action_id": ("int", True), "state_id": ("int", True), "id": ("token", False)},
    "frame": {"id": ("token", False)},  # the seat's frame again (after a gap, a reload)
    "ping": {"id": ("token", False)},
    "record": {"id": ("token", False)},  # the table's whole record, once its game is over
    "undo": {"state_id": ("int", True), "id": ("token", False)},  # take back the seat's own last action
    "back": {"id": ("token", False)},  # the seat's person takes it back from the bot standing in
    "bot": {"bot": ("text", True), "id": ("token", False)},  # the referee's bot plays the seat, until "back"
    # the teacher's: a table more (a class file's [[table]] entry), a seat handed to a bot
    "add_table": {"table": ("object", True), "id": ("token", False)},
    "hand_over": {"table": ("text", True), "seat": ("int", True), "bot": ("text", False), "id": ("token", False)},
}


@dataclass(frozen=True)
class Message:
    """A client's message that passed every check: its ``kind`` and its ``fields``."""

    kind: str
    fields: dict[str, Any] = field(default_factory=dict)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse(raw: str | bytes) -> Message:
    """``raw`` (a websocket message) as a :class:`Message`, or :class:`Refused` saying what is wrong."""
    if not isinstance(raw, (str, bytes)):
        raise Refused(f"a message is text, got {type(raw).__name__}")
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise Refused(f"a message is at most {MAX_MESSAGE_BYTES} bytes, this one has {size}")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise Refused("a message nests too deep") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise Refused(f"a message is one JSON object: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise Refused(f"a message is one JSON object, got {type(data).__name__}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise Refused(f"a message's kind is one of {', '.join(KINDS)}, got {shown(kind, 40)}")
    spec = KINDS[kind]
    unknown = [k for k in data if k != "kind" and k not in spec]
    if unknown:
        raise Refused(f"{kind}: no field {shown_names(unknown, 3)} (it takes {', '.join(spec)})")
    fields: dict[str, Any] = {}
    for name, (kind_of, required) in spec.items():
        if name not in data:
            if required:
                raise Refused(f"{kind}: {name} is missing")
            continue
        fields[name] = _checked(kind, name, kind_of, data[name])
    return Message(kind, fields)


def _checked(kind: str, name: str, kind_of: str, value: Any) -> Any:
    if kind_of == "int":
        if type(value) is not int or not 0 <= value < 2**53:
            raise Refused(f"{kind}: {name} is a whole number, got {shown(value, 40)}")
    elif kind_of == "text":
        if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
            raise Refused(f"{kind}: {name} is text of 1 to {MAX_TEXT} characters, got {shown(value, 40)}")
    elif kind_of == "token":
        if not (isinstance(value, str) and len(value) <= MAX_TEXT) and not (type(value) is int and 0 <= value < 2**53):
            raise Refused(f"{kind}: {name} is a short text or a whole number, got {shown(value, 40)}")
    elif kind_of == "object":
        if not isinstance(value, dict):
            raise Refused(f"{kind}: {name} is an object, got {type(value).__name__}")
        if len(json.dumps(value)) > MAX_RULES:
            raise Refused(f"{kind}: {name} is at most {MAX_RULES} characters of JSON")
    return value
