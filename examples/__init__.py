"""Worked examples run by the test suite (docs/architecture.md walks through ``examples.toy``)."""
