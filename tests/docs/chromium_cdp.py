"""A small client of Chromium's DevTools protocol, for the docs' browser test: no dependency beyond the standard library.

:func:`start_chromium` starts a headless Chromium with a fresh profile on a free DevTools port;
:class:`Page` speaks the protocol to one tab over a WebSocket (RFC 6455, client side: masked text
frames out, unmasked frames in), records the events it sees, and collects every console error,
uncaught exception and failed load the page reports.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--mute-audio",
)


def find_chromium() -> str | None:
    """The Chromium (or Chrome) binary on PATH, if any."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class DevToolsError(RuntimeError):
    """The protocol answered with an error, or the browser did not do something in time."""


@contextlib.contextmanager
def start_chromium(binary: str, timeout: float = 60.0) -> Iterator[str]:
    """Run Chromium with a fresh ``--user-data-dir``; yield the WebSocket URL of its first tab.

    The browser runs in a session of its own; it is terminated with its whole process group (then
    killed), and its profile removed, when the block ends, also after a failure.
    """
    profile = tempfile.mkdtemp(prefix="tfplancheck-chromium-")
    log = open(os.path.join(profile, "chromium.log"), "wb")  # noqa: SIM115 (closed in finally)
    process = subprocess.Popen(
        [binary, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        port_file = Path(profile, "DevToolsActivePort")
        deadline = time.monotonic() + timeout
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                output = Path(profile, "chromium.log").read_text(errors="replace")[-2000:]
                raise DevToolsError(f"Chromium did not start (exit status {process.returncode}): {output}")
            time.sleep(0.05)
        port = int(port_file.read_text().split("\n")[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=timeout) as answer:
            targets = json.load(answer)
        pages = [t for t in targets if t.get("type") == "page"]
        if not pages:
            raise DevToolsError(f"Chromium has no tab: {targets}")
        yield str(pages[0]["webSocketDebuggerUrl"])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()
        shutil.rmtree(profile, ignore_errors=True)


class Page:
    """One tab, driven over the DevTools protocol."""

    def __init__(self, ws_url: str, timeout: float = 30.0) -> None:
        rest = ws_url.removeprefix("ws://")
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.rpartition(":")
        self.timeout = timeout
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise DevToolsError("the DevTools connection closed during the handshake")
            head += chunk
        head, _, self.buffer = head.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise DevToolsError(f"no WebSocket upgrade: {head[:200]!r}")
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.errors: list[str] = []

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()

    # -- frames
    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise DevToolsError("the DevTools connection closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _receive(self) -> dict[str, Any]:
        message = b""
        while True:
            first, second = self._read(2)
            opcode, n = first & 0x0F, second & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(n)
            if opcode == 0x9:  # ping
                self._send_frame(0xA, payload)
                continue
            if opcode == 0x8:
                raise DevToolsError("the browser closed the DevTools connection")
            message += payload
            if first & 0x80:
                decoded: dict[str, Any] = json.loads(message)
                return decoded

    # -- protocol
    def _note(self, message: dict[str, Any]) -> None:
        self.events.append(message)
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.errors.append(f"uncaught: {details.get('exception', {}).get('description') or details.get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append("console.error: " + " ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            self.errors.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}".strip())

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        self._send_frame(0x1, json.dumps({"id": ident, "method": method, "params": params}).encode())
        while True:
            message = self._receive()
            if message.get("id") == ident:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self._note(message)

    def wait_for_event(self, method: str, since: int = 0) -> dict[str, Any]:
        """The first event ``method`` seen from index ``since`` of :attr:`events` on, waiting for it if need be."""
        deadline = time.monotonic() + self.timeout
        while True:
            for event in self.events[since:]:
                if event.get("method") == method:
                    return event
            if time.monotonic() > deadline:
                raise DevToolsError(f"no {method} within {self.timeout} s")
            self._note(self._receive())

    def evaluate(self, expression: str) -> Any:
        answer = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in answer:
            raise DevToolsError(f"{expression}: {answer['exceptionDetails']}")
        return answer.get("result", {}).get("value")

    def wait_until(self, expression: str) -> Any:
        """Evaluate ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + self.timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise DevToolsError(f"still false after {self.timeout} s: {expression}")
            time.sleep(0.1)

    def load(self, action: str, **params: Any) -> None:
        """Run ``action`` (``Page.navigate``, or ``Runtime.evaluate`` of a click) and wait for the page it loads."""
        since = len(self.events)
        self.call(action, **params)
        self.wait_for_event("Page.loadEventFired", since)
