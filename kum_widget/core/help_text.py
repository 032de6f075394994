"""A game's help (``CardGame.how_to_play``), read and checked in one place: the board shows
it (its "?" panel and first-time intro) and ``check_game`` checks it ("how to play gives
text") by the same rules.

A game's help is None or a dict with ``intro`` and/or ``rules``, each a text (its
paragraphs apart by a blank line) or a list of texts. The board sends it on every sync,
so it is cut to :data:`PARAGRAPH_CHARS` a paragraph and :data:`HELP_CHARS` a key.
"""

from __future__ import annotations

import re
from typing import Any

from .checker_faults import crash
from .errors import GameFault, cut, shown

__all__ = ["HELP_CHARS", "HELP_KEYS", "PARAGRAPH_CHARS", "cut_help", "help_paragraphs", "too_long"]

HELP_KEYS = ("intro", "rules")
PARAGRAPH_CHARS = 2_000  # a long paragraph of a printed rulebook is about 1,500
HELP_CHARS = 20_000  # per key: a whole rules text (Kings Under Mountains' is about 9,000)


def help_paragraphs(game: Any, title: str) -> dict[str, list[str]]:
    """The paragraphs of each key ``game.how_to_play()`` gives (whitespace made single, empty
    ones left out), as given: not cut. A hook that raises, or gives a bad shape, is a
    :class:`GameFault` naming ``title`` (the game) and the hook."""
    try:
        said = game.how_to_play()  # (CardGame's gives None)
    except Exception as exc:  # the game's bug: named as the other hooks' are, not let out as a bare KeyError
        raise GameFault(f"{title}: {crash(exc, game, 'how_to_play')}") from exc
    if said is None:
        return {}
    if not isinstance(said, dict) or not set(said) <= set(HELP_KEYS):
        raise GameFault(f"{title}: how_to_play() must give None or a dict with 'intro' and 'rules', got {shown(said)}")
    out: dict[str, list[str]] = {}
    for key in HELP_KEYS:
        text = said.get(key)
        if text is None:
            continue
        if isinstance(text, str):
            paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
        elif isinstance(text, list) and all(isinstance(p, str) for p in text):
            paragraphs = [" ".join(p.split()) for p in text]
        else:
            raise GameFault(f"{title}: how_to_play()[{key!r}] must be a text or a list of texts, got {shown(text)}")
        paragraphs = [p for p in paragraphs if p]
        if paragraphs:
            out[key] = paragraphs
    return out


def cut_help(paragraphs: list[str]) -> list[str]:
    """``paragraphs`` cut to :data:`PARAGRAPH_CHARS` each and :data:`HELP_CHARS` in all (the
    paragraphs past that left out, the last one kept cut)."""
    out: list[str] = []
    left = HELP_CHARS
    for p in paragraphs:
        if left <= 3:
            break
        p = cut(p, min(PARAGRAPH_CHARS, left))
        out.append(p)
        left -= len(p)
    return out


def too_long(paragraphs: dict[str, list[str]]) -> str | None:
    """What of the help the board would cut, in words (None: nothing)."""
    for key, texts in paragraphs.items():
        longest = max(texts, key=len)
        if len(longest) > PARAGRAPH_CHARS:
            return f"a paragraph of its {key!r} has {len(longest):,} characters (the board shows {PARAGRAPH_CHARS:,})"
        total = sum(map(len, texts))
        if total > HELP_CHARS:
            return f"its {key!r} has {total:,} characters (the board shows {HELP_CHARS:,})"
    return None
