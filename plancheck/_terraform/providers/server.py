"""Serving a ``tf`` provider object in the test process, over a Unix socket, for Terraform to reattach to.

``tf``'s own runner only blocks (and writes TLS certificates under ``~/.cache``), so this builds
the server itself: ``tf.provider.ProviderServicer`` for the provider protocol (version 6) plus
the two services go-plugin clients expect, ``plugin.GRPCController`` (``Shutdown`` stops the
server) and ``plugin.GRPCStdio``, and the ``grpc.health.v1.Health`` check go-plugin's ``Ping``
uses. Every RPC the provider raises in is answered with an error diagnostic naming the
RPC, the resource type and the exception (Terraform then prints it with the resource's
address), never with a hang or a bare gRPC status.

Terraform SIGKILLs the ``Pid`` of a reattach config when it cannot reach the socket, so each
server comes with a *sentinel*: a tiny child process (``python -c 'read stdin'``) whose pid is
the one Terraform sees. It exits when its stdin closes, that is when the server stops or when
the test process dies, so it cannot outlive either.

Stopping never waits forever: the gRPC server, its worker threads and the sentinel each get a
deadline, and whatever is still alive after it is reported, not waited for. A
``weakref.finalize`` does the same cleanup for a server that is dropped without ``stop()`` and
at interpreter exit.

Its errors: a provider that cannot be served, a missing optional extra.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, Final

from ..._errors import TfCheckError
from ..._frozen import FrozenValue, frozen, public
from ..._loading.lifecycle import own, release, signals_held, start_held
from ..._text import exception_text
from ..lifecycle import remove_watched, start_time, watch_directory
from .factory import REATTACH_ENV, ReattachConfig, normalize_address, provider_type, reattach_json
from .wire import DiagnosticRecorder, ProviderDiagnostic

__all__ = [
    "DEFAULT_STOP_TIMEOUT",
    "EXTRA_HINT",
    "EXTRA_METHODS_HOOK",
    "FOREIGN_GRACE",
    "MAX_SOCKET_PATH",
    "NAMESPACE_FILE",
    "PROVIDER_SERVICE",
    "SERVICER_HOOK",
    "ProviderCallError",
    "ProviderServer",
    "ProviderServerError",
    "ProvidersNotInstalledError",
    "Sentinel",
    "load_grpc",
    "remove_stale_dirs",
    "short_temp_dir",
]


#: What to install to serve ``tf`` providers in the test process.
EXTRA_HINT: Final = "pip install 'tfplancheck[providers]'"


@public("plancheck.acceptance")
class ProviderServerError(TfCheckError, RuntimeError):
    """A provider under test could not be started, served or stopped cleanly.

    ``address`` is the provider's address (``example.com/acme/widget``), ``problem`` what went wrong.

    >>> err = ProviderServerError("example.com/acme/widget", "the factory raised ValueError: no token")
    >>> print(err)
    provider example.com/acme/widget: the factory raised ValueError: no token
    >>> isinstance(err, RuntimeError), err.address
    (True, 'example.com/acme/widget')
    """

    def __init__(self, address: str, problem: str) -> None:
        self.address = address
        self.problem = problem
        super().__init__(f"provider {address}: {problem}")


@public("plancheck.acceptance")
class ProvidersNotInstalledError(TfCheckError, ImportError):
    """Serving a provider in the test process needs the optional ``providers`` extra (``tf`` and ``grpcio``).

    >>> err = ProvidersNotInstalledError("No module named 'grpc'")
    >>> print(err)
    serving a provider under test needs the tf framework and grpcio: install tfplancheck[providers] (pip install 'tfplancheck[providers]'); No module named 'grpc'
    >>> isinstance(err, ImportError)
    True
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(
            "serving a provider under test needs the tf framework and grpcio: "
            f"install tfplancheck[providers] ({EXTRA_HINT}); {reason}"
        )


