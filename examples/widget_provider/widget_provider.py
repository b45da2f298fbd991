"""An example Terraform provider written with the ``tf`` framework: ``example.com/acme/widget``.

It manages "widgets" kept by a :class:`WidgetStore`, a thread-safe in-memory stand-in for a
cloud API, one per provider instance: the acceptance runner calls the factory once per test
case, so a case sees its own widgets from the first step to the final ``destroy``, refresh and
import included, and a test can change the store between steps to simulate drift.

* resource ``widget_thing``: ``id`` (computed), ``name`` (required; changing it forces
  replacement), ``description``, ``size`` and ``tags`` (updated in place), ``secret``
  (sensitive), ``revision`` (computed; unknown in a plan that updates the widget); importable
  by id. Its schema is at version 1: version 0 called ``description`` ``label``, and
  :meth:`WidgetThing.upgrade` moves it (tests/providers start a case from a recorded
  version-0 state to prove it);
* data source ``widget_lookup``: reads a widget by ``id``;
* provider configuration: ``id_prefix`` (default ``w-``).

Run it for Terraform by hand with ``python widget_provider.py --dev`` (tf's debug mode: it
prints the ``TF_REATTACH_PROVIDERS`` to export).
"""

from __future__ import annotations

import copy
import itertools
import re
import sys
import threading
from typing import Any

from tf import schema, types
from tf.iface import (
    Config,
    CreateContext,
    DataSource,
    DeleteContext,
    ImportContext,
    PlanContext,
    Provider,
    ReadContext,
    ReadDataContext,
    Resource,
    State,
    UpdateContext,
    UpgradeContext,
)
from tf.types import Unknown
from tf.utils import Diagnostics

ADDRESS = "example.com/acme/widget"
DEFAULT_PREFIX = "w-"
#: The attributes a user sets; the others (id, revision) the provider computes.
SETTABLE = ("name", "description", "size", "secret", "tags")
_PREFIX = re.compile(r"[a-z][a-z0-9-]{0,15}\Z")


