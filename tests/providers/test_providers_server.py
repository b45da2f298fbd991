"""The in-process provider server: protocol services, errors as diagnostics, and nothing left behind.

These talk gRPC to the server as Terraform does (no Terraform binary needed); they need the
providers extra.
"""

from __future__ import annotations

import gc
import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from provider_support import WIDGET, Client, example_module, leak_check

from plancheck._terraform.providers.factory import normalize_providers
from plancheck.acceptance import (
    ExternalProviders,
    ProviderServer,
    ProviderServerError,
    ReattachConfig,
    ReattachProvider,
)
from plancheck.acceptance._workplace import ProviderSession

widget = example_module()
# Every client call has a deadline: a provider that hangs fails the test instead of blocking it.
DEADLINE = 30.0


def _schema_types(client: Client) -> tuple[list[str], list[str]]:
    response = client.provider.GetProviderSchema(client.pb.GetProviderSchema.Request(), timeout=DEADLINE)
    return sorted(response.resource_schemas), sorted(response.data_source_schemas)


def test_serves_the_provider_protocol_and_go_plugin_services(private_tmp: Path) -> None:
    with leak_check(private_tmp) as leaks:
        server = ProviderServer(WIDGET, widget.WidgetProvider())
        config = server.start()
        try:
            assert config.addr.startswith(str(private_tmp))
            assert config.addr.endswith(".sock")
            assert config.pid not in (None, os.getpid())
            assert Path(f"/proc/{config.pid}").exists()
            assert server.environment()["TF_REATTACH_PROVIDERS"].startswith('{"example.com/acme/widget": {"Protocol": "grpc"')
            with Client(config.addr) as client:
                assert _schema_types(client) == (["widget_thing"], ["widget_lookup"])
                assert client.health(b"", timeout=DEADLINE) == b"\x08\x01"  # SERVING
                server.check()
                client.controller.Shutdown(client.controller_pb.Empty(), timeout=DEADLINE)
            assert not server.running
            with pytest.raises(ProviderServerError) as info:
                server.check()
            assert str(info.value) == (
                "provider example.com/acme/widget: the server stopped at Terraform's request (GRPCController.Shutdown)"
            )
        finally:
            assert server.stop() == []
        assert server.stop() == []  # idempotent
        assert repr(server) == "<ProviderServer example.com/acme/widget: stopped>"
    assert not leaks[0], leaks[0]
    assert not Path(config.addr).exists()
    assert not Path(config.addr).parent.exists()


class ExplodingThing(widget.WidgetThing):  # type: ignore[misc, name-defined]
    def create(self, ctx: Any, planned: Any) -> Any:
        raise RuntimeError("the widget API is down")


class ExplodingProvider(widget.WidgetProvider):  # type: ignore[misc, name-defined]
    def get_resources(self) -> list[Any]:
        return [ExplodingThing]


def _apply_create(client: Client, name: str) -> Any:
    from tf.utils import to_dynamic_value

    planned = {"id": None, "name": name, "description": None, "size": None, "secret": None, "tags": None, "revision": None}
    request = client.pb.ApplyResourceChange.Request(
        type_name="widget_thing", prior_state=to_dynamic_value(None), planned_state=to_dynamic_value(planned),
        config=to_dynamic_value(planned),
    )
    return client.provider.ApplyResourceChange(request, timeout=DEADLINE)