DEFAULT_STOP_TIMEOUT: Final = 10.0
#: AF_UNIX paths are limited to 107 bytes on Linux (103 on macOS); keep a margin.
MAX_SOCKET_PATH: Final = 100
#: Terraform calls a provider from up to 10 goroutines at once (its default -parallelism).
_WORKERS: Final = 16
#: Terraform sends whole states and schemas in one message; gRPC's 4 MB default is too small.
_MAX_MESSAGE: Final = 2**31 - 1
_SENTINEL_CODE: Final = "import sys; sys.stdin.buffer.read()"
_HEALTH_SERVING: Final = b"\x08\x01"  # grpc.health.v1.HealthCheckResponse{status: SERVING}
_TRACEBACK_LINES: Final = 40
_START_LOCK = threading.Lock()
#: A provider object with this method serves itself: ``provider.plancheck_servicer(modules)`` returns
#: the servicer (methods named as the protocol's RPCs) instead of ``tf``'s ``ProviderServicer``.
SERVICER_HOOK: Final = "plancheck_servicer"
#: A servicer with this method answers RPCs newer than ``tf``'s protocol module (ephemeral resources):
#: ``servicer.plancheck_extra_methods()`` -> ``{rpc name: (function, decode bytes, encode response)}``.
EXTRA_METHODS_HOOK: Final = "plancheck_extra_methods"
PROVIDER_SERVICE: Final = "tfplugin6.Provider"
_SERIAL = itertools.count(1)


def load_grpc() -> SimpleNamespace:
    """Import ``grpc`` and the ``tf`` modules a server needs; a clear error when the extra is missing.

    >>> try:
    ...     modules = load_grpc()
    ... except ProvidersNotInstalledError as exc:
    ...     print("install tfplancheck[providers]" in str(exc))
    ... else:
    ...     print(hasattr(modules.grpc, "server"))
    True
    """
    try:
        import grpc
        from tf.gen import grpc_controller_pb2 as controller_pb
        from tf.gen import grpc_controller_pb2_grpc as controller_rpc
        from tf.gen import grpc_stdio_pb2_grpc as stdio_rpc
        from tf.gen import tfplugin_pb2 as pb
        from tf.gen import tfplugin_pb2_grpc as rpc
        from tf.provider import ProviderServicer
    except ImportError as exc:
        raise ProvidersNotInstalledError(str(exc)) from None
    return SimpleNamespace(
        grpc=grpc,
        pb=pb,
        rpc=rpc,
        controller_pb=controller_pb,
        controller_rpc=controller_rpc,
        stdio_rpc=stdio_rpc,
        ProviderServicer=ProviderServicer,
    )


def short_temp_dir(prefix: str = "tfpc-") -> Path:
    """A new private directory whose path is short enough for Unix sockets, owned from the moment it exists
    (see :mod:`plancheck._loading.lifecycle`): the caller removes it with ``release(directory, end=True)``.

    ``$TMPDIR`` when it is short, else ``/tmp``: pytest's ``tmp_path`` is usually too long. The
    directory records its owner (this process), and the first call of a process removes the
    directories of owners that died without removing theirs (a killed session):
    :func:`remove_stale_dirs`.

    >>> d = short_temp_dir()
    >>> len(str(d)) < 60, oct(d.stat().st_mode & 0o777), sorted(p.name for p in d.iterdir())[0]
    (True, '0o700', '.owner')
    >>> release(d, end=True)
    >>> d.exists()
    False
    """
    base = tempfile.gettempdir()
    if len(base) > 40 and os.path.isdir("/tmp"):
        base = "/tmp"
    _remove_stale_once(base)
    with signals_held():
        directory = own(Path(tempfile.mkdtemp(prefix=prefix, dir=base)), remove_watched)
        watch_directory(str(directory))  # the janitor removes it after a SIGKILL (else the next start would)
    namespace = _pid_namespace()
    if namespace is not None:
        # Before the owner file: whoever reads that one finds this too.
        (directory / NAMESPACE_FILE).write_text(namespace, encoding="ascii")
    (directory / OWNER_FILE).write_text(_owner_mark(os.getpid()) or str(os.getpid()), encoding="ascii")
    return directory


