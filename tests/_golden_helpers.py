"""The golden transcripts' check, shared by every game's golden test."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest


def check_transcript(text: str, golden: Path) -> None:
    """``text`` must equal the checked-in ``golden`` file; ``KUM_REGEN_GOLDEN=1`` writes it
    anew (review its diff before committing). A mismatch names the first line that differs."""
    if os.environ.get("KUM_REGEN_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
        warnings.warn(f"regenerated {golden}: review its diff before committing", stacklevel=2)
    expected = golden.read_text(encoding="utf-8")
    if text != expected:
        got, want = text.splitlines(), expected.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
        pytest.fail(
            f"transcript differs from {golden.name} at line {first + 1}:\n"
            f"  expected: {want[first] if first < len(want) else '<end of file>'}\n"
            f"  got:      {got[first] if first < len(got) else '<end of file>'}\n"
            "(regenerate with KUM_REGEN_GOLDEN=1 if the change is intended)"
        )
