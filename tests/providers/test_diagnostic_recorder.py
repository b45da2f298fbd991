"""The server records the diagnostics a provider returns, with their attribute paths (Terraform's JSON drops them).

Talks gRPC to the server as Terraform does; needs the providers extra.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from diagnostic_widget import DiagnosticWidgetProvider
from provider_support import WIDGET, Client, example_module, leak_check

from plancheck._terraform.providers.factory import normalize_providers
from plancheck._terraform.providers.wire import DiagnosticRecorder, attribute_path
from plancheck.acceptance import ProviderServer
from plancheck.acceptance._diagnostics import ProviderDiagnostic
from plancheck.acceptance._workplace import ProviderSession
from tfjsonpath import New

widget = example_module()
DEADLINE = 30.0


def _validate(client: Client, config: dict[str, Any]) -> Any:
    from tf.utils import to_dynamic_value

    request = client.pb.ValidateResourceConfig.Request(type_name="widget_thing", config=to_dynamic_value(config))
    return client.provider.ValidateResourceConfig(request, timeout=DEADLINE)


def test_diagnostics_are_recorded_once_each_with_their_paths(private_tmp: Path) -> None:
    config = {"name": "a", "color": "red", "size": -1, "tags": {"the key": "v"}, "secret": "weak-x", "description": None}
    with leak_check(private_tmp) as leaks, ProviderServer(WIDGET, DiagnosticWidgetProvider()) as server, \
            Client(server.reattach_config.addr) as client:
        for _ in range(3):   # Terraform validates in its validate walk and again in its plan walk
            response = _validate(client, config)
        assert len(response.diagnostics) == 4
        assert server.diagnostics == [
            ProviderDiagnostic("warning", "Attribute deprecated", "color is deprecated: use tags instead", "widget_thing",
                               New("color")),
            ProviderDiagnostic("error", "Invalid size", "size must be zero or more, got -1", "widget_thing", New("size")),
            ProviderDiagnostic("error", "Invalid tag key", "tag keys have no spaces: 'the key'", "widget_thing",
                               New("tags").AtMapKey("the key")),
            ProviderDiagnostic("warning", "Weak secret", "the secret 'weak-x' is weak", "widget_thing", New("secret")),
        ]
    assert not leaks[0], leaks[0]


def test_a_provider_exception_is_recorded_without_a_path(private_tmp: Path) -> None:
    class Exploding(DiagnosticWidgetProvider):  # type: ignore[misc]
        def get_resources(self) -> list[type[Any]]:
            class Thing(super().get_resources()[0]):  # type: ignore[misc]
                def validate(self, diags: Any, type_name: str, config: Any) -> None:
                    raise RuntimeError("boom")
            return [Thing]

    with ProviderServer(WIDGET, Exploding()) as server, Client(server.reattach_config.addr) as client:
        _validate(client, {"name": "a"})
        [recorded] = server.diagnostics
        assert (recorded.severity, recorded.type_name, recorded.attribute) == ("error", "widget_thing", None)
        assert recorded.summary == "Provider example.com/acme/widget: ValidateResourceConfig (widget_thing) raised RuntimeError: boom"


def test_a_session_keeps_the_diagnostics_of_a_server_it_replaced(private_tmp: Path) -> None:
    session = ProviderSession(platform="linux_amd64")
    try:
        session.use(normalize_providers({WIDGET: DiagnosticWidgetProvider}, "p"))
        with Client(session.servers[WIDGET].reattach_config.addr) as client:
            _validate(client, {"name": "a", "size": -1})
        session.use(normalize_providers({WIDGET: lambda: DiagnosticWidgetProvider()}, "p"))
        assert [d.summary for d in session.provider_diagnostics()] == ["Invalid size"]
    finally:
        session.close()


def test_what_is_no_protocol_diagnostic_is_left_out() -> None:
    recorder = DiagnosticRecorder()
    recorder.record(SimpleNamespace(), SimpleNamespace(diagnostics=[SimpleNamespace(severity="x")]))   # not a Diagnostic
    recorder.record(SimpleNamespace(), SimpleNamespace(diagnostics=5))   # not a list
    recorder.record(SimpleNamespace(), object())   # no diagnostics at all
    assert recorder.snapshot() == []


def test_an_attribute_path_that_is_no_path_of_a_plan_is_none() -> None:
    def step(kind: str | None, value: Any = None) -> SimpleNamespace:
        return SimpleNamespace(WhichOneof=lambda _: kind, **({kind: value} if kind else {}))

    assert attribute_path(SimpleNamespace(steps=[step("attribute_name", "a"), step("element_key_int", -1)])) is None
    assert attribute_path(SimpleNamespace(steps=[step(None)])) is None
    assert attribute_path(SimpleNamespace(steps=[])) is None
