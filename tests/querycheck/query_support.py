"""Query output documents for the querycheck tests, written in the shape Terraform 1.14+ gives them.

No Terraform 1.14 is installed here, so these JSON lines are built by hand after Terraform's
own tests of ``terraform query -json`` (``internal/command/query_test.go``: a ``test_instance``
list block with ``ami``/``id`` resource objects and a sensitive variable in the input config;
``internal/cloud/testdata/query-json-basic``: a ``concept_pet`` list block whose identities have
``id`` and ``legs``) and terraform-json's ``logging_query.go`` types. Values and names are our own.
"""

from __future__ import annotations

import json
from typing import Any

VERSION = {"@level": "info", "@message": "Terraform 1.14.0", "@module": "terraform.ui",
           "@timestamp": "2026-11-20T10:00:00.000000Z", "terraform": "1.14.0", "type": "version", "ui": "1.2"}


def start(address: str, resource_type: str, config: dict[str, Any] | None = None,
          sensitive: list[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"address": address, "resource_type": resource_type}
    if config is not None:
        body["input_config"] = config
    if sensitive:
        body["sensitive_attribute_paths"] = sensitive
    return {"@level": "info", "@message": f"{address}: Starting query...", "@module": "terraform.ui",
            "@timestamp": "2026-11-20T10:00:00.100000Z", "list_start": body, "type": "list_start"}


def found(address: str, resource_type: str, display_name: str, identity: dict[str, Any],
          resource_object: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"address": address, "display_name": display_name, "identity": identity,
                            "identity_version": 1, "resource_type": resource_type, **extra}
    if resource_object is not None:
        body["resource_object"] = resource_object
    return {"@level": "info", "@message": f"{address}: Result found", "@module": "terraform.ui",
            "@timestamp": "2026-11-20T10:00:00.200000Z", "list_resource_found": body, "type": "list_resource_found"}


def complete(address: str, resource_type: str, total: int) -> dict[str, Any]:
    return {"@level": "info", "@message": f"{address}: List complete", "@module": "terraform.ui",
            "@timestamp": "2026-11-20T10:00:00.300000Z",
            "list_complete": {"address": address, "resource_type": resource_type, "total": total},
            "type": "list_complete"}


PETS = [
    ("fluffy-otter", 4), ("brave-heron", 2), ("quiet-newt", 4),
]

#: Two list blocks: pets with identities only, instances with resource objects and a sensitive input.
MESSAGES: list[dict[str, Any]] = [
    VERSION,
    start("list.concept_pet.pets", "concept_pet"),
    *[found("list.concept_pet.pets", "concept_pet", f"This is a {name}", {"id": name, "legs": legs})
      for name, legs in PETS],
    complete("list.concept_pet.pets", "concept_pet", len(PETS)),
    start("list.concept_pet.more_pets", "concept_pet"),
    found("list.concept_pet.more_pets", "concept_pet", "This is a calm-ibis", {"id": "calm-ibis", "legs": 2}),
    complete("list.concept_pet.more_pets", "concept_pet", 1),
    start("list.test_instance.example", "test_instance", {"ami": "ami-12345", "foo": "tok-83kq9"}, [".foo"]),
    found("list.test_instance.example", "test_instance", "Test Instance 1", {"id": "test-instance-1"},
          {"ami": "ami-12345", "id": "test-instance-1", "tags": {"team": "tok-83kq9"}, "size": 1.5}),
    found("list.test_instance.example", "test_instance", "Test Instance 2", {"id": "test-instance-2"},
          {"ami": "ami-67890", "id": "test-instance-2", "tags": {}, "size": 2}),
    complete("list.test_instance.example", "test_instance", 2),
    start("list.test_instance.bare", "test_instance", {"ami": "ami-0"}),
    found("list.test_instance.bare", "test_instance", "Bare 1", {"id": "bare-1"}),
    complete("list.test_instance.bare", "test_instance", 1),
    start("list.test_instance.none", "test_instance", {"ami": "ami-nonexistent"}),
    complete("list.test_instance.none", "test_instance", 0),
]


def jsonl(messages: list[dict[str, Any]]) -> bytes:
    """The messages as ``terraform query -json`` prints them: one compact JSON object per line."""
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in messages).encode()

