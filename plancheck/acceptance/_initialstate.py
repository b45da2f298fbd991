"""``TestCase(initial_state=...)``: a state file as Terraform writes it, checked before anything runs.

Upgrade tests start from a state an older provider wrote (``terraform state pull``, format 4):
the runner writes it into the case's directory, so the first plan runs the provider's
``UpgradeResourceState``. The state is read and checked when the case is defined, every
problem located (``TestCase.initial_state["resources"][0]["instances"]``), and its secrets
(values under ``sensitive_attributes``, sensitive outputs) join the case's, so they are
scrubbed from everything the runner prints.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from tfjsonpath._jsontypes import json_kind

from .._errors import DocumentFormatError
from .._loading.jsontext import loads_exact
from .._loading.source import InputTooLarge, max_input_bytes, read_limited
from .._redact import contains_sensitive, secret_strings
from ._errors import TestDefinitionError

__all__ = [
    "STATE_FILE",
    "InitialState",
    "StateInTheWay",
    "declared_resources",
    "read_initial_state",
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
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as stream:
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
