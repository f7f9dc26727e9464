"""The ruleset hooks' checks: options, scenarios and house rules (see ``Ruleset``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fnmatch import fnmatchcase
from typing import Any

from vedette.data import load_toml, merge, package_toml
from vedette.data.limits import check_tree
from vedette.dice.tables import tables_from_data
from vedette.errors import DataError, VedetteError
from vedette.rules.base import Ruleset
from vedette.schemas import check_shape, did_you_mean, validate


def check_options(rs: Ruleset[Any], raw: Mapping[str, Any], source: str) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise DataError(source, "options must be a table of KEY = VALUE")
    check_tree(raw, source, null=False)
    model = rs.options_model
    if model is None:
        return dict(raw)
    if "house_rules" in raw:
        raise DataError(source, "'house_rules' is not an option (give a house-rule file)")
    known = list(model.model_fields)
    for k in raw:
        if k not in known:
            takes = f" (options: {', '.join(known)})" if known else " (it has none)"
            raise DataError(
                source, f"{rs.name} has no option {k!r}{did_you_mean(str(k), known)}{takes}"
            )
    m = validate(model, dict(raw), source, checked=True)  # (null=False: stricter)
    return {k: getattr(m, k) for k in raw}


def check_scenario(rs: Ruleset[Any], raw: Mapping[str, Any], source: str) -> None:
    if not isinstance(raw, Mapping):
        raise DataError(source, "a scenario must be a table")
    check_tree(raw, source)  # null: where a model's field is optional
    if rs.scenario_model is not None:
        validate(rs.scenario_model, dict(raw), source, checked=True)


def shipped_data(rs: Ruleset[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in rs.data_files:
        out = merge(out, package_toml(rs.data_package, f))
    return out


def check_house_rules(rs: Ruleset[Any], raw: Mapping[str, Any], source: str) -> None:
    if not isinstance(raw, Mapping):
        raise DataError(source, "house rules must be a table")
    check_tree(raw, source, null=False)
    if not raw:
        return
    shipped = shipped_data(rs)
    check_shape(raw, shipped, source, "", rs.house_rule_open_maps, _free_paths(shipped))
    _check_signs(raw, source, rs.house_rule_positive)
    merged = merge(shipped, raw)
    # every table re-validated whole (no gap, no overlap, rows the code reads)
    try:
        tables_from_data(merged, source)
    except VedetteError as e:
        raise DataError(source, _strip(str(e), source)) from None
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as e:
        raise DataError(source, f"tables: {type(e).__name__}: {e}") from None


def _numbers(tree: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, float]]:
    for k, v in tree.items():
        sub = f"{path}.{k}" if path else str(k)
        if isinstance(v, Mapping):
            yield from _numbers(v, sub)
        elif isinstance(v, int | float) and not isinstance(v, bool):
            yield sub, v


def _check_signs(raw: Mapping[str, Any], source: str, positive: tuple[str, ...]) -> None:
    """A length (``*_mm``) is never negative; the ruleset's ``house_rule_positive`` values
    are more than 0 (a scale of 0 divided by zero when the game was shown)."""
    for path, v in _numbers(raw):
        if v <= 0 and any(fnmatchcase(path, p) for p in positive):
            raise DataError(source, f"{path}: must be more than 0, not {v}")
        if v < 0 and path.endswith("_mm"):
            raise DataError(source, f"{path}: a length must be 0 or more, not {v}")


def _free_paths(shipped: Mapping[str, Any]) -> tuple[str, ...]:
    """The rows of result tables: validated whole by ``tables_from_data``."""
    tables = shipped.get("tables", {})
    return tuple(f"tables.{t}.rows" for t in tables) if isinstance(tables, Mapping) else ()


def _strip(msg: str, source: str) -> str:
    return msg[len(source) + 2 :] if msg.startswith(source + ": ") else msg


def load_house_rules(rs: Ruleset[Any], path: str) -> dict[str, Any]:
    """A house-rule file named by the user, read and checked whole."""
    house = load_toml(path)
    rs.validate_house_rules(house, path)
    return house


def load_scenario(rs: Ruleset[Any], path: str) -> dict[str, Any]:
    """A scenario file named by the user, read and checked whole."""
    scenario = load_toml(path)
    rs.validate_scenario(scenario, path)
    return scenario
