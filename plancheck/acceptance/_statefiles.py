"""State files on disk: a case's ``initial_state``, and the leftovers kept when a case's destroy fails.

``TestCase(initial_state=...)``: upgrade tests start from a state an older provider wrote
(``terraform state pull``, format 4): the runner writes it into the case's directory, so the first
plan runs the provider's ``UpgradeResourceState``. The state is read and checked when the case is
defined, every problem located (``TestCase.initial_state["resources"][0]["instances"]``), and its
secrets (values under ``sensitive_attributes``, sensitive outputs) join the case's, so they are
scrubbed from everything the runner prints.

Leftovers: ``terraform test`` loses the state of a run whose destroy failed; Go's harness leaves it
in a temporary directory that is removed. Here the case's working directory (configuration,
variables, state, lock file; not ``.terraform``, which points into temporary provider mirrors) is
copied to a leftover directory with a ``leftover.json`` saying what it needs, and the failure names
it and the command that destroys it. ``destroy_leftovers`` (pytest ``--tf-destroy-leftovers``,
``tfplancheck destroy-leftovers``, in ``_runner``) retries every leftover: ``init`` and ``destroy``
in its directory, serving the providers under test it needs (re-imported by name when they are
module-level classes or functions, or given as ``providers=``); a leftover destroyed is removed.

Leftover directories hold what the case held, secrets included (its variables, its state): they are
private to the user (mode 0700), as Terraform's own state files would need to be.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tfjsonpath._jsontypes import json_kind

from .._errors import DocumentFormatError
from .._frozen import FrozenValue, frozen, public
from .._loading.jsontext import KeyRepeated, each_key_once, loads_exact
from .._loading.lifecycle import signals_held
from .._loading.source import InputTooLarge, fs_path, max_input_bytes, read_limited, why_unopened
from .._redact import contains_sensitive, secret_strings
from .._terraform.binary import TerraformBinary
from ._errors import LeftoverRecordError, TestDefinitionError

if TYPE_CHECKING:
    from .._terraform.providers.factory import ProviderSet

__all__ = [
    "InitialState",
    "LEFTOVERS_ENV",
    "LEFTOVER_FILE",
    "Leftover",
    "LeftoverResult",
    "SECRETS_FILE",
    "STATE_FILE",
    "StateInTheWay",
    "declared_resources",
    "default_leftovers_dir",
    "destroy_hint",
    "find_leftovers",
    "keep_leftover",
    "kept_secrets",
    "orphans_reason",
    "read_initial_state",
    "record_attempt",
    "resource_of",
    "write_initial_state",
]


STATE_FILE: Final = "terraform.tfstate"
_WHERE: Final = "TestCase.initial_state"
#: Terraform's complaint about an attribute of a recorded object that the schema lacks.
_UNSUPPORTED: Final = re.compile(r'\[("(?:[^"\\]|\\.)*")\]: unsupported attribute')
_MODES: Final = ("managed", "data")


class InitialState:
    """A checked state document, its resource addresses and its secrets (internal to the runner).

    >>> s = read_initial_state({"version": 4, "terraform_version": "1.0.3", "serial": 1, "lineage": "x",
    ...     "outputs": {"pw": {"value": "hunter2!", "type": "string", "sensitive": True}},
    ...     "resources": [{"mode": "managed", "type": "null_resource", "name": "a",
    ...                    "provider": "provider[\\"registry.terraform.io/hashicorp/null\\"]",
    ...                    "instances": [{"index_key": 0, "schema_version": 0, "attributes": {"id": "1"}}]}]})
    >>> s.addresses, s.secrets
    (('null_resource.a[0]',), ('hunter2!',))
    """

    __slots__ = ("_text", "addresses", "document", "secrets", "source")

    def __init__(self, document: dict[str, Any], source: str | None, text: str | None = None) -> None:
        self.document = document
        self.source = source
        self._text = text
        self.addresses = tuple(_addresses(document))
        self.secrets = tuple(dict.fromkeys(_secrets(document)))

    def __repr__(self) -> str:
        where = f" from {self.source}" if self.source else ""
        return f"<initial state{where}: {len(self.addresses)} resource instance(s)>"

    def unreadable_hint(self, stderr: str) -> str:
        """Which recorded instances hold the attributes Terraform calls unsupported, or "".

        Terraform's message (``["label"]: unsupported attribute``) names neither the resource
        nor the schema version; the recorded state does.

        >>> s = read_initial_state({"version": 4, "terraform_version": "1.0.3", "serial": 1, "lineage": "x",
        ...     "resources": [{"mode": "managed", "type": "widget_thing", "name": "t", "provider": "p",
        ...                    "instances": [{"schema_version": 0, "attributes": {"label": "a"}}]}]})
        >>> print(s.unreadable_hint('Error: ["label"]: unsupported attribute'))
        the recorded state of widget_thing.t (schema version 0) has attribute "label", which the provider's schema does not declare: its state upgrade (UpgradeResourceState) must move or remove it
        """
        names = list(dict.fromkeys(n for n in map(_go_unquote, _UNSUPPORTED.findall(stderr)) if n is not None))
        clauses = []
        for name in names:
            holders = [
                f"{address} (schema version {version})" for address, version, attributes in self._instances()
                if isinstance(attributes, dict) and name in attributes
            ]
            if holders:
                clauses.append(
                    f"the recorded state of {', '.join(holders)} has attribute {json.dumps(name)}, which the "
                    "provider's schema does not declare: its state upgrade (UpgradeResourceState) must move or remove it"
                )
        return "; ".join(clauses)

    def _instances(self) -> Iterator[tuple[str, Any, Any]]:
        addresses = iter(self.addresses)
        for resource in self.document["resources"]:
            for instance in resource["instances"]:
                yield next(addresses), instance.get("schema_version"), instance.get("attributes")

    def text(self) -> str:
        """The state as Terraform reads it: a file's own text, unchanged, or the dict as JSON."""
        if self._text is not None:
            return self._text
        return json.dumps(self.document, indent=2, ensure_ascii=False) + "\n"