def test_a_provider_exception_is_an_error_diagnostic_naming_the_rpc_and_type(private_tmp: Path, capfd: pytest.CaptureFixture[str]) -> None:
    with leak_check(private_tmp) as leaks, ProviderServer(WIDGET, ExplodingProvider()) as server, Client(server.reattach_config.addr) as client:
        response = _apply_create(client, "a")
        [diagnostic] = response.diagnostics
        assert diagnostic.severity == client.pb.Diagnostic.ERROR
        assert diagnostic.summary == (
            "Provider example.com/acme/widget: ApplyResourceChange (widget_thing) raised RuntimeError: the widget API is down"
        )
        assert diagnostic.detail.startswith("The provider under test raised an exception (Python traceback):\nTraceback")
        assert 'raise RuntimeError("the widget API is down")' in diagnostic.detail
        assert [e.summary for e in server.errors] == ["ApplyResourceChange (widget_thing) raised RuntimeError: the widget API is down"]
        # The server still serves after the exception.
        assert _schema_types(client)[0] == ["widget_thing"]
    assert not leaks[0], leaks[0]
    # tf's own wrapper would have printed the traceback to stderr; the guard answers instead.
    assert "Traceback" not in capfd.readouterr().err


class ExitingThing(widget.WidgetThing):  # type: ignore[misc, name-defined]
    raised: BaseException = SystemExit(3)

    def create(self, ctx: Any, planned: Any) -> Any:
        raise self.raised


@pytest.mark.parametrize(
    ("raised", "summary"),
    [
        pytest.param(SystemExit(3), "raised SystemExit: 3", id="sys.exit"),
        pytest.param(KeyboardInterrupt(), "raised KeyboardInterrupt", id="KeyboardInterrupt"),
    ],
)
def test_a_provider_raising_a_base_exception_is_answered_not_left_waiting(
    private_tmp: Path, raised: BaseException, summary: str
) -> None:
    """Red team (#25): the guard caught Exception only; sys.exit() in a provider's create left the RPC
    unanswered, and Terraform waited for it until the runner's timeout (600 s by default)."""

    class Thing(ExitingThing):
        pass

    Thing.raised = raised

    class Provider(widget.WidgetProvider):  # type: ignore[misc, name-defined]
        def get_resources(self) -> list[Any]:
            return [Thing]

    with leak_check(private_tmp) as leaks, ProviderServer(WIDGET, Provider()) as server, \
            Client(server.reattach_config.addr) as client:
        from tf.utils import to_dynamic_value

        planned = {"id": None, "name": "a", "description": None, "size": None, "secret": None, "tags": None,
                   "revision": None}
        request = client.pb.ApplyResourceChange.Request(
            type_name="widget_thing", prior_state=to_dynamic_value(None), planned_state=to_dynamic_value(planned),
            config=to_dynamic_value(planned),
        )
        response = client.provider.ApplyResourceChange(request, timeout=10)
        [diagnostic] = response.diagnostics
        assert diagnostic.summary == f"Provider example.com/acme/widget: ApplyResourceChange (widget_thing) {summary}"
        assert _schema_types(client)[0] == ["widget_thing"]  # still serving
    assert not leaks[0], leaks[0]


def test_normal_calls_still_work_through_the_guard(private_tmp: Path) -> None:
    provider = widget.WidgetProvider()
    with ProviderServer(WIDGET, provider) as server, Client(server.reattach_config.addr) as client:
        response = _apply_create(client, "a")
        assert list(response.diagnostics) == []
        assert provider.store.ids() == ["w-0001"]
        assert server.errors == []


def test_a_dropped_server_is_cleaned_up_by_its_finalizer(private_tmp: Path) -> None:
    with leak_check(private_tmp) as leaks:
        server = ProviderServer(WIDGET, widget.WidgetProvider())
        socket = Path(server.start().addr)
        assert socket.exists()
        del server
        gc.collect()
    assert not leaks[0], leaks[0]
    assert not socket.exists()


def test_a_killed_sentinel_is_reported_not_hidden(private_tmp: Path) -> None:
    with ProviderServer(WIDGET, widget.WidgetProvider()) as server:
        pid = server.reattach_config.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)  # what Terraform does when it cannot reach the socket
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        with pytest.raises(ProviderServerError) as info:
            server.check()
        assert str(info.value) == (
            f"provider example.com/acme/widget: the sentinel process {pid} was killed by signal 9 "
            "(Terraform kills it when it cannot reach the provider's socket)"
        )


