"""One base error and precise subclasses.

Every error vedette raises on bad input is a :class:`VedetteError`; its ``str`` is one line
that names the problem (and the rule, where a rule forbids it). Shells print that line and
exit non-zero; no traceback.
"""

from __future__ import annotations


class VedetteError(Exception):
    """Base of every error caused by input (a request, a file, a die face)."""

    exit_code = 2


class NotationError(VedetteError):
    """A dice expression that cannot be parsed; names the column (1-based)."""

    def __init__(self, text: str, column: int, problem: str) -> None:
        self.text = text
        self.column = column
        self.problem = problem
        super().__init__(f"dice notation {text!r}, column {column}: {problem}")


class DiceError(VedetteError):
    """A die face that the die does not have, or dice that ran out. ``web``: the same
    refusal worded for the web app's form (its dice buttons and dice box, not the command
    line's ``--dice``), where the two differ."""

    def __init__(self, message: str, web: str = "") -> None:
        super().__init__(message)
        self.web = web or message


class RuleViolation(VedetteError):
    """A request the rules forbid. ``rule`` cites the rule, e.g. ``"Herman (1)"``. ``web``: the
    problem in the web app's words (its panels and buttons, not a command), where they differ."""

    def __init__(self, rule: str, problem: str, web: str = "") -> None:
        self.rule = rule
        self.problem = problem
        super().__init__(f"{problem} ({rule})")
        self.web = f"{web} ({rule})" if web else ""  # ("": the same words, web.common.one_line)


class BadRequest(VedetteError):
    """A request that is malformed: a missing or mistyped field, an unknown unit. ``web``: the
    same refusal in the web app's words (its buttons, not a command), where the two differ."""

    def __init__(self, message: str, web: str = "") -> None:
        super().__init__(message)
        self.web = web or message


class DataError(VedetteError):
    """A data file (table, scenario, house rule) that is invalid; names file, row and field."""

    def __init__(self, source: str, problem: str, row: str | int | None = None) -> None:
        self.source = source
        self.row = row
        where = source if row is None else f"{source}, row {row}"
        super().__init__(f"{where}: {problem}")


class GameError(VedetteError):
    """A game that does not exist, already exists, or changed under us."""
