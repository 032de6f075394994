"""Where things are, for a test in any folder of tests/ (not a test module): the repository's
root, and tests/ itself, which holds the helper modules (``_*.py``, ``game_from_docs.py``) that
a child process imports once tests/ is on its ``PYTHONPATH``."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
GOLDEN = TESTS / "golden"
