"""The example widget provider with diagnostics to expect: a deprecated attribute, validation errors, an echoed secret.

A subclass for the tests only (the example stays as its README shows it). ``widget_thing`` gains
``color``, a deprecated attribute kept beside the widget by the provider, and its validation:

* ``color`` set: warning "Attribute deprecated" at ``color``;
* ``size`` below zero: error "Invalid size" at ``size``;
* a ``tags`` key with a space: error "Invalid tag key" at ``tags["the key"]``;
* ``secret`` starting with ``weak-``: warning "Weak secret" at ``secret`` whose detail quotes the
  secret (the provider echoing a sensitive value, as real providers do);
* ``description = "refuse"``: the create fails with error "Create refused" at ``description``.
"""

from __future__ import annotations

from typing import Any

import pytest
from provider_support import example_module

# Imported by its test module and collected for doctests: both skip, not fail, without the providers extra.
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

from tf import schema, types
from tf.types import Unknown

widget = example_module()


class DiagnosticWidgetThing(widget.WidgetThing):
    @classmethod
    def get_schema(cls) -> schema.Schema:
        base = widget.WidgetThing.get_schema()
        color = schema.Attribute("color", types.String(), optional=True, deprecated=True)
        return schema.Schema(version=base.version, attributes=[*base.attributes, color])

    def validate(self, diags: Any, type_name: str, config: Any) -> None:
        super().validate(diags, type_name, config)
        if config.get("color") is not None:
            diags.add_warning("Attribute deprecated", "color is deprecated: use tags instead", path=["color"])
        size = config.get("size")
        if isinstance(size, (int, float)) and size < 0:
            diags.add_error("Invalid size", f"size must be zero or more, got {size}", path=["size"])
        for key in config.get("tags") or {}:
            if " " in key:
                diags.add_error("Invalid tag key", f"tag keys have no spaces: {key!r}", path=["tags", (key,)])
        secret = config.get("secret")
        if isinstance(secret, str) and secret.startswith("weak-"):
            diags.add_warning("Weak secret", f"the secret {secret!r} is weak", path=["secret"])

    def plan(self, ctx: Any, current: Any, planned: Any) -> Any:
        planned = super().plan(ctx, current, planned)
        if "color" in ctx.changed_fields:
            planned["revision"] = Unknown  # an update bumps it
        return planned

    def _with_color(self, state: Any, color: Any) -> Any:
        if state is None:
            return None
        self.provider.colors[state["id"]] = color
        return {**state, "color": color}

    def create(self, ctx: Any, planned: Any) -> Any:
        if planned.get("description") == "refuse":
            ctx.diagnostics.add_error("Create refused", "the API refuses this description", path=["description"])
            return None
        return self._with_color(super().create(ctx, planned), planned.get("color"))

    def read(self, ctx: Any, current: Any) -> Any:
        state = super().read(ctx, current)
        return None if state is None else {**state, "color": self.provider.colors.get(state["id"])}

    def update(self, ctx: Any, current: Any, planned: Any) -> Any:
        return self._with_color(super().update(ctx, current, planned), planned.get("color"))

    def import_(self, ctx: Any, widget_id: str) -> Any:
        state = super().import_(ctx, widget_id)
        return None if state is None else {**state, "color": self.provider.colors.get(widget_id)}


class DiagnosticWidgetProvider(widget.WidgetProvider):
    def __init__(self, store: Any = None) -> None:
        super().__init__(store)
        self.colors: dict[str, Any] = {}

    def get_resources(self) -> list[type[Any]]:
        return [DiagnosticWidgetThing]