#: The file in each socket directory naming the process that made it: ``pid`` or ``pid:start-time``.
OWNER_FILE: Final = ".owner"
#: Beside it (Linux), the owner's PID namespace: a pid of another namespace means nothing here. A file of its
#: own, so that a reader that knows only the owner file (an older tfplancheck) reads that one as it always did.
NAMESPACE_FILE: Final = ".owner-pidns"
#: A directory without an owner file is left alone this long: its owner may be about to write it.
UNOWNED_GRACE: Final = 3600.0
#: A directory of another PID namespace (a container sharing ``/tmp``), whose pid means nothing here, is
#: left alone this long: no test case uses its socket directory longer.
FOREIGN_GRACE: Final = 86400.0
_STALE_PATTERN: Final = "tfpc-*"


def _owner_mark(pid: int) -> str | None:
    """``pid:start-time`` where the system tells a process's start time (Linux), so a reused pid never
    passes for the owner; None when ``pid`` runs no process."""
    started = start_time(pid)
    if started is not None:
        return f"{pid}:{started}"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # it exists, another user's
    return str(pid) if not os.path.isdir("/proc") else None


def _pid_namespace() -> str | None:
    """This process's PID namespace (the inode number Linux gives it), or None where there is none to tell."""
    try:
        link = os.readlink("/proc/self/ns/pid")
    except (OSError, AttributeError):
        return None
    match = re.fullmatch(r"pid:\[([0-9]{1,20})\]", link)
    return match.group(1) if match else None


#: An owner mark as :func:`_owner_mark` writes it; anything else names no live process.
_MARK: Final = re.compile(r"([0-9]{1,10})(?::[0-9]{1,20})?")
#: No system gives a pid beyond this (Linux's pid_max is at most 2**22).
_MAX_PID: Final = 2**31 - 1


def _owner_alive(mark: str) -> bool:
    match = _MARK.fullmatch(mark)
    if match is None or not 0 < int(match.group(1)) <= _MAX_PID:
        return False
    current = _owner_mark(int(match.group(1)))
    if current is None:
        return False
    return ":" not in mark or current == mark


def _read_short(path: Path) -> str:
    with open(path, "rb") as stream:
        # A mark is short: a longer or undecodable one is garbage, so its owner is gone.
        return stream.read(64).decode("ascii", "replace").strip()


def _elsewhere(directory: Path) -> bool:
    """Whether the directory's owner is in another PID namespace (its pid then tells nothing here)."""
    try:
        namespace = _read_short(directory / NAMESPACE_FILE)
    except FileNotFoundError:
        return False
    ours = _pid_namespace()
    return ours is not None and namespace != ours


@functools.cache
def _remove_stale_once(base: str) -> None:
    remove_stale_dirs(base)


def remove_stale_dirs(base: str | os.PathLike[str], *, now: float | None = None) -> list[Path]:
    """Remove this user's socket directories under ``base`` whose owner process is gone; return them.

    A directory with no owner file (made before owners were recorded, or being made right now) is
    removed only once it is :data:`UNOWNED_GRACE` seconds old; one whose owner is in another PID namespace
    (a container sharing the directory) once it is :data:`FOREIGN_GRACE` seconds old. Nothing else is
    touched: other users' directories, other names, anything that is not a directory.

    >>> import tempfile
    >>> base = tempfile.mkdtemp()
    >>> stale = Path(base, "tfpc-dead"); stale.mkdir(); _ = (stale / OWNER_FILE).write_text("999999999:1")
    >>> [p.name for p in remove_stale_dirs(base)], os.listdir(base)
    (['tfpc-dead'], [])
    >>> os.rmdir(base)
    """
    removed: list[Path] = []
    clock = time.time() if now is None else now
    uid = os.getuid() if hasattr(os, "getuid") else None
    for directory in sorted(Path(base).glob(_STALE_PATTERN)):
        try:
            info = directory.lstat()
            if not directory.is_dir() or directory.is_symlink() or (uid is not None and info.st_uid != uid):
                continue
            try:
                mark = _read_short(directory / OWNER_FILE)
            except FileNotFoundError:
                if clock - info.st_mtime < UNOWNED_GRACE:
                    continue
            else:
                if _elsewhere(directory):
                    if clock - info.st_mtime < FOREIGN_GRACE:
                        continue
                elif _owner_alive(mark):
                    continue
            shutil.rmtree(directory)
            removed.append(directory)
        except OSError:
            continue  # gone meanwhile, or not ours to remove: never a reason to fail a test run
    return removed