def test_a_server_starts_once(private_tmp: Path) -> None:
    with ProviderServer(WIDGET, widget.WidgetProvider()) as server:
        with pytest.raises(ProviderServerError) as info:
            server.start()
        assert str(info.value) == "provider example.com/acme/widget: a server starts once; make a new ProviderServer"


def test_a_socket_path_too_long_is_refused_cleanly(private_tmp: Path) -> None:
    deep = private_tmp / ("d" * 90)
    deep.mkdir()
    with leak_check(private_tmp) as leaks:
        server = ProviderServer(WIDGET, widget.WidgetProvider(), deep)
        with pytest.raises(ProviderServerError) as info:
            server.start()
        assert "is longer than 100 characters; use a shorter directory" in str(info.value)
    assert leaks[0].threads == []
    assert leaks[0].children == []


def test_concurrent_servers_get_unique_sockets(private_tmp: Path) -> None:
    """What pytest -n needs: servers started at the same time never share a socket."""
    servers = [ProviderServer(WIDGET, widget.WidgetProvider()) for _ in range(6)]
    configs: list[ReattachConfig] = []
    errors: list[BaseException] = []

    def start(server: ProviderServer) -> None:
        try:
            configs.append(server.start())
        except BaseException as exc:
            errors.append(exc)

    with leak_check(private_tmp) as leaks:
        threads = [threading.Thread(target=start, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        try:
            assert errors == []
            assert len({c.addr for c in configs}) == len(servers)
            assert len({Path(c.addr).parent for c in configs}) == len(servers)  # one private directory each
            for config in configs:
                with Client(config.addr) as client:
                    assert _schema_types(client)[0] == ["widget_thing"]
        finally:
            for server in servers:
                assert server.stop() == []
    assert not leaks[0], leaks[0]


# -- the session the runner uses -----------------------------------------------------------------

def test_session_serves_factories_and_reattach_providers_then_cleans_up(private_tmp: Path) -> None:
    stopped: list[ReattachConfig] = []
    gadget_server: list[ProviderServer] = []

    def start_gadget(directory: Path) -> dict[str, Any]:
        # Another server, reported as Go providers print it in debug mode, without a Pid.
        server = ProviderServer("example.com/acme/gadget", widget.WidgetProvider(), directory)
        gadget_server.append(server)
        return {"Protocol": "grpc", "ProtocolVersion": 6, "Addr": {"Network": "unix", "String": server.start().addr}}

    def stop_gadget(config: ReattachConfig) -> None:
        stopped.append(config)
        gadget_server[0].stop()

    providers = normalize_providers(
        [{WIDGET: widget.WidgetProvider}, ReattachProvider("example.com/acme/gadget", start=start_gadget, stop=stop_gadget)],
        "providers",
    )
    with leak_check(private_tmp) as leaks:
        session = ProviderSession(platform="linux_amd64")
        try:
            assert session.use(providers) is False
            assert session.use(None, providers) is False  # same set: nothing restarted
            env: dict[str, str] = {}
            session.apply_environment(env)
            import json

            reattach = json.loads(env["TF_REATTACH_PROVIDERS"])
            assert sorted(reattach) == ["example.com/acme/gadget", WIDGET]
            gadget_pid = reattach["example.com/acme/gadget"]["Pid"]
            assert gadget_pid != os.getpid()
            assert Path(f"/proc/{gadget_pid}").exists()
            assert all(Path(v["Addr"]["String"]).parent == session.directory for v in reattach.values())
        finally:
            session.close()
    assert not leaks[0], leaks[0]
    assert [c.addr for c in stopped] == [reattach["example.com/acme/gadget"]["Addr"]["String"]]


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (lambda: 1 / 0, "provider example.com/acme/widget: the factory raised ZeroDivisionError: division by zero"),
        (lambda: "not a provider", "provider example.com/acme/widget: the factory returned a str, not a tf provider (no get_provider_schema, get_resources, get_model_prefix)"),
    ],
    ids=["raises", "wrong-type"],
)
def test_session_reports_a_broken_factory(factory: Any, message: str, private_tmp: Path) -> None:
    session = ProviderSession(platform="linux_amd64")
    try:
        with pytest.raises(ProviderServerError) as info:
            session.use(normalize_providers({WIDGET: factory}, "providers"))
        assert str(info.value) == message
    finally:
        session.close()
    assert list(private_tmp.iterdir()) == []