_GO_ESCAPE: Final = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))", re.DOTALL)
_GO_SIMPLE: Final = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\",
                     '"': '"', "'": "'"}


def _go_unquote(quoted: str) -> str | None:
    r"""The text of a string Terraform quoted with Go's ``%q`` (``"odd\x01name"``), or None if it is not one.

    Go's escapes are not JSON's (``\x01``, ``\a``, ``\v``), so ``json.loads`` cannot read them.

    >>> _go_unquote(r'"odd\x01name"') == "odd\x01name", _go_unquote(r'"tab\t\u00e9"') == "tab\t\u00e9"
    (True, True)
    >>> _go_unquote(r'"bad\q"') is None
    True
    """

    def one(match: re.Match[str]) -> str:
        hexadecimal = match.group(1) or match.group(2) or match.group(3)
        if hexadecimal is not None:
            return chr(int(hexadecimal, 16))  # ValueError beyond U+10FFFF
        return _GO_SIMPLE[match.group(4)]  # KeyError for an escape Go never writes

    try:
        return _GO_ESCAPE.sub(one, quoted[1:-1])
    except (KeyError, ValueError):
        return None


def read_initial_state(value: object) -> InitialState:
    """Read and check ``value``: a path to a state file, or the state as a dict."""
    source: str | None = None
    text: str | None = None
    if isinstance(value, (str, os.PathLike)):
        source = os.fspath(value)
        text = _read_file(source)
        try:
            document = loads_exact(text)
        except DocumentFormatError as exc:
            raise TestDefinitionError(_WHERE, f"{source}: not JSON: {exc}") from None
    elif isinstance(value, Mapping):
        document = _plain(value)
    else:
        raise TestDefinitionError(
            _WHERE, f"expected a state file's path or the state as a dict, got {type(value).__name__}"
        )
    _check(document)
    return InitialState(document, source, text)