@frozen
class ProviderCallError(FrozenValue):
    """An exception a provider raised while serving an RPC, as the server recorded it.

    >>> e = ProviderCallError("ApplyResourceChange", "widget_thing", "RuntimeError: boom", "Traceback ...")
    >>> e.summary
    'ApplyResourceChange (widget_thing) raised RuntimeError: boom'
    """

    rpc: str
    type_name: str
    error: str
    traceback: str

    @property
    def summary(self) -> str:
        """One line: the RPC, the resource or data source type, the exception."""
        where = f" ({self.type_name})" if self.type_name else ""
        return f"{self.rpc}{where} raised {self.error}"


class Sentinel:
    """A child process whose pid stands in for a provider server's in ``TF_REATTACH_PROVIDERS``.

    It reads its stdin until EOF, so it exits by itself when :meth:`stop` closes the pipe or when
    this process dies; Terraform may SIGKILL it without harm.

    >>> s = Sentinel.start()
    >>> s.alive, s.pid != os.getpid()
    (True, True)
    >>> s.stop(timeout=10)
    >>> s.alive, s.killed_by_signal
    (False, None)
    """

    __slots__ = ("_process",)

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process

    @classmethod
    def start(cls) -> Sentinel:
        """Start a sentinel process."""
        process = start_held(
            lambda: subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _SENTINEL_CODE],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                close_fds=True,
                # Its own session: a Ctrl-C in the terminal interrupts the tests, not the sentinel.
                start_new_session=True,
            ),
            lambda started: cls(started).stop(timeout=5),
        )
        return cls(process)

    @property
    def pid(self) -> int:
        """The process id to give Terraform."""
        return self._process.pid

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self._process.poll() is None

    @property
    def killed_by_signal(self) -> int | None:
        """The signal that ended it (9 when Terraform could not reach the socket), else ``None``."""
        code = self._process.poll()
        return -code if code is not None and code < 0 else None

    def stop(self, timeout: float) -> None:
        """Close its stdin, wait for it (``timeout`` seconds), kill it if it lingers; always reaped."""
        process = self._process
        if process.stdin is not None and not process.stdin.closed:
            with contextlib.suppress(OSError):  # already gone: the pipe is broken
                process.stdin.close()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)
        release(process)


