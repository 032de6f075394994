"""Play one game from several machines: a referee holds each table's game (``Table``), hands
out a code per seat (``Codes``), and answers each seat with what that seat may know."""

from __future__ import annotations

from .codes import TEACHER, Codes, Seat
from .table import Refused, Table

__all__ = ["TEACHER", "Codes", "Refused", "Seat", "Table"]
