"""Benchmarks: each prints its own figures and ratios against a named baseline measured in the
same run. They are not tests and never fail on timing."""
