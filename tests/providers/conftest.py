"""Fixtures of the provider tests (see provider_support)."""

from provider_support import private_tmp

__all__ = ["private_tmp"]