class _DaemonPool:
    """The few bits of an executor gRPC uses (``submit``), with daemon worker threads.

    ``ThreadPoolExecutor`` joins its workers when the interpreter exits, so one provider call
    that never returns would hang the test run at exit; these workers are abandoned instead
    (and reported by :meth:`ProviderServer.stop`).
    """

    def __init__(self, max_workers: int, prefix: str) -> None:
        self._max_workers = max_workers
        self._prefix = prefix
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]] | None] = (
            queue.SimpleQueue()
        )
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new calls after shutdown")
            self._queue.put((future, fn, args, kwargs))
            if not self._idle.acquire(timeout=0) and len(self._threads) < self._max_workers:
                thread = threading.Thread(
                    target=self._work, name=f"{self._prefix}_{len(self._threads)}", daemon=True
                )
                thread.start()
                self._threads.append(thread)
        return future

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            future, fn, args, kwargs = item
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args, **kwargs))
                except BaseException as exc:
                    future.set_exception(exc)
            del item, future, fn, args, kwargs
            self._idle.release()

    def shutdown(self, wait: bool = False, *, cancel_futures: bool = True) -> None:
        """Stop taking calls, cancel the queued ones, and tell every worker to end (never waits)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads = list(self._threads)
        while cancel_futures:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[0].cancel()
        for _ in threads:
            self._queue.put(None)

    @property
    def threads(self) -> list[threading.Thread]:
        """The worker threads started so far."""
        with self._lock:
            return list(self._threads)


class _Resources:
    """What one running server holds, in one object that a finalizer can clean up without the server."""

    def __init__(self, directory: Path, owns_directory: bool) -> None:
        self.directory = directory
        self.owns_directory = owns_directory
        self.socket: Path | None = None
        self.server: Any = None
        self.executor: _DaemonPool | None = None
        self.serve_threads: list[threading.Thread] = []
        self.sentinel: Sentinel | None = None
        self.shutdown_requested = False
        self.closed = False
        self.lock = threading.Lock()

    def request_shutdown(self) -> None:
        """Terraform's ``GRPCController.Shutdown``: stop serving, letting the current call answer."""
        with self.lock:
            self.shutdown_requested = True
            server = self.server
        if server is not None:
            server.stop(1.0)  # returns at once; the grace period lets this very RPC finish

    def close(self, timeout: float) -> list[str]:
        """Stop everything; return what could not be stopped in time (never raises, never blocks past ``timeout``).

        Signal-held: a signal that came meanwhile is raised when all is stopped, never halfway (the rest would
        never be stopped: a second call finds it closed). Until it is done, the server is owned (see
        :mod:`plancheck._loading.lifecycle`): a signal that lands before the hold leaves the close to the scope.
        """
        with signals_held():
            with self.lock:
                if self.closed:
                    return []
                self.closed = True
            deadline = time.monotonic() + timeout
            problems: list[str] = []

            def left() -> float:
                return max(0.05, deadline - time.monotonic())

            if self.server is not None:
                try:
                    if not self.server.stop(0.5).wait(left()):
                        problems.append(f"the gRPC server did not stop within {timeout:g} s")
                except Exception as exc:
                    problems.append(f"stopping the gRPC server failed: {exception_text(exc)}")
            if self.executor is not None:
                self.executor.shutdown(wait=False, cancel_futures=True)
            for thread in self.serve_threads:
                thread.join(left())
                if thread.is_alive():
                    problems.append(f"gRPC's serving thread {thread.name} did not end")
            for thread in self.executor.threads if self.executor is not None else []:
                thread.join(left())
                if thread.is_alive():
                    problems.append(f"thread {thread.name} is still running (a provider call did not return)")
            if self.sentinel is not None:
                try:
                    self.sentinel.stop(left())
                except Exception as exc:
                    problems.append(f"the sentinel process {self.sentinel.pid} could not be stopped: {exc}")
            if self.socket is not None and (self.socket.exists() or self.socket.is_symlink()):
                try:
                    self.socket.unlink()
                except OSError as exc:
                    problems.append(f"cannot remove {self.socket}: {exc}")
            if self.owns_directory:
                release(self.directory, end=True)
                if self.directory.exists():
                    problems.append(f"cannot remove {self.directory}")
            release(self)
            return problems


def _finalize(resources: _Resources) -> None:
    resources.close(DEFAULT_STOP_TIMEOUT)


def _unwrapped(servicer: Any, name: str) -> Callable[[Any, Any], Any]:
    """The servicer's method without ``tf``'s wrapper (which prints the traceback to stderr first)."""
    function = getattr(type(servicer), name)
    inner = getattr(function, "__wrapped__", None)
    if inner is None:
        return getattr(servicer, name)  # type: ignore[no-any-return]
    return functools.partial(inner, servicer)


