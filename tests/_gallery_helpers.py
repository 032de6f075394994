"""What a gallery game's length limit counts (tests/games/gallery/test_gallery.py, tests/board/test_board_schema.py)."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

__all__ = ["HELP", "code_lines"]

HELP = "how_to_play"  # the board's "?" text: prose for the player, not the game's code
LAYOUT = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def code_lines(path: Path) -> int:
    """The lines of a module that hold code: not blank, not a comment, not a docstring, and
    not the game's help text (``how_to_play``), so a game may explain itself at any length."""
    source = path.read_text(encoding="utf-8")
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in LAYOUT:
            lines |= set(range(tok.start[0], tok.end[0] + 1))  # a long string holds code on each of its lines
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == HELP:
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines -= set(range(start, (node.end_lineno or node.lineno) + 1))
        elif isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            doc = node.body[0]
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str):
                lines -= set(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
    return len(lines)
