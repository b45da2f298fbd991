"""Maintenance scripts and the helpers of `make demo` and the test suite; not part of the shipped package."""
