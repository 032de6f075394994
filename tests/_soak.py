"""How hard the property tests push: ``make test`` runs each at a quick example count,
``make soak`` (``pytest --soak``, which sets ``KUM_SOAK``) at its full one. The same
properties are checked either way; the soak tries more inputs."""

from __future__ import annotations

import os

SOAK = os.environ.get("KUM_SOAK") == "1"
QUICK = 5  # the quick run tries a fifth of the full count (at least one)


def examples(full: int) -> int:
    """``full`` under ``--soak``, a fifth of it (at least one) in the quick run."""
    return full if SOAK else max(1, full // QUICK)
