"""``Note``: a line of the log that may say more to one seat than to the others."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Note"]


@dataclass(frozen=True, slots=True)
class Note:
    """What happened, in words. ``{player}`` in a text stands for the name of ``seat``.

    ``text`` is what ``seat`` (and the full table) reads; ``others`` what every other
    viewer reads: the same text when left out (a public event), or None to tell them
    nothing. ``Note("{player} drew the 7.", seat=0, others="{player} drew a card.")``
    """

    text: str
    seat: int | None = None
    others: str | None = ""  # "" stands for "the same text"

    def text_for(self, viewer: int | None) -> str | None:
        """The line ``viewer`` reads (None: the full table; -1: a spectator)."""
        if viewer is None or self.seat is None or viewer == self.seat or self.others == "":
            return self.text
        return self.others