def test_session_replaces_a_server_whose_factory_changed(private_tmp: Path) -> None:
    made: list[Any] = []

    def first() -> Any:
        made.append(widget.WidgetProvider())
        return made[-1]

    def second() -> Any:
        made.append(widget.WidgetProvider())
        return made[-1]

    session = ProviderSession(platform="linux_amd64")
    try:
        session.use(normalize_providers({WIDGET: first}, "p"))
        old = session.servers[WIDGET]
        session.use(normalize_providers({WIDGET: first}, "p"))
        assert session.servers[WIDGET] is old
        assert len(made) == 1
        session.use(normalize_providers({WIDGET: second}, "p"))
        assert session.servers[WIDGET] is not old
        assert len(made) == 2
        assert not old.running
    finally:
        session.close()


def test_a_provider_call_that_never_returns_does_not_block_stop(private_tmp: Path) -> None:
    import grpc

    release = threading.Event()

    class HangingThing(widget.WidgetThing):  # type: ignore[misc, name-defined]
        def create(self, ctx: Any, planned: Any) -> Any:
            release.wait(60)
            return None

    class HangingProvider(widget.WidgetProvider):  # type: ignore[misc, name-defined]
        def get_resources(self) -> list[Any]:
            return [HangingThing]

    server = ProviderServer(WIDGET, HangingProvider(), stop_timeout=1.0)
    with leak_check(private_tmp) as leaks:
        config = server.start()
        try:
            from tf.utils import to_dynamic_value

            with Client(config.addr) as client:
                request = client.pb.ApplyResourceChange.Request(
                    type_name="widget_thing", prior_state=to_dynamic_value(None),
                    planned_state=to_dynamic_value({"name": "h"}), config=to_dynamic_value({"name": "h"}),
                )
                with pytest.raises(grpc.RpcError) as info:
                    client.provider.ApplyResourceChange(request, timeout=0.5)
            assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            started = time.monotonic()
            problems = server.stop()
            assert time.monotonic() - started < 5
            assert len(problems) == 1
            assert re.fullmatch(r"thread tfplancheck-widget-\d+-\d+_0 is still running \(a provider call did not return\)", problems[0])
        finally:
            release.set()  # let the abandoned call end, so this test leaves nothing behind either
    assert not leaks[0], leaks[0]


@pytest.mark.parametrize(
    ("providers", "message"),
    [
        (
            lambda: ReattachProvider("example.com/acme/gadget", start=lambda d: {"Addr": "nowhere"}),
            'provider example.com/acme/gadget: start() returned: "Addr" must be an object with "Network" and "String" '
            "(stop() was not called: nothing says how)",
        ),
        (
            lambda: ReattachProvider("example.com/acme/gadget", start=lambda d: 1 / 0),
            "provider example.com/acme/gadget: start() raised ZeroDivisionError: division by zero",
        ),
        (
            lambda: ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/nonexistent/mirror"),
            "provider registry.terraform.io/hashicorp/null: ExternalProviders.mirror: /nonexistent/mirror is not a directory",
        ),
    ],
    ids=["reattach-bad-config", "reattach-start-raises", "external-missing-mirror"],
)
def test_session_reports_providers_it_cannot_use(providers: Any, message: str, private_tmp: Path) -> None:
    session = ProviderSession(platform="linux_amd64")
    try:
        with pytest.raises(ProviderServerError) as info:
            session.use(normalize_providers(providers(), "providers"))
        assert str(info.value) == message
    finally:
        session.close()
    assert list(private_tmp.iterdir()) == []