@public("plancheck.acceptance")
class ProviderServer:
    """One provider object served in this process over a Unix socket, for Terraform to reattach to.

    The acceptance runner makes these for ``TestCase(providers={address: factory})``; use one
    directly to run ``terraform`` by hand against a provider you are writing::

        with ProviderServer("example.com/acme/widget", WidgetProvider()) as server:
            subprocess.run(["terraform", "apply"], env={**os.environ, **server.environment()})

    ``directory`` is where the socket goes (default: a private temporary directory, removed on
    stop). :meth:`start` needs the ``providers`` extra (``tf`` and ``grpcio``).

    >>> server = ProviderServer("example.com/acme/widget", provider=object())
    >>> server
    <ProviderServer example.com/acme/widget: not started>
    >>> server.errors, server.running
    ([], False)
    """


    def __init__(
        self,
        address: str,
        provider: object,
        directory: str | os.PathLike[str] | None = None,
        *,
        stop_timeout: float = DEFAULT_STOP_TIMEOUT,
    ) -> None:
        self.address = normalize_address(address, "ProviderServer.address")
        self.provider = provider
        self._directory = None if directory is None else Path(directory)
        self._stop_timeout = stop_timeout
        self._resources: _Resources | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._config: ReattachConfig | None = None
        self._modules: SimpleNamespace | None = None
        #: Every exception the provider raised while serving, oldest first.
        self.errors: list[ProviderCallError] = []
        self._recorder = DiagnosticRecorder()

    def __repr__(self) -> str:
        if self._config is None:
            state = "not started"
        elif self._resources is not None and self._resources.closed:
            state = "stopped"
        else:
            state = f"serving on {self._config.addr}"
        return f"<ProviderServer {self.address}: {state}>"

    def __enter__(self) -> ProviderServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        problems = self.stop()
        if problems and exc_info[0] is None:
            raise ProviderServerError(self.address, "; ".join(problems))

    @property
    def diagnostics(self) -> list[ProviderDiagnostic]:
        """Every distinct diagnostic the provider returned so far, with its attribute path, oldest first.

        Terraform's JSON output drops the attribute path of a provider's diagnostic; the acceptance
        runner joins these to it (``ExpectDiagnostic(attribute=...)``).
        """
        return self._recorder.snapshot()

    @property
    def running(self) -> bool:
        """True between :meth:`start` and :meth:`stop` (or Terraform's ``Shutdown``)."""
        r = self._resources
        return r is not None and not r.closed and not r.shutdown_requested

    @property
    def reattach_config(self) -> ReattachConfig:
        """Where Terraform finds the server (with the sentinel's pid); only after :meth:`start`."""
        if self._config is None:
            raise ProviderServerError(self.address, "the server has not been started")
        return self._config

    def environment(self) -> dict[str, str]:
        """``{"TF_REATTACH_PROVIDERS": ...}`` for this server alone."""
        config = self.reattach_config
        assert config.pid is not None
        return {REATTACH_ENV: reattach_json({self.address: (config, config.pid)})}

    def start(self) -> ReattachConfig:
        """Serve the provider; return where it listens. Raises :class:`ProviderServerError`."""
        if self._resources is not None:
            raise ProviderServerError(self.address, "a server starts once; make a new ProviderServer")
        modules = self._modules = load_grpc()
        owns = self._directory is None
        directory = short_temp_dir() if self._directory is None else self._directory
        with signals_held():
            # Owned before a signal can land: it stops the server, the sentinel and the socket (a directory made
            # here is owned already: short_temp_dir).
            resources = self._resources = own(_Resources(directory, owns), _finalize)
        self._finalizer = weakref.finalize(self, _finalize, resources)
        try:
            self._config = self._serve(modules, resources)
        except BaseException:
            resources.close(self._stop_timeout)
            raise
        return self._config

    def _serve(self, m: SimpleNamespace, resources: _Resources) -> ReattachConfig:
        serial = next(_SERIAL)
        kind = provider_type(self.address)
        socket = resources.directory / f"{kind}-{os.getpid()}-{serial}.sock"
        if len(str(socket)) > MAX_SOCKET_PATH:
            raise ProviderServerError(
                self.address, f"the socket path {socket} is longer than {MAX_SOCKET_PATH} characters; use a shorter directory"
            )
        own = getattr(self.provider, SERVICER_HOOK, None)
        try:
            servicer = own(m) if callable(own) else m.ProviderServicer(self.provider)
        except Exception as exc:
            who = "it" if callable(own) else "tf"
            raise ProviderServerError(self.address, f"{who} cannot serve {type(self.provider).__name__}: {exception_text(exc)}") from exc
        resources.executor = _DaemonPool(_WORKERS, f"tfplancheck-{kind}-{os.getpid()}-{serial}")
        options = [("grpc.max_receive_message_length", _MAX_MESSAGE), ("grpc.max_send_message_length", _MAX_MESSAGE)]
        server = m.grpc.server(resources.executor, options=options)
        # The guard, not this object, is what the handlers hold: a dropped server can be collected.
        guard = _Guard(self.address, self.errors, m, self._recorder)
        m.rpc.add_ProviderServicer_to_server(guard.wrap(servicer), server)
        extra = getattr(servicer, EXTRA_METHODS_HOOK, None)
        if callable(extra):
            server.add_generic_rpc_handlers((guard.extra_handler(extra()),))
        m.controller_rpc.add_GRPCControllerServicer_to_server(_Controller(m, resources), server)
        m.stdio_rpc.add_GRPCStdioServicer_to_server(_Stdio(), server)
        server.add_generic_rpc_handlers((_health_handler(m.grpc),))
        try:
            server.add_insecure_port(f"unix:{socket}")
        except RuntimeError as exc:
            raise ProviderServerError(self.address, f"cannot listen on {socket}: {exc}") from None
        resources.socket = socket
        with _START_LOCK:
            # The thread that serves is found by difference, so starts in one process take turns.
            before = set(threading.enumerate())
            resources.server = server  # before it starts: a signal right after start() leaves it to close() too
            server.start()
            resources.serve_threads = [t for t in threading.enumerate() if t not in before]
        try:
            resources.sentinel = Sentinel.start()
        except OSError as exc:
            raise ProviderServerError(self.address, f"cannot start the sentinel process: {exc}") from None
        return ReattachConfig(str(socket), pid=resources.sentinel.pid, protocol_version=6)

    def check(self) -> None:
        """Raise :class:`ProviderServerError` unless the server is serving and its sentinel alive."""
        r = self._resources
        if r is None or self._config is None:
            raise ProviderServerError(self.address, "the server has not been started")
        if r.closed:
            raise ProviderServerError(self.address, "the server has been stopped")
        if r.shutdown_requested:
            raise ProviderServerError(self.address, "the server stopped at Terraform's request (GRPCController.Shutdown)")
        if r.sentinel is not None and not r.sentinel.alive:
            signal = r.sentinel.killed_by_signal
            how = (
                f"was killed by signal {signal}" if signal is not None else "exited"
            ) + " (Terraform kills it when it cannot reach the provider's socket)"
            raise ProviderServerError(self.address, f"the sentinel process {r.sentinel.pid} {how}")
        if r.socket is None or not r.socket.exists():
            raise ProviderServerError(self.address, f"the socket {r.socket} is gone")

    def stop(self) -> list[str]:
        """Stop serving and clean up; return what could not be cleaned up in time (empty when all is well).

        Safe to call more than once, and on a server that never started.
        """
        if self._resources is None:
            return []
        problems = self._resources.close(self._stop_timeout)
        if self._finalizer is not None:
            self._finalizer.detach()
        return problems


