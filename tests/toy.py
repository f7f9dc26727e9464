"""The toy ruleset (``examples/toy``, the worked example of docs/architecture.md) registered for
the tests: a ruleset plays by its package plus this one registry line."""

from __future__ import annotations

from vedette import rules

rules.register("toy", "examples.toy")
