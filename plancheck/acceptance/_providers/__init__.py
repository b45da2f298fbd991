"""The providers under test: served in the test process, reattached, or installed from a local directory.

Importing this package is cheap: ``tf`` and ``grpc`` (the ``providers`` extra) are imported
only when a server starts.

>>> from plancheck.acceptance._providers import normalize_providers
>>> normalize_providers({"example.com/acme/widget": dict}, "TestCase.providers")
ProviderSet(['example.com/acme/widget (factory dict)'])
"""

from ._errors import EXTRA_HINT, ProviderServerError, ProvidersNotInstalledError
from ._factory import (
    ExternalProviders,
    ProviderEntry,
    ProviderFactory,
    ProviderSet,
    ReattachProvider,
    normalize_providers,
)
from ._reattach import REATTACH_ENV, ReattachConfig, normalize_address, reattach_json
from ._serve import ProviderCallError, ProviderServer, Sentinel, load_grpc

__all__ = [
    "EXTRA_HINT",
    "REATTACH_ENV",
    "ExternalProviders",
    "ProviderCallError",
    "ProviderEntry",
    "ProviderFactory",
    "ProviderServer",
    "ProviderServerError",
    "ProviderSet",
    "ProvidersNotInstalledError",
    "ReattachConfig",
    "ReattachProvider",
    "Sentinel",
    "load_grpc",
    "normalize_address",
    "normalize_providers",
    "reattach_json",
]