class _Guard:
    """Wraps a servicer's RPCs so that an exception is answered with an error diagnostic."""

    def __init__(
        self, address: str, errors: list[ProviderCallError], m: SimpleNamespace, recorder: DiagnosticRecorder | None = None
    ) -> None:
        self.address = address
        self.errors = errors
        self.m = m
        self.recorder = recorder if recorder is not None else DiagnosticRecorder()

    def wrap(self, servicer: Any) -> SimpleNamespace:
        base = self.m.rpc.ProviderServicer
        methods: dict[str, Callable[[Any, Any], Any]] = {}
        for name in vars(base):
            if name.startswith("_"):
                continue
            own = getattr(type(servicer), name, None)
            if own is None or own is getattr(base, name):
                # Not implemented: keep gRPC's UNIMPLEMENTED (the base's method needs no state of its own).
                methods[name] = functools.partial(getattr(base, name), servicer)
            else:
                methods[name] = self._guard(name, _unwrapped(servicer, name))
        return SimpleNamespace(**methods)

    def extra_handler(self, methods: dict[str, tuple[Callable[[Any, Any], Any], Any, Any]]) -> Any:
        """A generic handler for RPCs the ``tf`` protocol module does not know: name -> (function, decode, encode)."""
        grpc = self.m.grpc
        handlers = {
            name: grpc.unary_unary_rpc_method_handler(
                self._guard(name, function), request_deserializer=decode, response_serializer=encode
            )
            for name, (function, decode, encode) in methods.items()
        }
        return grpc.method_handlers_generic_handler(PROVIDER_SERVICE, handlers)

    def _guard(self, name: str, method: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        def guarded(request: Any, context: Any) -> Any:
            try:
                response = method(request, context)
            except BaseException as exc:
                # sys.exit() or a KeyboardInterrupt raised by the provider too: gRPC answers only an
                # Exception, anything else would leave Terraform waiting for the answer until it times out.
                response = self.error_response(name, request, exc)
                if response is None:
                    if isinstance(exc, Exception):
                        raise
                    raise RuntimeError(f"{name} raised {type(exc).__name__}") from exc
            # Terraform's JSON keeps no attribute path of a diagnostic: note them here, as they leave.
            self.recorder.record(request, response)
            return response

        guarded.__name__ = name
        return guarded

    def error_response(self, name: str, request: Any, exc: BaseException) -> Any:
        """The RPC's response carrying the exception as an error diagnostic (``None`` if it has no place for one)."""
        m = self.m
        type_name = getattr(request, "type_name", "") or ""
        # The first frame is the guard's own: the provider's frames start after it.
        tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        text = "".join(traceback.format_exception(type(exc), exc, tb))
        record = ProviderCallError(name, type_name, exception_text(exc), text)
        self.errors.append(record)
        summary = f"Provider {self.address}: {record.summary}"
        detail = "The provider under test raised an exception (Python traceback):\n" + "\n".join(
            text.splitlines()[-_TRACEBACK_LINES:]
        )
        response_class = getattr(getattr(m.pb, name, None), "Response", None)
        if response_class is None:
            return None
        fields = {f.name for f in response_class.DESCRIPTOR.fields}
        if "diagnostics" in fields:
            diagnostic = m.pb.Diagnostic(severity=m.pb.Diagnostic.ERROR, summary=summary, detail=detail)
            values: dict[str, Any] = {"diagnostics": [diagnostic]}
            # Keep the object in state as it was: a failed update or delete must not lose track of it.
            if name == "ApplyResourceChange":
                values["new_state"] = request.prior_state
            elif name == "ReadResource":
                values["new_state"] = request.current_state
            return response_class(**values)
        if "error" in fields:  # CallFunction
            return response_class(error=m.pb.FunctionError(text=f"{summary}\n{detail}"))
        if "Error" in fields:  # StopProvider
            return response_class(Error=summary)
        return None


class _Controller:
    """go-plugin's ``plugin.GRPCController``: ``Shutdown`` stops the server."""

    def __init__(self, m: SimpleNamespace, resources: _Resources) -> None:
        self._empty = m.controller_pb.Empty
        self._resources = resources

    def Shutdown(self, request: Any, context: Any) -> Any:
        self._resources.request_shutdown()
        return self._empty()


class _Stdio:
    """go-plugin's ``plugin.GRPCStdio``: the provider's output is the test process's own, so nothing to stream."""

    def StreamStdio(self, request: Any, context: Any) -> Any:
        return iter(())


def _health_handler(grpc: ModuleType) -> Any:
    """``grpc.health.v1.Health/Check`` answering SERVING, with raw bytes (no grpcio-health-checking needed)."""

    def check(request: bytes, context: Any) -> bytes:
        return _HEALTH_SERVING

    return grpc.method_handlers_generic_handler(
        "grpc.health.v1.Health", {"Check": grpc.unary_unary_rpc_method_handler(check)}
    )
