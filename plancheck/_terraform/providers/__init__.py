"""The providers under test: served in the test process, reattached, or installed from a local directory.

Importing this package is cheap: ``tf`` and ``grpc`` (the ``providers`` extra) are imported
only when a server starts.

>>> from plancheck._terraform.providers import normalize_providers
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
from ._passes import MAX_PLAN_PASSES, PLAN_HOOK, PLANNING_HOOK, PlanNotSettled, settled_plan, tell_plan
from ._reattach import REATTACH_ENV, ReattachConfig, normalize_address, provider_type, reattach_json
from ._recorded import DiagnosticRecorder, ProviderDiagnostic
from ._serve import (
    DEFAULT_STOP_TIMEOUT,
    SERVICER_HOOK,
    ProviderCallError,
    ProviderServer,
    Sentinel,
    load_grpc,
    short_temp_dir,
)

__all__ = [
    "DEFAULT_STOP_TIMEOUT",
    "EXTRA_HINT",
    "MAX_PLAN_PASSES",
    "PLANNING_HOOK",
    "PLAN_HOOK",
    "REATTACH_ENV",
    "SERVICER_HOOK",
    "DiagnosticRecorder",
    "ExternalProviders",
    "ProviderCallError",
    "ProviderDiagnostic",
    "ProviderEntry",
    "ProviderFactory",
    "ProviderServer",
    "ProviderServerError",
    "PlanNotSettled",
    "ProviderSet",
    "ProvidersNotInstalledError",
    "ReattachConfig",
    "ReattachProvider",
    "Sentinel",
    "load_grpc",
    "normalize_address",
    "normalize_providers",
    "provider_type",
    "reattach_json",
    "settled_plan",
    "short_temp_dir",
    "tell_plan",
]
