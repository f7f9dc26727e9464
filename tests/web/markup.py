"""Scenarios with markup in every string field a person writes (titles, names, ids, sides), one
per ruleset: the pages must show it as text and never run it."""

from __future__ import annotations

from typing import Any

from vedette import rules
from vedette.data import package_toml

PAYLOAD = "\"'><img src=x onerror=alert(1)>"
SCRIPT = "<script>window.__xss=1</script>"

#: keys whose values are vocabulary (kinds, terrain, hex ids), not free text
SKIP: dict[str, set[str]] = {
    "napoleon_at_bay": {
        "hexes", "kind", "series", "file", "orientation", "shifted", "letter", "default_terrain",
        "terrain", "areas", "roads", "hexsides", "columns", "rows", "feature", "path", "pairs",
    },
    "solitaire_asl": {
        "location", "terrain", "status", "kind", "size", "boards", "forbid", "boresight",
    },
    "two_by_two": {"type", "kind", "edge", "start", "status", "formation"},
    "solo_napoleonic": {
        "kind", "grade", "formation", "status", "rank", "nation", "th", "av", "officer",
        "musician", "standard",
    },
}  # fmt: skip


def _mark(s: str, i: list[int]) -> str:
    i[0] += 1
    return f"{s}{PAYLOAD if i[0] % 2 else SCRIPT}"[:60]


def markup_scenario(ruleset: str) -> dict[str, Any]:
    rs = rules.get(ruleset)
    scn = rs.scenario("sample")
    if ruleset == "napoleon_at_bay":  # the map inline, so its name and place names carry markup
        scn["map"] = package_toml(rs.data_package, "sample_map.toml")["map"]
    skip = SKIP[ruleset]
    ids: dict[str, str] = {}

    def tr(v: str) -> str:
        if v not in ids:
            ids[v] = _mark(v, [len(ids)])
        return ids[v]

    def walk(x: Any, key: str = "", listed: bool = False) -> Any:
        if key in skip or key == "-":
            return x
        if isinstance(x, dict):
            out = {}
            for k, v in x.items():
                nk = tr(k) if key == "sides" and not listed else k  # NAB: side id = "name"
                sub = "name" if key == "names" else ("-" if (key, k) == ("locations", "id") else k)
                out[nk] = walk(v, sub)
            return out
        if isinstance(x, list):
            return [walk(v, key, True) for v in x]
        if isinstance(x, str):
            return tr(x)
        return x

    return walk(scn)  # type: ignore[no-any-return]
