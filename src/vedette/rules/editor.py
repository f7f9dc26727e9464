"""What the scenario builder (web/builder.py, issue 30) edits for a ruleset, declared by the
ruleset itself (``Ruleset.editor``; issue 28: the web app names no ruleset).

An :class:`Editor` gives the builder page its description of a scenario (the fields of each
part in the order a scenario file writes them, which of them a board tap fills, the board's
kind and tools; choices taken from the ruleset's own rule data), the rules' allotments and
budgets shown beside the board as the scenario stands, and how its board is drawn: ``"hex"``
(the ruleset draws the state it sets up, ``board_svg``), ``"grid"`` (a grid of the scenario's
locations, as Solitaire ASL's boards are not drawn) or ``"table"`` (a table top in mm)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


def field(key: str, kind: str, label: str = "", **more: Any) -> dict[str, Any]:
    """One edited field: its key in the scenario (``a.b`` for a nested key), the kind of input,
    its label, and more (``keep``: written even at its default; ``default``; ``choices`` or a
    ``source`` of choices; ``min``/``max``; ``presets``)."""
    return {"key": key, "kind": kind, "label": label or key.split(".")[-1], **more}


#: the first fields of a side's piece: its id and its side
OWNED = (field("id", "text", keep=True), field("side", "choice", source="sides", keep=True))

#: a table's side in mm: 2, 3, 4 and 6 ft presets (2 by 2's table is 2 ft square), or typed
TABLE = {
    "keep": True,
    "default": 609.6,
    "presets": [609.6, 914.4, 1219.2, 1828.8],
    "min": 100,
    "max": 5000,
}


def _no_notes(state: Any, data: Mapping[str, Any], rule_data: Mapping[str, Any]) -> list[str]:
    return []


def _table_as_stated(data: Mapping[str, Any]) -> tuple[float, float]:
    t = data.get("table")
    t = t if isinstance(t, Mapping) else {}
    return number(t.get("width"), 609.6), number(t.get("depth"), 609.6)


def number(v: Any, default: float) -> float:
    """``v`` as a number, or ``default`` (a scenario being built may hold anything yet)."""
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else default


@dataclass(frozen=True)
class Editor:
    #: the description of a scenario, from the ruleset's rule data (house rules not applied)
    spec: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: "hex", "grid" or "table" (see the module's docstring)
    board: str
    #: the allotments and budgets shown beside the board, from the set-up state, the scenario
    #: and the rule data
    notes: Callable[[Any, Mapping[str, Any], Mapping[str, Any]], list[str]] = _no_notes
    #: a unit's drawn frontage and depth on a table, in mm
    piece: tuple[float, float] = (24.0, 12.0)
    #: a table's width and depth in mm, from the scenario as it stands
    table_size: Callable[[Mapping[str, Any]], tuple[float, float]] = _table_as_stated
