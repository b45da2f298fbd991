"""Helpers of the mock provider tests: the example module's schema, a servicer to call without gRPC, leak accounting."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "mock_module"
CLOUD_SCHEMA = EXAMPLE / "cloud.schema.json"
CLOUD = "registry.terraform.io/acme/cloud"
NULL_SCHEMA = Path(__file__).resolve().parent / "null_2.1.2.schema.json"
SECRET = "mock-planted-secret-7741"

sys.path.insert(0, str(ROOT / "tests" / "providers"))
from provider_support import children, leak_check  # noqa: E402

__all__ = ["CLOUD", "CLOUD_SCHEMA", "EXAMPLE", "NULL_SCHEMA", "OFFLINE", "SECRET", "Direct", "children",
           "cloud_document", "leak_check", "offline_runner", "write_tree"]

#: Proxies that refuse every connection: a mocked case must never reach a registry.
OFFLINE = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}


def offline_runner(tf_acceptance: Any) -> Any:
    """A runner like the ``tf_acceptance`` fixture's, in its work directory, with no network and a 120 s timeout."""
    from plancheck.acceptance import AcceptanceRunner

    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, env=OFFLINE)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write each ``files`` entry (a path relative to ``root``: its text) and return ``root``."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def cloud_document() -> dict[str, Any]:
    """A fresh copy of the example module's schema document."""
    return json.loads(CLOUD_SCHEMA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


class Direct:
    """A mock's servicer called directly with protocol messages (what Terraform sends), no socket."""

    def __init__(self, mock: Any) -> None:
        pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
        import msgpack

        from plancheck._terraform.providers.server import load_grpc

        self.msgpack = msgpack
        self.modules = load_grpc()
        self.pb = self.modules.pb
        self.servicer = mock().plancheck_servicer(self.modules)
        self.unknown = msgpack.ExtType(0, b"\x00")

    def dv(self, value: Any) -> Any:
        return self.pb.DynamicValue(msgpack=self.msgpack.packb(value, use_bin_type=True))

    def value(self, dynamic: Any) -> Any:
        return self.msgpack.unpackb(dynamic.msgpack, raw=False) if dynamic.msgpack else None

    def plan(self, type_name: str, prior: Any, proposed: Any, config: Any = None, prior_private: bytes = b"") -> Any:
        request = self.pb.PlanResourceChange.Request(
            type_name=type_name, prior_state=self.dv(prior), proposed_new_state=self.dv(proposed),
            config=self.dv(proposed if config is None else config), prior_private=prior_private,
        )
        return self.servicer.PlanResourceChange(request, None)

    def apply(self, type_name: str, prior: Any, planned: Any, config: Any = None, planned_private: bytes = b"") -> Any:
        request = self.pb.ApplyResourceChange.Request(
            type_name=type_name, prior_state=self.dv(prior), planned_state=self.dv(planned),
            config=self.dv(planned if config is None else config), planned_private=planned_private,
        )
        return self.servicer.ApplyResourceChange(request, None)

    def create(self, type_name: str, config: Any) -> Any:
        """Plan then apply a create; the new state."""
        return self.create_object(type_name, config)[0]

    def create_object(self, type_name: str, config: Any) -> tuple[Any, bytes]:
        """Plan then apply a create; the new state and the private data Terraform would store with it."""
        planned = self.value(self.plan(type_name, None, config).planned_state)
        response = self.apply(type_name, None, planned, config)
        return self.value(response.new_state), response.private

    def read(self, type_name: str, state: Any, private: bytes = b"") -> tuple[Any, bytes]:
        """ReadResource (a refresh): the new state and private data."""
        request = self.pb.ReadResource.Request(type_name=type_name, current_state=self.dv(state), private=private)
        response = self.servicer.ReadResource(request, None)
        return self.value(response.new_state), response.private

    def import_(self, type_name: str, import_id: str) -> Any:
        """ImportResourceState's response."""
        request = self.pb.ImportResourceState.Request(type_name=type_name, id=import_id)
        return self.servicer.ImportResourceState(request, None)

    def read_data(self, type_name: str, config: Any) -> Any:
        """ReadDataSource: the state read."""
        request = self.pb.ReadDataSource.Request(type_name=type_name, config=self.dv(config))
        return self.value(self.servicer.ReadDataSource(request, None).state)
