"""Bot factories for bench/ismcts_match.py, in a module of their own: spawned workers
import them by name (a class defined in a script's __main__ cannot be sent to them)."""

from __future__ import annotations

from typing import Any

from kum_widget.bots import ISMCTSBot


class Maker:
    """A bot factory ``f(seed) -> ISMCTSBot`` with fixed options."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        self.kwargs = kwargs
        self.label = "ismcts(" + ",".join(f"{k}={v}" for k, v in kwargs.items()) + ")"

    def __call__(self, seed: int) -> ISMCTSBot:
        return ISMCTSBot(seed=seed, **self.kwargs)
