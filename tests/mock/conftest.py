"""Fixtures of the mock provider tests (see mock_support)."""

from mock_support import private_tmp

__all__ = ["private_tmp"]
