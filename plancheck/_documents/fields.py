"""The identity fields shared by a plan's resource changes and a state's resources."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ResourceFields"]


class ResourceFields:
    """Read-only ``mode``/``type``/``name``/``index``/``provider_name`` over a ``raw`` JSON object.

    Both Terraform's plan (``resource_changes``) and state (``resources``) write these the same way.

    >>> class R(ResourceFields):
    ...     __slots__ = ("raw",)
    ...     def __init__(self, raw): self.raw = raw
    >>> R({"mode": "managed", "type": "null_resource", "name": "a", "index": 0}).index
    0
    """

    __slots__ = ()
    raw: Mapping[str, Any]

    @property
    def mode(self) -> str | None:
        """``managed`` or ``data``."""
        return self.raw.get("mode")

    @property
    def type(self) -> str | None:
        """The resource type, e.g. ``null_resource``."""
        return self.raw.get("type")

    @property
    def name(self) -> str | None:
        """The resource name, e.g. ``a``."""
        return self.raw.get("name")

    @property
    def index(self) -> Any:
        """The count index (int) or for_each key (str), or None."""
        return self.raw.get("index")

    @property
    def provider_name(self) -> str | None:
        """The provider address, e.g. ``registry.terraform.io/hashicorp/null``."""
        return self.raw.get("provider_name")
