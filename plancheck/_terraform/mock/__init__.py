"""Mock providers built from a provider schema, served in the test process (no cloud, no credentials).

>>> from plancheck._terraform.mock import MockProvider
>>> MockProvider({"resource_schemas": {}}, "acme/cloud").address
'registry.terraform.io/acme/cloud'
"""

from ._errors import MockSchemaError
from ._provider import MockCall, MockProvider
from ._values import UNKNOWN

__all__ = ["MockCall", "MockProvider", "MockSchemaError", "UNKNOWN"]
