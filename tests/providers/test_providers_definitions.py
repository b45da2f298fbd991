"""Naming the providers under test: addresses, reattach configs, providers=, ExternalProviders, generated config.

Nothing here needs the providers extra (tf, grpcio) or a Terraform binary.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck._terraform.providers.factory import normalize_address, normalize_providers, reattach_json
from plancheck._terraform.providers.server import load_grpc
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ExternalProviders,
    ProvidersNotInstalledError,
    ReattachConfig,
    ReattachProvider,
    TerraformBinary,
    TestCase,
    TestDefinitionError,
    TestStep,
)
from plancheck.acceptance._workplace import ProviderSession, _cli_config

WIDGET = "example.com/acme/widget"


def widget_factory() -> object:
    return object()


# -- addresses ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("given_address", "expected"),
    [
        ("widget", "registry.terraform.io/hashicorp/widget"),
        ("acme/widget", "registry.terraform.io/acme/widget"),
        ("example.com/acme/widget", "example.com/acme/widget"),
        ("Example.COM/Acme/Widget", "example.com/acme/widget"),
        (" example.com:8443/acme/my-widget ", "example.com:8443/acme/my-widget"),
    ],
    ids=["type-only", "namespace-type", "full", "case-folded", "host-port-dash"],
)
def test_normalize_address(given_address: str, expected: str) -> None:
    assert normalize_address(given_address, "p") == expected


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "p: '' is not a provider address (host/namespace/type, namespace/type or type)"),
        ("a/b/c/d", "p: 'a/b/c/d' is not a provider address (host/namespace/type, namespace/type or type)"),
        ("acme/wid get", "p: 'acme/wid get' is not a provider address (host/namespace/type, namespace/type or type)"),
        ("acme/-w", "p: 'acme/-w' is not a provider address (host/namespace/type, namespace/type or type)"),
        ("acme/terraform-provider-w", "p: 'acme/terraform-provider-w': the type is 'w', without the terraform-provider- prefix"),
        (42, "p: a provider address must be a str, got int"),
    ],
    ids=["empty", "four-parts", "space", "leading-dash", "binary-prefix", "not-str"],
)
def test_normalize_address_rejects(bad: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        normalize_address(bad, "p")
    assert str(info.value) == message


# -- reattach configuration --------------------------------------------------------------------

def test_reattach_json_is_what_terraform_reads() -> None:
    text = reattach_json({
        WIDGET: (ReattachConfig("/tmp/tfpc-x/widget.sock"), 4321),
        "registry.terraform.io/acme/gadget": (ReattachConfig("127.0.0.1:7000", network="tcp", protocol_version=5), 99),
    })
    assert json.loads(text) == {
        "example.com/acme/widget": {
            "Protocol": "grpc", "ProtocolVersion": 6, "Pid": 4321, "Test": True,
            "Addr": {"Network": "unix", "String": "/tmp/tfpc-x/widget.sock"},
        },
        "registry.terraform.io/acme/gadget": {
            "Protocol": "grpc", "ProtocolVersion": 5, "Pid": 99, "Test": True,
            "Addr": {"Network": "tcp", "String": "127.0.0.1:7000"},
        },
    }
    assert list(json.loads(text)) == sorted(json.loads(text))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"addr": "/s", "pid": os.getpid()}, "ReattachConfig.pid: is this test process's own pid, which Terraform SIGKILLs when it cannot reach the socket; give the server process's pid, or None for a sentinel process"),
        ({"addr": "/s", "pid": os.getppid()}, "ReattachConfig.pid: is the parent of this test process's pid, which Terraform SIGKILLs when it cannot reach the socket; give the server process's pid, or None for a sentinel process"),
        ({"addr": "/s", "pid": 1}, "ReattachConfig.pid: expected a process id above 1 or None, got 1"),
        ({"addr": "/s", "pid": True}, "ReattachConfig.pid: expected a process id above 1 or None, got True"),
        ({"addr": ""}, "ReattachConfig.addr: expected a socket path or host:port, got ''"),
        ({"addr": "/s", "network": "udp"}, "ReattachConfig.network: expected 'unix' or 'tcp', got 'udp'"),
        ({"addr": "/s", "protocol_version": 4}, "ReattachConfig.protocol_version: expected 5 or 6, got 4"),
    ],
    ids=["own-pid", "parent-pid", "init-pid", "bool-pid", "no-addr", "bad-network", "protocol-4"],
)
def test_reattach_config_rejects(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        ReattachConfig(**kwargs)
    assert str(info.value) == message


INNER = {"Protocol": "grpc", "ProtocolVersion": 5, "Pid": 5150, "Test": True, "Addr": {"Network": "unix", "String": "/tmp/p1"}}


@pytest.mark.parametrize(
    ("value", "address"),
    [
        (INNER, None),
        ({"registry.terraform.io/acme/gadget": INNER}, None),
        ({"acme/gadget": INNER, "registry.terraform.io/acme/other": {}}, "registry.terraform.io/acme/gadget"),
        ({k: v for k, v in INNER.items() if k != "Protocol"}, None),
    ],
    ids=["inner-object", "whole-mapping-one-entry", "whole-mapping-by-address", "protocol-defaults-to-grpc"],
)
def test_reattach_config_from_json(value: dict[str, Any], address: str | None) -> None:
    assert ReattachConfig.from_json(value, "start()", address) == ReattachConfig("/tmp/p1", pid=5150, protocol_version=5)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{}", "start(): expected a reattach config (a mapping), got str"),
        ({"a": INNER, "b": INNER}, 'start(): expected a reattach object with "Addr", or a mapping with a single entry; keys: a, b'),
        ({"x": 3}, "start(): the entry for 'x' is a int, not an object"),
        ({**INNER, "Protocol": "netrpc"}, "start(): \"Protocol\" must be \"grpc\" (Terraform reattaches over gRPC only), got 'netrpc'"),
        ({**INNER, "Addr": "/tmp/p1"}, 'start(): "Addr" must be an object with "Network" and "String"'),
        ({k: v for k, v in INNER.items() if k != "ProtocolVersion"}, 'start(): "ProtocolVersion" is missing (5 or 6)'),
    ],
    ids=["not-mapping", "two-entries", "entry-not-object", "netrpc", "addr-not-object", "no-protocol-version"],
)
def test_reattach_config_from_json_rejects(value: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        ReattachConfig.from_json(value, "start()")
    assert str(info.value) == message


@settings(max_examples=60, deadline=None)
@given(
    addr=st.text(alphabet="abc/._-019", min_size=1, max_size=40),
    pid=st.integers(min_value=2, max_value=2**22).filter(lambda p: p not in (os.getpid(), os.getppid())),
    network=st.sampled_from(["unix", "tcp"]),
    version=st.sampled_from([5, 6]),
)
def test_reattach_json_round_trips(addr: str, pid: int, network: str, version: int) -> None:
    config = ReattachConfig(addr, pid=pid, network=network, protocol_version=version)
    parsed = json.loads(reattach_json({WIDGET: (config, pid)}))
    assert ReattachConfig.from_json(parsed, "env", WIDGET) == config


# -- providers= --------------------------------------------------------------------------------

def start_nothing(directory: Path) -> ReattachConfig:
    return ReattachConfig(f"{directory}/g.sock")


GADGET = ReattachProvider("example.com/acme/gadget", start=start_nothing)
NULL_MIRROR = ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/opt/mirror")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ({}, None),
        ({WIDGET: widget_factory}, [f"{WIDGET} (factory widget_factory)"]),
        ({"acme/widget": dict}, ["registry.terraform.io/acme/widget (factory dict)"]),
        (GADGET, ["example.com/acme/gadget (reattach)"]),
        ({"example.com/acme/gadget": GADGET}, ["example.com/acme/gadget (reattach)"]),
        (NULL_MIRROR, ["registry.terraform.io/hashicorp/null 2.1.2 (external)"]),
        ([NULL_MIRROR, GADGET, {WIDGET: dict}], [
            "example.com/acme/gadget (reattach)", f"{WIDGET} (factory dict)", "registry.terraform.io/hashicorp/null 2.1.2 (external)",
        ]),
    ],
    ids=["none", "empty", "factory", "short-address", "reattach", "reattach-keyed", "external", "list-sorted"],
)
def test_normalize_providers(value: Any, expected: list[str] | None) -> None:
    result = normalize_providers(value, "TestCase.providers")
    if expected is None:
        assert result is None
    else:
        assert repr(result) == f"ProviderSet({expected!r})"


class NotAFactory:
    pass


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({WIDGET: NotAFactory()}, f'TestCase.providers["{WIDGET}"]: expected a provider factory (a function or class returning a tf provider), got a NotAFactory instance'),
        ({"hashicorp/null": "2.1.2"}, "TestCase.providers[\"hashicorp/null\"]: '2.1.2' is not a provider factory; for a released provider use ExternalProviders({...: '2.1.2'}, mirror=...)"),
        ({"example.com/acme/other": GADGET}, 'TestCase.providers["example.com/acme/other"]: the key says example.com/acme/other but the ReattachProvider serves example.com/acme/gadget'),
        ({"hashicorp/null": NULL_MIRROR}, 'TestCase.providers["hashicorp/null"]: give ExternalProviders(...) itself (or in a list), not as a mapping value'),
        ([{"hashicorp/null": dict}, NULL_MIRROR], "TestCase.providers[1]: registry.terraform.io/hashicorp/null is given twice"),
        ([{WIDGET: dict}, 3], "TestCase.providers[1]: expected {address: factory}, a ReattachProvider or an ExternalProviders, got int"),
        ("example.com/acme/widget", "TestCase.providers: expected {address: factory}, a ReattachProvider, an ExternalProviders, or a list of them; got str"),
        ({"a/b/c/d": dict}, "TestCase.providers: 'a/b/c/d' is not a provider address (host/namespace/type, namespace/type or type)"),
    ],
    ids=["instance", "version-string", "reattach-key-mismatch", "external-as-value", "duplicate", "bad-item", "str", "bad-address"],
)
def test_normalize_providers_rejects(value: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        normalize_providers(value, "TestCase.providers")
    assert str(info.value) == message


def test_reattach_provider_rejects_bad_stop() -> None:
    with pytest.raises(TestDefinitionError) as info:
        ReattachProvider(WIDGET, start=start_nothing, stop="kill")  # type: ignore[arg-type]
    assert str(info.value) == "ReattachProvider.stop: expected a function (config) -> None, got str"


def test_case_and_step_providers_are_exclusive() -> None:
    with pytest.raises(TestDefinitionError) as info:
        TestCase(providers={WIDGET: dict}, steps=[TestStep(config=""), TestStep(config="", providers={WIDGET: dict})])
    assert str(info.value) == (
        "TestCase.steps[1].providers: the case already gives providers; give them either on the TestCase or on its steps"
    )


def test_steps_compare_and_hash_with_their_providers() -> None:
    a = TestStep(config="x", providers={WIDGET: dict})
    b = TestStep(config="x", providers={"example.com/ACME/widget": dict})
    c = TestStep(config="x", providers={WIDGET: list})
    assert a == b
    assert hash(a) == hash(b)
    assert a != c
    assert a != TestStep(config="x")


def test_the_user_mapping_is_not_kept_or_changed() -> None:
    given_providers = {WIDGET: dict}
    case = TestCase(steps=[TestStep(config="")], providers=given_providers)
    given_providers[WIDGET] = list
    assert [e.source for e in case.providers] == [dict]


# -- ExternalProviders ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ({}, {"mirror": "/m"}, "ExternalProviders.versions: expected a non-empty dict of address -> version, got {}"),
        ({"hashicorp/null": "2.1.2"}, {}, "ExternalProviders: give exactly one of mirror= or dev_overrides="),
        ({"hashicorp/null": "2.1.2"}, {"mirror": "/m", "dev_overrides": "/b"}, "ExternalProviders: give exactly one of mirror= or dev_overrides="),
        ({"hashicorp/null": 2}, {"mirror": "/m"}, 'ExternalProviders.versions["hashicorp/null"]: expected a version constraint (str), got int'),
        ({"null": "1.0.0", "hashicorp/null": "1.0.0"}, {"mirror": "/m"}, 'ExternalProviders.versions["hashicorp/null"]: registry.terraform.io/hashicorp/null is listed twice'),
        ({"hashicorp/null": ">= 2"}, {"dev_overrides": "/b"}, "ExternalProviders.versions[\"hashicorp/null\"]: dev_overrides need an exact version such as '2.1.2' (init is offered the binary under it), got '>= 2'"),
        ({"hashicorp/null": "2.1.2"}, {"dev_overrides": {"acme/x": "/b"}}, 'ExternalProviders.dev_overrides["acme/x"]: registry.terraform.io/acme/x has no version in ExternalProviders.versions'),
        ({"hashicorp/null": "2.1.2", "acme/x": "1.0.0"}, {"dev_overrides": {"acme/x": "/b"}}, "ExternalProviders.dev_overrides: no directory for registry.terraform.io/hashicorp/null"),
        ({"hashicorp/null": "2.1.2"}, {"mirror": 3}, "ExternalProviders.mirror: expected a directory path, got int"),
    ],
    ids=["empty", "no-source", "two-sources", "version-not-str", "listed-twice", "dev-constraint", "dev-unknown-address", "dev-missing-dir", "mirror-not-path"],
)
def test_external_providers_rejects(args: dict[str, Any], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        ExternalProviders(args, **kwargs)
    assert str(info.value) == message


def _executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_external_providers_resolve_unpacked_and_packed_mirrors(tmp_path: Path) -> None:
    unpacked = tmp_path / "registry.terraform.io/hashicorp/null/2.1.2/linux_amd64"
    unpacked.mkdir(parents=True)
    packed = tmp_path / "registry.terraform.io/acme/x/terraform-provider-x_1.0.0_linux_amd64.zip"
    packed.parent.mkdir(parents=True)
    packed.write_bytes(b"")
    external = ExternalProviders({"hashicorp/null": "2.1.2", "acme/x": "1.0.0", "acme/y": ""}, mirror=tmp_path)
    (tmp_path / "registry.terraform.io/acme/y").mkdir()
    assert external.resolve("linux_amd64") == [
        ("registry.terraform.io/acme/x", packed),
        ("registry.terraform.io/acme/y", tmp_path / "registry.terraform.io/acme/y"),
        ("registry.terraform.io/hashicorp/null", unpacked),
    ]
    with pytest.raises(TestDefinitionError) as info:
        external.resolve("darwin_arm64")
    assert str(info.value) == (
        f"ExternalProviders.mirror: registry.terraform.io/acme/x 1.0.0 for darwin_arm64 is not in the mirror "
        f"(looked for {tmp_path}/registry.terraform.io/acme/x/1.0.0/darwin_arm64, "
        f"{tmp_path}/registry.terraform.io/acme/x/terraform-provider-x_1.0.0_darwin_arm64.zip)"
    )


def test_external_providers_resolve_dev_overrides(tmp_path: Path) -> None:
    versioned = _executable(tmp_path / "bin" / "terraform-provider-null_v2.1.2_x4")
    external = ExternalProviders({"hashicorp/null": "2.1.2"}, dev_overrides=tmp_path / "bin")
    assert external.resolve("linux_amd64") == [("registry.terraform.io/hashicorp/null", versioned)]
    exact = _executable(tmp_path / "bin" / "terraform-provider-null")
    assert external.resolve("linux_amd64") == [("registry.terraform.io/hashicorp/null", exact)]
    exact.chmod(0o644)
    versioned.chmod(0o644)
    with pytest.raises(TestDefinitionError) as info:
        external.resolve("linux_amd64")
    assert str(info.value) == (
        f"ExternalProviders.dev_overrides: no executable terraform-provider-null or terraform-provider-null_* "
        f"in {tmp_path}/bin (for registry.terraform.io/hashicorp/null)"
    )


def test_external_providers_are_values() -> None:
    a = ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/m")
    assert a == ExternalProviders({"registry.terraform.io/hashicorp/null": "2.1.2"}, mirror="/m")
    assert hash(a) == hash(ExternalProviders({"null": "2.1.2"}, mirror="/m"))
    assert a != ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/n")
    with pytest.raises(AttributeError):
        a._mirror = None  # type: ignore[misc]


def test_cli_config_text() -> None:
    text = _cli_config(
        {Path("/m"): ["registry.terraform.io/hashicorp/null"], Path("/p/mirror"): ["registry.terraform.io/acme/x"]},
        {"registry.terraform.io/acme/x": Path("/bin/terraform-provider-x_v1")},
    )
    assert text == (
        "provider_installation {\n"
        "  dev_overrides {\n"
        '    "registry.terraform.io/acme/x" = "/bin"\n'
        "  }\n"
        "  filesystem_mirror {\n"
        '    path    = "/m"\n'
        '    include = ["registry.terraform.io/hashicorp/null"]\n'
        "  }\n"
        "  filesystem_mirror {\n"
        '    path    = "/p/mirror"\n'
        '    include = ["registry.terraform.io/acme/x"]\n'
        "  }\n"
        "  direct {\n"
        '    exclude = ["registry.terraform.io/acme/x", "registry.terraform.io/hashicorp/null"]\n'
        "  }\n"
        "}\n"
    )


# -- the required_providers block the runner adds ------------------------------------------------

def _session_using(providers: Any, tmp_path: Path) -> ProviderSession:
    """A session whose current providers are ``providers`` (external ones only, so nothing is served)."""
    session = ProviderSession(platform="linux_amd64")
    session._current = normalize_providers(providers, "providers")
    return session


MIRROR = ExternalProviders({"hashicorp/null": "2.1.2", "example.com/acme/widget": "0.1.0"}, mirror="/m")


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (
            'resource "widget_thing" "t" {}',
            'resource "widget_thing" "t" {}\n'
            "terraform {\n  required_providers {\n"
            '    widget = { source = "example.com/acme/widget", version = "0.1.0" }\n'
            '    null = { source = "registry.terraform.io/hashicorp/null", version = "2.1.2" }\n'
            "  }\n}\n",
        ),
        (
            "",
            "terraform {\n  required_providers {\n"
            '    widget = { source = "example.com/acme/widget", version = "0.1.0" }\n'
            '    null = { source = "registry.terraform.io/hashicorp/null", version = "2.1.2" }\n'
            "  }\n}\n",
        ),
        ('terraform {\n}\nresource "widget_thing" "t" {}\n', 'terraform {\n}\nresource "widget_thing" "t" {}\n'),
        ('  terraform{ required_version = ">= 1.0" }\n', '  terraform{ required_version = ">= 1.0" }\n'),
    ],
    ids=["added-at-the-end", "empty-config", "kept-block", "kept-block-indented"],
)
def test_required_providers_block_for_hcl(config: str, expected: str, tmp_path: Path) -> None:
    session = _session_using(MIRROR, tmp_path)
    assert session.complete(TestStep(config=config)).config == expected


def test_required_providers_block_for_json(tmp_path: Path) -> None:
    session = _session_using(MIRROR, tmp_path)
    step = session.complete(TestStep(config={"resource": {"widget_thing": {"t": {}}}}))
    assert step.config == {
        "terraform": {"required_providers": {
            "widget": {"source": "example.com/acme/widget", "version": "0.1.0"},
            "null": {"source": "registry.terraform.io/hashicorp/null", "version": "2.1.2"},
        }},
        "resource": {"widget_thing": {"t": {}}},
    }
    kept = TestStep(config={"terraform": {}, "resource": {}})
    assert session.complete(kept) is kept


def test_required_providers_needs_distinct_local_names(tmp_path: Path) -> None:
    session = _session_using({"example.com/acme/widget": dict, "example.com/other/widget": dict}, tmp_path)
    with pytest.raises(TestDefinitionError) as info:
        session.complete(TestStep(config=""))
    assert str(info.value) == (
        "providers: example.com/acme/widget and example.com/other/widget share the local name 'widget'; "
        "write the terraform { required_providers { ... } } block yourself"
    )


# -- without the providers extra -----------------------------------------------------------------

@pytest.mark.parametrize("missing", ["grpc", "tf"])
def test_a_missing_extra_says_what_to_install(missing: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(sys.modules):
        if name == missing or name.startswith(missing + "."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)  # import now raises ImportError
    with pytest.raises(ProvidersNotInstalledError) as info:
        load_grpc()
    assert "install tfplancheck[providers] (pip install 'tfplancheck[providers]')" in str(info.value)
    assert isinstance(info.value, ImportError)


def test_a_missing_extra_fails_the_step_before_terraform_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "grpc", None)
    for name in [n for n in sys.modules if n == "tf" or n.startswith("tf.")]:
        monkeypatch.delitem(sys.modules, name)
    runner = AcceptanceRunner(TerraformBinary("/nonexistent/terraform", "1.11.4"), tmp_path, echo=False)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: widget_factory}, steps=[TestStep(config="")]))
    assert str(info.value).startswith(
        "step 1/1, config: cannot serve the providers: serving a provider under test needs the tf framework and grpcio: "
        "install tfplancheck[providers]"
    )
    assert runner.commands == ()


def test_plancheck_acceptance_imports_neither_tf_nor_grpc() -> None:
    import subprocess

    code = "import sys, plancheck.acceptance; print(sorted(m for m in ('tf', 'grpc') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"