class WidgetStore:
    """The "remote API": widgets by id, safe to use from Terraform's concurrent calls."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._widgets: dict[str, dict[str, Any]] = {}
        self._serial = itertools.count(1)

    def create(self, prefix: str, fields: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            widget_id = f"{prefix}{next(self._serial):04d}"
            widget = {**{k: fields.get(k) for k in SETTABLE}, "id": widget_id, "revision": 1}
            self._widgets[widget_id] = widget
            return copy.deepcopy(widget)

    def get(self, widget_id: str) -> dict[str, Any] | None:
        with self._lock:
            widget = self._widgets.get(widget_id)
            return copy.deepcopy(widget) if widget is not None else None

    def update(self, widget_id: str, fields: dict[str, Any]) -> dict[str, Any] | None:
        with self._lock:
            widget = self._widgets.get(widget_id)
            if widget is None:
                return None
            widget.update({k: fields.get(k) for k in SETTABLE})
            widget["revision"] += 1
            return copy.deepcopy(widget)

    def delete(self, widget_id: str) -> bool:
        with self._lock:
            return self._widgets.pop(widget_id, None) is not None

    def ids(self) -> list[str]:
        with self._lock:
            return sorted(self._widgets)


class WidgetProvider(Provider):
    """The provider: its class is the factory ``TestCase(providers={ADDRESS: WidgetProvider})`` takes."""

    def __init__(self, store: WidgetStore | None = None) -> None:
        self.store = store if store is not None else WidgetStore()
        self.id_prefix = DEFAULT_PREFIX

    def full_name(self) -> str:
        return ADDRESS

    def get_model_prefix(self) -> str:
        return "widget_"

    def get_provider_schema(self, diags: Diagnostics) -> schema.Schema:
        return schema.Schema(
            attributes=[schema.Attribute("id_prefix", types.String(), optional=True, description="Prefix of new ids")]
        )

    def validate_config(self, diags: Diagnostics, config: Config) -> None:
        prefix = config.get("id_prefix")
        if isinstance(prefix, str) and not _PREFIX.match(prefix):
            diags.add_error("Invalid id_prefix", f"{prefix!r} must be 1-16 lowercase letters, digits or dashes", path=["id_prefix"])

    def configure_provider(self, diags: Diagnostics, config: Config) -> None:
        # Terraform configures the provider several times per command: this must be idempotent.
        prefix = config.get("id_prefix")
        self.id_prefix = prefix if isinstance(prefix, str) else DEFAULT_PREFIX

    def get_data_sources(self) -> list[type[DataSource]]:
        return [WidgetLookup]

    def get_resources(self) -> list[type[Resource]]:
        return [WidgetThing]


def _state(widget: dict[str, Any]) -> State:
    return {key: widget.get(key) for key in ("id", *SETTABLE, "revision")}


class WidgetThing(Resource):
    """Resource ``widget_thing``."""

    def __init__(self, provider: WidgetProvider) -> None:
        self.provider = provider

    @classmethod
    def get_name(cls) -> str:
        return "thing"

    #: Version 1 renamed ``label`` (version 0) to ``description``.
    SCHEMA_VERSION = 1

    @classmethod
    def get_schema(cls) -> schema.Schema:
        return schema.Schema(
            version=cls.SCHEMA_VERSION,
            attributes=[
                schema.Attribute("id", types.String(), computed=True, description="Assigned by the API"),
                schema.Attribute("name", types.String(), required=True, requires_replace=True),
                schema.Attribute("description", types.String(), optional=True),
                schema.Attribute("size", types.Number(), optional=True),
                schema.Attribute("secret", types.String(), optional=True, sensitive=True),
                schema.Attribute("tags", types.Map(types.String()), optional=True),
                schema.Attribute("revision", types.Number(), computed=True, description="Bumped by every update"),
            ]
        )

    def plan(self, ctx: PlanContext, current: State | None, planned: State) -> State:
        if ctx.changed_fields & set(SETTABLE):
            planned["revision"] = Unknown  # the API bumps it: known only after apply
        return planned

    def create(self, ctx: CreateContext, planned: State) -> State:
        return _state(self.provider.store.create(self.provider.id_prefix, planned))

    def read(self, ctx: ReadContext, current: State) -> State | None:
        widget = self.provider.store.get(current["id"])
        return _state(widget) if widget is not None else None  # None: gone, Terraform plans to create it again

    def update(self, ctx: UpdateContext, current: State, planned: State) -> State | None:
        widget = self.provider.store.update(current["id"], planned)
        if widget is None:
            ctx.diagnostics.add_error(f"Widget {current['id']} no longer exists")
            return None
        return _state(widget)

    def delete(self, ctx: DeleteContext, current: State) -> None:
        self.provider.store.delete(current["id"])

    def upgrade(self, ctx: UpgradeContext, version: int, old: State) -> State | None:
        """A state an older version of the provider wrote, in today's schema."""
        state = dict(old)
        if version < 1:
            state["description"] = state.pop("label", None)
        return state

    def import_(self, ctx: ImportContext, widget_id: str) -> State | None:
        widget = self.provider.store.get(widget_id)
        if widget is None:
            ctx.diagnostics.add_error(f"Cannot import widget {widget_id!r}: no such widget")
            return None
        return _state(widget)


class WidgetLookup(DataSource):
    """Data source ``widget_lookup``."""

    def __init__(self, provider: WidgetProvider) -> None:
        self.provider = provider

    @classmethod
    def get_name(cls) -> str:
        return "lookup"

    @classmethod
    def get_schema(cls) -> schema.Schema:
        return schema.Schema(
            attributes=[
                schema.Attribute("id", types.String(), required=True),
                schema.Attribute("name", types.String(), computed=True),
                schema.Attribute("description", types.String(), computed=True),
                schema.Attribute("size", types.Number(), computed=True),
                schema.Attribute("tags", types.Map(types.String()), computed=True),
            ]
        )

    def read(self, ctx: ReadDataContext, config: Config) -> State | None:
        widget = self.provider.store.get(config["id"])
        if widget is None:
            ctx.diagnostics.add_error(f"No widget with id {config['id']!r}")
            return None
        return {key: widget.get(key) for key in ("id", "name", "description", "size", "tags")}


if __name__ == "__main__":
    from tf.runner import run_provider

    run_provider(WidgetProvider(), sys.argv)
