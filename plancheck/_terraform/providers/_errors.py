"""Errors of the providers under test: a provider that cannot be served, a missing optional extra."""

from __future__ import annotations

from typing import Final

from ..._errors import TfCheckError
from ..._frozen import public

__all__ = ["EXTRA_HINT", "ProviderServerError", "ProvidersNotInstalledError"]

#: What to install to serve ``tf`` providers in the test process.
EXTRA_HINT: Final = "pip install 'tfplancheck[providers]'"


@public("plancheck.acceptance")
class ProviderServerError(TfCheckError, RuntimeError):
    """A provider under test could not be started, served or stopped cleanly.

    ``address`` is the provider's address (``example.com/acme/widget``), ``problem`` what went wrong.

    >>> err = ProviderServerError("example.com/acme/widget", "the factory raised ValueError: no token")
    >>> print(err)
    provider example.com/acme/widget: the factory raised ValueError: no token
    >>> isinstance(err, RuntimeError), err.address
    (True, 'example.com/acme/widget')
    """

    def __init__(self, address: str, problem: str) -> None:
        self.address = address
        self.problem = problem
        super().__init__(f"provider {address}: {problem}")


@public("plancheck.acceptance")
class ProvidersNotInstalledError(TfCheckError, ImportError):
    """Serving a provider in the test process needs the optional ``providers`` extra (``tf`` and ``grpcio``).

    >>> err = ProvidersNotInstalledError("No module named 'grpc'")
    >>> print(err)
    serving a provider under test needs the tf framework and grpcio: install tfplancheck[providers] (pip install 'tfplancheck[providers]'); No module named 'grpc'
    >>> isinstance(err, ImportError)
    True
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(
            "serving a provider under test needs the tf framework and grpcio: "
            f"install tfplancheck[providers] ({EXTRA_HINT}); {reason}"
        )