def _read_file(path: str) -> str:
    try:
        # Non-blocking: opening a FIFO would otherwise wait for a writer, forever, in the test's definition.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as exc:  # ValueError: a name no system call takes (a NUL byte, a lone surrogate)
        raise TestDefinitionError(_WHERE, f"{path}: cannot read the state: {why_unopened(exc)}") from None
    try:
        with open(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise TestDefinitionError(_WHERE, f"{path}: cannot read the state: not a regular file")
            data = read_limited(stream, max_input_bytes())
    except InputTooLarge as exc:
        raise TestDefinitionError(_WHERE, f"{path}: expected {exc.expected('state file')}, found {exc.found}") from None
    except OSError as exc:
        raise TestDefinitionError(_WHERE, f"{path}: cannot read the state: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise TestDefinitionError(_WHERE, f"{path}: cannot read the state: not UTF-8 text") from None


def _plain(value: Mapping[Any, Any]) -> Any:
    """A JSON round trip of a dict given in Python: the runner never keeps (or mutates) the caller's object."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as exc:
        raise TestDefinitionError(_WHERE, f"expected a JSON document: {exc}") from None


def _at(path: str) -> str:
    return _WHERE + path


def _require(container: Mapping[str, Any], key: str, path: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in container:
        raise TestDefinitionError(_at(path), f"missing {json.dumps(key)} ({what})")
    value = container[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise TestDefinitionError(_at(f"{path}[{json.dumps(key)}]"), f"expected {what}, got {json_kind(value)}")
    return value


def _check(document: Any) -> None:
    if not isinstance(document, dict):
        raise TestDefinitionError(_WHERE, f"expected a state (a JSON object), got {json_kind(document)}")
    if "version" not in document:
        hint = " (this looks like `terraform show -json` output; give the state file itself, e.g. from `terraform state pull`)" \
            if "format_version" in document else ""
        raise TestDefinitionError(_WHERE, f"not a Terraform state: it has no \"version\"{hint}")
    version = document["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise TestDefinitionError(_at('["version"]'), f"expected the state format version 4, got {json_kind(version)}")
    if version < 4:
        raise TestDefinitionError(
            _at('["version"]'),
            f"state format version {version} is written by Terraform 0.11 and older, which no supported Terraform "
            "reads; upgrade it with Terraform 0.12 to 0.14 first (format 4)",
        )
    if version > 4:
        raise TestDefinitionError(_at('["version"]'), f"unsupported state format version {version} (expected 4)")
    _require(document, "terraform_version", "", str, "the Terraform version that wrote it, a string")
    serial = _require(document, "serial", "", int, "an integer >= 0")
    if serial < 0:
        raise TestDefinitionError(_at('["serial"]'), f"expected an integer >= 0, got {serial}")
    _require(document, "lineage", "", str, "a string")
    outputs = document.get("outputs", {})
    if not isinstance(outputs, dict):
        raise TestDefinitionError(_at('["outputs"]'), f"expected an object, got {json_kind(outputs)}")
    for name, output in outputs.items():
        path = f'["outputs"][{json.dumps(name)}]'
        if not isinstance(output, dict):
            raise TestDefinitionError(_at(path), f"expected an object, got {json_kind(output)}")
        if "value" not in output:
            raise TestDefinitionError(_at(path), 'missing "value"')
    resources = _require(document, "resources", "", list, "an array")
    for i, resource in enumerate(resources):
        _check_resource(resource, f'["resources"][{i}]')


def _check_resource(resource: Any, path: str) -> None:
    if not isinstance(resource, dict):
        raise TestDefinitionError(_at(path), f"expected a resource (an object), got {json_kind(resource)}")
    mode = _require(resource, "mode", path, str, '"managed" or "data"')
    if mode not in _MODES:
        raise TestDefinitionError(_at(f'{path}["mode"]'), f'expected "managed" or "data", got {json.dumps(mode)}')
    for key in ("type", "name", "provider"):
        if not _require(resource, key, path, str, "a non-empty string"):
            raise TestDefinitionError(_at(f'{path}[{json.dumps(key)}]'), "expected a non-empty string, got \"\"")
    if "module" in resource and not isinstance(resource["module"], str):
        raise TestDefinitionError(_at(f'{path}["module"]'), f"expected a module address, got {json_kind(resource['module'])}")
    instances = _require(resource, "instances", path, list, "an array")
    for j, instance in enumerate(instances):
        at = f'{path}["instances"][{j}]'
        if not isinstance(instance, dict):
            raise TestDefinitionError(_at(at), f"expected an instance (an object), got {json_kind(instance)}")
        version = _require(instance, "schema_version", at, int, "the resource's schema version, an integer >= 0")
        if version < 0:
            raise TestDefinitionError(_at(f'{at}["schema_version"]'), f"expected an integer >= 0, got {version}")
        if "attributes" in instance:
            if not isinstance(instance["attributes"], dict):
                raise TestDefinitionError(_at(f'{at}["attributes"]'), f"expected an object, got {json_kind(instance['attributes'])}")
        elif "attributes_flat" in instance:
            if not isinstance(instance["attributes_flat"], dict):
                raise TestDefinitionError(
                    _at(f'{at}["attributes_flat"]'), f"expected an object, got {json_kind(instance['attributes_flat'])}"
                )
        else:
            raise TestDefinitionError(_at(at), 'missing "attributes"')
        index_key = instance.get("index_key")
        if index_key is not None and (isinstance(index_key, bool) or not isinstance(index_key, (int, str))):
            raise TestDefinitionError(_at(f'{at}["index_key"]'), f"expected a count index or a for_each key, got {json_kind(index_key)}")


def _addresses(document: Mapping[str, Any]) -> Iterator[str]:
    for resource in document["resources"]:
        base = f"{resource['type']}.{resource['name']}"
        if resource["mode"] == "data":
            base = "data." + base
        if resource.get("module"):
            base = f"{resource['module']}.{base}"
        for instance in resource["instances"]:
            key = instance.get("index_key")
            suffix = "" if key is None else f"[{json.dumps(key, ensure_ascii=False)}]"
            yield base + suffix


def _secrets(document: Mapping[str, Any]) -> Iterator[str]:
    for output in document.get("outputs", {}).values():
        # Terraform writes true or false; anything else ("true", 1) fails closed.
        if contains_sensitive(output.get("sensitive")):
            yield from secret_strings(output.get("value"))
    for resource in document["resources"]:
        for instance in resource["instances"]:
            marks = instance.get("sensitive_attributes")
            if marks is None or marks == []:
                continue
            values = instance.get("attributes", instance.get("attributes_flat"))
            for mark in marks if isinstance(marks, list) else [None]:
                found = _follow(values, mark)
                # A mark this reader does not understand hides the whole object (fail closed).
                yield from secret_strings(values if found is _UNREADABLE else found)


_UNREADABLE: Final = object()


def _follow(value: Any, path: Any) -> Any:
    """The value a ``sensitive_attributes`` path names (cty path steps), None if absent, or _UNREADABLE.

    A step that does not fit the value where it stands (an attribute of a list, an index that is not
    a list position or a map key: a set element, a bool) fails closed: the value reached so far is
    what the mark covers.
    """
    if not isinstance(path, list):
        return _UNREADABLE
    current = value
    for step in path:
        if not isinstance(step, dict):
            return _UNREADABLE
        kind, key = step.get("type"), step.get("value")
        if kind == "get_attr" and isinstance(key, str):
            if not isinstance(current, dict):
                return current
            current = current.get(key)
        elif kind == "index" and isinstance(key, dict):
            index = key.get("value")
            if isinstance(current, list) and isinstance(index, int) and not isinstance(index, bool):
                current = current[index] if 0 <= index < len(current) else None
            elif isinstance(current, dict) and isinstance(index, str):
                current = current.get(index)
            else:
                return current
        else:
            return _UNREADABLE
        if current is None:
            return None
    return current


_INSTANCE_KEY: Final = re.compile(r'\[(?:[0-9]+|"(?:[^"\\]|\\.)*")\]')


def resource_of(address: str) -> str:
    """The resource an instance address belongs to, instance keys left out (module instances too).

    >>> resource_of('module.a["x"].module.b[0].null_resource.c[2]')
    'module.a.module.b.null_resource.c'
    """
    return _INSTANCE_KEY.sub("", address)


def declared_resources(configuration: Any) -> set[str]:
    """Every resource a plan's ``configuration`` declares, as :func:`resource_of` writes it.

    >>> sorted(declared_resources({"root_module": {"resources": [{"address": "null_resource.a"}],
    ...     "module_calls": {"m": {"module": {"resources": [{"address": "data.x.y"}]}}}}}))
    ['data.x.y', 'module.m.data.x.y', 'null_resource.a']
    """
    found: set[str] = set()
    if not isinstance(configuration, dict):
        return found
    stack: list[tuple[str, Any]] = [("", configuration.get("root_module"))]
    while stack:
        prefix, module = stack.pop()
        if not isinstance(module, dict):
            continue
        for resource in module.get("resources") or ():
            if isinstance(resource, dict) and isinstance(resource.get("address"), str):
                found.add(prefix + resource["address"])
                found.add(resource["address"])  # written relative to the module or in full: either counts
        for name, call in (module.get("module_calls") or {}).items():
            if isinstance(call, dict):
                stack.append((f"{prefix}module.{name}.", call.get("module")))
    return found


def orphans_reason(recorded: tuple[str, ...], configuration: Any, step_no: int) -> str | None:
    """Why step ``step_no``'s plan cannot take over ``initial_state``: the ``recorded`` resources its
    ``configuration`` does not declare (Terraform would destroy them, which is never what an upgrade test
    means); None when it declares them all.

    >>> orphans_reason(("null_resource.a[0]",), {"root_module": {"resources": [{"address": "null_resource.a"}]}}, 1)
    >>> print(orphans_reason(("null_resource.a", "null_resource.b"), {}, 1))
    initial_state holds null_resource.a, null_resource.b, which the configuration of step 1 does not declare (Terraform plans to destroy them); declare them, or remove them from the recorded state
    """
    declared = declared_resources(configuration)
    orphans = sorted(address for address in set(recorded) if resource_of(address) not in declared)
    if not orphans:
        return None
    them = "it" if len(orphans) == 1 else "them"
    return (
        f"initial_state holds {', '.join(orphans)}, which the configuration of step {step_no} does not "
        f"declare (Terraform plans to destroy {them}); declare {them}, or remove {them} from the recorded state"
    )


class StateInTheWay(Exception):
    """The working directory already has a state that may track resources: writing over it would lose them."""


def write_initial_state(state: InitialState, directory: Path) -> Path:
    """Write ``state`` as the local backend's state file of ``directory``.

    A state already there (a ``working_dir`` given to the case) is replaced only when it tracks no
    resource instance; else :class:`StateInTheWay`.
    """
    target = directory / STATE_FILE
    if target.exists() or target.is_symlink():
        try:
            held = read_initial_state(target).addresses
        except TestDefinitionError:
            raise StateInTheWay(
                f"{target} holds something that cannot be read as a state (so it may track resources): remove it "
                "first, or give the case another working_dir"
            ) from None
        if held:
            raise StateInTheWay(
                f"{target} holds a state that tracks {', '.join(held)}: writing the recorded state over it would lose "
                "track of them; destroy them first, or give the case another working_dir"
            )
    target.write_text(state.text(), encoding="utf-8")
    return target


LEFTOVER_FILE: Final = "leftover.json"
#: The secrets the case knew (a JSON list), for scrubbing what a later attempt prints; private, like the state.
SECRETS_FILE: Final = ".tfplancheck-secrets.json"
TFVARS: Final = "terraform.tfvars.json"
#: Where leftovers go when nothing else says: this variable, else ``.tfplancheck/leftovers`` here.
LEFTOVERS_ENV: Final = "TFPLANCHECK_LEFTOVERS_DIR"
_NOT_KEPT: Final = frozenset({".terraform", "terraform.tfstate.backup", ".terraform.tfstate.lock.info"})
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")


@public("plancheck.acceptance")
def default_leftovers_dir(base: str | os.PathLike[str] | None = None) -> Path:
    """``$TFPLANCHECK_LEFTOVERS_DIR``, else ``.tfplancheck/leftovers`` under ``base`` (default: the current directory).

    >>> default_leftovers_dir("/project").as_posix() if "TFPLANCHECK_LEFTOVERS_DIR" not in os.environ else "/project/.tfplancheck/leftovers"
    '/project/.tfplancheck/leftovers'
    """
    directory = fs_path(base, "default_leftovers_dir") if base is not None else None
    configured = os.environ.get(LEFTOVERS_ENV)
    if configured:
        return Path(configured)
    return Path(directory if directory is not None else os.getcwd()) / ".tfplancheck" / "leftovers"


def _factory_name(factory: Any) -> str | None:
    """``module:qualname`` when ``factory`` can be imported back by that name, else None."""
    module, qualname = getattr(factory, "__module__", None), getattr(factory, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    return f"{module}:{qualname}"


def _module_file(factory: Any) -> str | None:
    """The source file of the module ``factory`` is defined in, when there is one."""
    module = sys.modules.get(getattr(factory, "__module__", None) or "")
    path = getattr(module, "__file__", None)
    return os.path.realpath(path) if isinstance(path, str) else None


def destroy_hint(root: Path, providers: Sequence[ProviderSet]) -> str:
    """How to destroy a leftover kept under ``root`` of a case that used ``providers``: a provider served
    in the test process (a factory) is only there again in Python.

    >>> destroy_hint(Path("/p/.tfplancheck/leftovers"), [])
    'tfplancheck destroy-leftovers /p/.tfplancheck/leftovers'
    """
    if any(entry.kind == "factory" for provider_set in providers for entry in provider_set):
        return "pytest --tf-destroy-leftovers (or plancheck.acceptance.destroy_leftovers(providers=...))"
    return f"tfplancheck destroy-leftovers {root}"


def keep_leftover(
    root: Path,
    working_dir: Path,
    *,
    test_name: str | None,
    terraform: TerraformBinary,
    cli_config: Path | None,
    providers: list[ProviderSet],
    reason: str,
    secrets: Sequence[str] = (),
    base_dir: Path | None = None,
) -> Path:
    """Copy ``working_dir`` into a new directory under ``root`` with its manifest; return the directory.

    ``secrets`` (what the case knew to scrub) are kept beside the state, in :data:`SECRETS_FILE`, never in
    the manifest: a later attempt scrubs its messages with them. ``base_dir`` (the test's directory) says
    which project the leftover is of; each provider under test is recorded with the file of its module, so
    that a module of the same name elsewhere is never taken for it.
    """
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    ignore = root.parent / ".gitignore"
    if root.parent.name == ".tfplancheck" and not ignore.exists():
        ignore.write_text("# Made by tfplancheck: leftovers of acceptance tests hold states and secrets.\n*\n")
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    label = _UNSAFE.sub("_", test_name or working_dir.name)[:60].strip("_") or "case"
    # Whole or not at all: a signal that comes meanwhile is raised once the leftover is complete. Cut short, it
    # would be a directory no manifest names (nothing would ever find and remove it), maybe holding secrets.
    with signals_held():
        target = Path(tempfile.mkdtemp(prefix=f"{stamp}-{label}-", dir=root))  # private (0700), never a clash
        try:
            _fill(target, working_dir, stamp, test_name, terraform, cli_config, providers, reason, secrets, base_dir)
        except BaseException:
            # A copy cut short (a full disk) holds secrets and no manifest.
            shutil.rmtree(target, ignore_errors=True)
            raise
    return target


def _fill(
    target: Path, working_dir: Path, stamp: str, test_name: str | None, terraform: TerraformBinary,
    cli_config: Path | None, providers: list[ProviderSet], reason: str, secrets: Sequence[str], base_dir: Path | None,
) -> None:
    shutil.copytree(
        working_dir, target, dirs_exist_ok=True, symlinks=True, ignore=lambda d, names: [n for n in names if n in _NOT_KEPT]
    )
    target.chmod(0o700)  # copytree copied the working directory's mode onto it
    needed: dict[str, str | None] = {}
    files: dict[str, str] = {}
    for provider_set in providers:
        for entry in provider_set:
            if entry.kind == "factory":
                needed[entry.address] = _factory_name(entry.source)
                source = _module_file(entry.source)
                if source is not None:
                    files[entry.address] = source
    if cli_config is not None and cli_config.is_file():
        shutil.copyfile(cli_config, target / "cli.tfrc")
    manifest = {
        "format": 1,
        "created": stamp,
        "test": test_name,
        "working_dir": str(working_dir),
        "terraform": {"path": terraform.path, "version": terraform.version, "flavor": terraform.flavor},
        "base_dir": None if base_dir is None else str(base_dir),
        "providers_in_process": needed,
        "provider_files": files,
        "reason": reason,
        "attempts": [],
    }
    (target / LEFTOVER_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    descriptor = os.open(target / SECRETS_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with open(descriptor, "w", encoding="utf-8") as stream:
        json.dump(sorted(set(secrets)), stream, ensure_ascii=False)


def kept_secrets(directory: Path) -> list[str]:
    """What a later attempt on the leftover in ``directory`` scrubs from its messages.

    The secrets the case knew (:data:`SECRETS_FILE`) and the values its kept state marks sensitive; when the
    case's list is missing or damaged, every value of its variables file too, map keys included (failing
    closed: which variables were sensitive is not known then).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "terraform.tfvars.json").write_text('{"pw": "hunter2!", "n": 3}')
    ...     sorted(kept_secrets(Path(d)))
    ['3', 'hunter2!']
    """
    found: list[str] = []
    try:
        listed = json.loads((directory / SECRETS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        listed = None
    if isinstance(listed, list):
        found.extend(s for s in listed if isinstance(s, str))
    else:
        try:
            variables = json.loads((directory / TFVARS).read_text(encoding="utf-8"), parse_float=Decimal)
        except (OSError, ValueError, RecursionError):
            variables = None
        if isinstance(variables, dict):  # the values, not the variables' names
            found.extend(text for value in variables.values() for text in secret_strings(value))
    with contextlib.suppress(TestDefinitionError):
        found.extend(read_initial_state(directory / STATE_FILE).secrets)
    return found


@public("plancheck.acceptance")
@frozen
class Leftover(FrozenValue):
    """One kept working directory and its manifest.

    >>> from pathlib import Path
    >>> Leftover(Path("/x"), {"test": "test_a", "providers_in_process": {}}).test
    'test_a'
    """


    path: Path
    manifest: Mapping[str, Any] = field(repr=False)
    #: Why its ``leftover.json`` cannot be read (None: it was read); such a leftover is never touched.
    unreadable: str | None = field(default=None, repr=False)

    def require_record(self) -> None:
        """Raise :class:`LeftoverRecordError` naming the record when it could not be read.

        >>> Leftover(Path("/l/x"), {}, unreadable="not valid JSON").require_record()
        Traceback (most recent call last):
        ...
        plancheck.acceptance.LeftoverRecordError: /l/x/leftover.json: unreadable leftover record (not valid JSON); the leftover was neither destroyed nor removed: repair or remove it by hand
        """
        if self.unreadable is not None:
            raise LeftoverRecordError(str(self.path / LEFTOVER_FILE), self.unreadable)

    @property
    def test(self) -> str | None:
        """The test whose case left it, when known."""
        return self._recorded("test")

    @property
    def base_dir(self) -> str | None:
        """The directory of the test that left it (its project), when known."""
        return self._recorded("base_dir")

    def provider_file(self, address: str) -> str | None:
        """The source file of the module of the provider under test at ``address``, when known."""
        return self._recorded("provider_files", address)

    def _recorded(self, *keys: str) -> str | None:
        """The text the manifest records under ``keys``; None where it records none, or no text (hand-edited)."""
        value: Any = self.manifest
        for key in keys:
            value = value.get(key) if isinstance(value, Mapping) else None
        return value if isinstance(value, str) and value else None

    def made_under(self, project: str | os.PathLike[str]) -> bool:
        """Whether its test was under ``project`` (True when the manifest does not say).

        >>> Leftover(Path("/l/x"), {"base_dir": "/work/a/tests"}).made_under("/work/a")
        True
        >>> Leftover(Path("/l/x"), {"base_dir": "/work/b/tests"}).made_under("/work/a")
        False
        """
        base = self.base_dir
        if base is None:
            return True
        return Path(os.path.realpath(base)).is_relative_to(os.path.realpath(project))

    @property
    def providers_in_process(self) -> dict[str, str | None]:
        """The providers under test it needs served: address -> ``module:qualname`` (None: not importable).

        A name that is not a string (a hand-edited manifest) is None: the provider must be given.
        """
        value = self.manifest.get("providers_in_process")
        if not isinstance(value, dict):
            return {}
        return {str(address): name if isinstance(name, str) and name else None for address, name in value.items()}


@public("plancheck.acceptance")
def find_leftovers(root: str | os.PathLike[str] | None = None) -> list[Leftover]:
    """Every leftover under ``root`` (default :func:`default_leftovers_dir`), oldest first.

    >>> find_leftovers("/no/such/directory")
    []
    """
    directory = Path(fs_path(root, "find_leftovers")) if root is not None else default_leftovers_dir()
    found: list[Leftover] = []
    if not directory.is_dir():
        return found
    for child in sorted(directory.iterdir()):
        manifest_path = child / LEFTOVER_FILE
        # Leftover directories are made here (mkdtemp), never links: one pointing elsewhere is not ours to destroy.
        if child.is_symlink() or not child.is_dir() or not manifest_path.is_file():
            continue
        found.append(_read(child, manifest_path))
    return found


def _read(directory: Path, manifest_path: Path) -> Leftover:
    """The leftover in ``directory``; one whose record is damaged says why (it is then never destroyed nor removed)."""
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"), object_pairs_hook=each_key_once)
    except OSError as exc:
        return Leftover(directory, {}, unreadable=f"cannot be read: {exc.strerror or type(exc).__name__}")
    except RecursionError:
        return Leftover(directory, {}, unreadable="not valid JSON: nested too deep")
    except KeyRepeated as exc:  # which value counts would be a guess: the leftover is never destroyed by one
        return Leftover(directory, {}, unreadable=str(exc))
    except ValueError as exc:
        # The position only: a JSON error's message quotes no text, but keep it that way for a state's secrets.
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        return Leftover(directory, {}, unreadable=f"not valid JSON{where}")
    if not isinstance(manifest, dict):
        return Leftover(directory, {}, unreadable=f"expected a JSON object, got {_json_kind(manifest)}")
    return Leftover(directory, manifest)


def _json_kind(value: object) -> str:
    kinds = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return kinds.get(type(value), "a number")


@public("plancheck.acceptance")
@frozen
class LeftoverResult(FrozenValue):
    """What :func:`destroy_leftovers` did: the leftovers destroyed (and removed), those still kept, with why,
    those left alone because another project's tests left them (``project=``), and those whose record
    cannot be read (never touched: each with its :class:`LeftoverRecordError`'s message).

    >>> LeftoverResult(destroyed=["/l/a"], kept={"/l/b": "terraform destroy failed"}).ok
    False
    """


    destroyed: list[str]
    kept: dict[str, str]
    left_alone: list[str] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when nothing is left: none kept and none unreadable."""
        return not self.kept and not self.unreadable


def record_attempt(leftover: Leftover, problem: str | None) -> None:
    if problem is None:
        return
    manifest = dict(leftover.manifest)
    recorded = manifest.get("attempts")
    attempts = list(recorded) if isinstance(recorded, list) else []
    attempts.append({"at": datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ"), "problem": problem})
    manifest["attempts"] = attempts
    # The attempt still fails loudly through the result when its record cannot be written.
    with contextlib.suppress(OSError):
        (leftover.path / LEFTOVER_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
