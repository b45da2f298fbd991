"""Mock providers built from a provider schema, served in the test process (no cloud, no credentials).

>>> from plancheck._terraform.mock import MockProvider
>>> MockProvider({"resource_schemas": {}}, "acme/cloud").address
'registry.terraform.io/acme/cloud'
"""

from .provider import MockCall, MockProvider
from .schema import MockSchemaError
from .values import UNKNOWN

__all__ = ["UNKNOWN", "MockCall", "MockProvider", "MockSchemaError"]
