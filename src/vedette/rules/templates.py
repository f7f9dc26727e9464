"""Message templates from data (house rules): ``str.format`` strings checked when they are
loaded against the fields their message offers (issue 25). A template may only name those
fields, plainly: ``{contact}``, never ``{contact.__class__}``, ``{0}``, ``{contact!r}`` or a
format spec such as ``{contact:>400000000}``; so what it renders is at most its own length
plus the fields' (a name, a hex list), never a crash or gigabytes."""

from __future__ import annotations

import string
from collections.abc import Iterable

from vedette.errors import DataError

#: the longest template a house rule may give
MAX_TEMPLATE = 500


def check_template(text: object, fields: Iterable[str], source: str) -> str:
    """``text`` if it is a template naming only ``fields``; a one-line :class:`DataError`
    naming ``source`` otherwise."""
    offered = sorted(fields)
    if not isinstance(text, str):
        raise DataError(source, f"must be text, not {type(text).__name__}")
    if len(text) > MAX_TEMPLATE:
        raise DataError(source, f"at most {MAX_TEMPLATE} characters ({len(text)} given)")
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as e:
        raise DataError(source, f"not a message template: {e} (write {{{{ for a brace)") from None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in offered:
            known = ", ".join("{" + f + "}" for f in offered) or "none"
            raise DataError(source, f"{{{name}}} is not a field of this message (it has: {known})")
        if spec or conversion:
            raise DataError(
                source, f"{{{name}}}: no format spec or conversion ('{{{name}}}' alone)"
            )
    return text
