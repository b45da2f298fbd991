"""Helpers for the provider tests: the example provider, leak accounting, a gRPC client for a served provider."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_DIR = ROOT / "examples" / "widget_provider"
WIDGET = "example.com/acme/widget"


def example_module() -> Any:
    """The example provider module (skips the test when the providers extra is not installed)."""
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    if str(EXAMPLE_DIR) not in sys.path:
        sys.path.insert(0, str(EXAMPLE_DIR))
    import widget_provider

    return widget_provider


def children() -> set[int]:
    """The pids of this process's live children (from /proc), zombies included."""
    found: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            text = (task / "children").read_text()
        except OSError:
            continue
        found.update(int(pid) for pid in text.split())
    return found


def _wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@dataclass
class Leaks:
    """What a test left behind: new threads, child processes, files in the private temporary directory."""

    threads: list[str]
    children: list[int]
    files: list[str]

    def __bool__(self) -> bool:
        return bool(self.threads or self.children or self.files)


@contextmanager
def leak_check(temp_dir: Path) -> Iterator[list[Leaks]]:
    """Account for everything started inside the block; yields a list that receives the :class:`Leaks`.

    ``temp_dir`` must be empty and be the temporary directory servers use (see ``private_tmp``).
    Threads get a few seconds to finish, since gRPC's serving thread ends just after ``stop()``.
    """
    threads_before = set(threading.enumerate())
    children_before = children()
    result: list[Leaks] = []
    try:
        yield result
    finally:
        def new_threads() -> list[threading.Thread]:
            return [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]

        _wait_until(lambda: not new_threads())
        # The process's janitor, started by its first command, lives as long as the process: not the test's leak.
        from plancheck._terraform.lifecycle import _JANITOR

        children_before.add(_JANITOR.pid or 0)
        _wait_until(lambda: not (children() - children_before))
        result.append(
            Leaks(
                threads=sorted(t.name for t in new_threads()),
                children=sorted(children() - children_before),
                files=sorted(str(p.relative_to(temp_dir)) for p in temp_dir.rglob("*")),
            )
        )


class Client:
    """A minimal go-plugin style client of a served provider (what Terraform does, in Python)."""

    def __init__(self, socket: str) -> None:
        import grpc
        from tf.gen import grpc_controller_pb2 as controller_pb
        from tf.gen import grpc_controller_pb2_grpc as controller_rpc
        from tf.gen import tfplugin_pb2 as pb
        from tf.gen import tfplugin_pb2_grpc as rpc

        self.pb = pb
        self.controller_pb = controller_pb
        self.channel = grpc.insecure_channel(f"unix:{socket}")
        # Generous: on a loaded 2-CPU machine (make test with -n 2 beside Terraform runs) a channel was once
        # seen not ready after 10 s; a server that never answers still fails the test.
        grpc.channel_ready_future(self.channel).result(timeout=30)
        self.provider = rpc.ProviderStub(self.channel)
        self.controller = controller_rpc.GRPCControllerStub(self.channel)
        self.health = self.channel.unary_unary("/grpc.health.v1.Health/Check")

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
