"""A state as Go's legacy check functions see it: each resource's attributes as a "flatmap".

Go's ``helper/resource`` turns the ``terraform show -json`` state into Terraform 0.11's
``map[string]string`` (``shimStateFromJson``), and every ``TestCheck*`` function reads that:

* a leaf is written under its dotted key: ``tags.env``, ``rule.0.port``;
* a string is itself, a bool ``"true"``/``"false"``, a number its JSON text (``1.50``);
* an object or a map also writes its length under ``<key>.%`` (the attributes of the resource
  under ``%``), a list, set or tuple its length under ``<key>.#``; sets are indexed by position;
* null is left out, so an absent and a null attribute read the same (but a null attribute
  still counts in its object's ``%``).

Where Go's shim stops, this goes on: resources of child modules and ``for_each`` instances are
looked up too (Go fails the whole step on a state with child modules).

A number written with an exponent (``1e20``; Terraform never writes one) shows in fixed point
(``100000000000000000000``): the parser keeps a number's value, not its spelling.

Go's ``fmt`` verbs (``%q``/``%#v`` of strings and maps, :func:`go_quote`, :func:`go_string_map`)
are here too: the check functions word their failures exactly as Go's ``helper/resource`` does, so
a message from a ported suite reads the same as the Go original.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any, Final, final

from tfjsonpath._jsontypes import is_object, is_sequence, number_text

from ..._documents.plan import require_name
from ..._documents.state import State, StateResource
from ..._errors import ArgumentError, StateFormatError
from ..._frozen import ReadOnly, public
from ..._loading.load import refuse_cycle
from ..._redact import (
    SENSITIVE,
    Marks,
    Secrets,
    collect_secret_strings,
    fit_marks,
    sensitive_shown,
)

__all__ = [
    "FlatAttributes", "FlatOutput", "FlatState", "flatten", "go_plain", "go_quote", "go_quoted_list", "go_string_map",
    "leaf_text",
]  # fmt: skip


_ESCAPES: Final = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    '"': '\\"',
    "\\": "\\\\",
}


def _escape(char: str) -> str:
    escaped = _ESCAPES.get(char)
    if escaped is not None:
        return escaped
    if char.isprintable():
        # Python's printable set is Go's unicode.IsPrint: letters, marks, numbers, punctuation,
        # symbols and the ASCII space.
        return char
    code = ord(char)
    if code < 0x80:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def go_quote(text: str) -> str:
    """``text`` as Go's ``%q`` (and ``%#v`` of a string) writes it: double-quoted, Go escapes.

    >>> print(go_quote('say "hi"\\n'), go_quote("tab\\tnbsp\\u00a0é"), go_quote("\\x00"))
    "say \\"hi\\"\\n" "tab\\tnbsp\\u00a0é" "\\x00"
    """
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return '"' + "".join(_escape(c) for c in text) + '"'


def go_string_map(entries: Mapping[str, str], shown: Mapping[str, str] | None = None) -> str:
    """A ``map[string]string`` as Go's ``%#v`` writes it: keys sorted, each ``"key":"value"``.

    ``shown`` gives, for some keys, the text to show instead of the quoted value (``(sensitive)``).

    >>> print(go_string_map({"b": "2", "a": "1"}), go_string_map({"pw": "x"}, {"pw": "(sensitive)"}))
    map[string]string{"a":"1", "b":"2"} map[string]string{"pw":(sensitive)}
    """
    overrides = shown or {}
    parts = []
    for key in sorted(entries):
        value = overrides.get(key)
        parts.append(f"{go_quote(key)}:{go_quote(entries[key]) if value is None else value}")
    return "map[string]string{" + ", ".join(parts) + "}"


def go_quoted_list(texts: Sequence[str]) -> str:
    """A slice of strings as Go's ``%q`` writes it (a plan's actions in the runner's import failures).

    >>> print(go_quoted_list(["delete", "create"]), go_quoted_list([]))
    ["delete" "create"] []
    """
    return "[" + " ".join(go_quote(str(text)) for text in texts) + "]"


def go_plain(value: Any) -> str:
    """A JSON value as Go's ``%v`` writes the ``interface{}`` that ``encoding/json`` decodes it to (numbers as
    ``json.Number``): maps with their keys sorted, no quotes, ``<nil>`` for null.

    Go tests match these texts with ``ExpectError`` patterns, so the runner's messages that Go writes with ``%v``
    are written so too, not in Python's repr.

    >>> print(go_plain({"on": True, "n": Decimal("1.5"), "id": "42", "tags": ["a", None], "m": {}}))
    map[id:42 m:map[] n:1.5 on:true tags:[a <nil>]]
    """
    if value is None:
        return "<nil>"
    text = leaf_text(value)
    if text is not None:
        return text
    if isinstance(value, Mapping):
        return "map[" + " ".join(f"{key}:{go_plain(value[key])}" for key in sorted(value, key=str)) + "]"
    if isinstance(value, Sequence):
        return "[" + " ".join(go_plain(item) for item in value) + "]"
    return f"<{type(value).__name__}>"


_ROOT_PATH: Final = "[root]"


def leaf_text(value: Any) -> str | None:
    """The flatmap text of a JSON scalar, or None if ``value`` is not one.

    >>> leaf_text(True), leaf_text(Decimal("1.50")), leaf_text(10**20), leaf_text(1e20), leaf_text("x")
    ('true', '1.50', '100000000000000000000', '100000000000000000000', 'x')
    """
    if isinstance(value, str):
        return value
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return number_text(value)
    if isinstance(value, Decimal):
        return number_text(value) if value.is_finite() else str(value)
    if isinstance(value, float):
        # A float comes from a document parsed without Decimal: its shortest repr is its JSON text.
        return number_text(Decimal(repr(value))) if value == value and abs(value) != float("inf") else repr(value)
    return None


def _location(steps: tuple[Any, ...] | None) -> str:
    parts: list[str] = []
    while steps is not None:
        steps, step = steps
        parts.append(f"[{step}]" if isinstance(step, int) else f"[{go_quote(str(step))}]")
    return "$" + "".join(reversed(parts))


@public("plancheck.acceptance")
@final
class FlatAttributes(ReadOnly, Mapping[str, str]):
    """The flatmap of one resource's attributes: a read-only ``Mapping[str, str]`` that knows its secrets.

    ``sensitive(key)`` says whether the entry lies under a sensitive mark; the repr shows such
    entries as ``(sensitive)``.

    >>> flat = flatten({"name": "a", "pw": "hunter2", "tags": {"env": "x"}, "ports": [80, 443]}, {"pw": True})
    >>> dict(sorted(flat.items()))
    {'%': '4', 'name': 'a', 'ports.#': '2', 'ports.0': '80', 'ports.1': '443', 'pw': 'hunter2', 'tags.%': '1', 'tags.env': 'x'}
    >>> flat.sensitive("pw"), flat.sensitive("name")
    (True, False)
    >>> "hunter2" in repr(flat)
    False
    """

    __slots__ = ("_entries", "_secrets", "_sensitive")
    _entries: dict[str, str]
    _sensitive: frozenset[str]
    _secrets: Secrets

    def __init__(self, entries: Mapping[str, str], sensitive: frozenset[str] = frozenset(), secrets: Secrets | None = None) -> None:
        if not isinstance(entries, Mapping):
            raise ArgumentError(f"FlatAttributes expects a mapping of flatmap keys to strings, got {type(entries).__name__}")
        self._set(_entries=dict(entries), _sensitive=frozenset(sensitive))
        if secrets is None:
            secrets = Secrets(self._entries[k] for k in self._sensitive if k in self._entries)
        self._set(_secrets=secrets)

    def __getitem__(self, key: str) -> str:
        return self._entries[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def sensitive(self, key: str) -> bool:
        """Whether the entry ``key`` lies under a sensitive mark (the count of a marked container does too).

        >>> flatten({"l": ["a"]}, {"l": True}).sensitive("l.#")
        True
        """
        return key in self._sensitive

    @property
    def secrets(self) -> Secrets:
        """The texts of the sensitive entries and the keys of sensitive maps, to scrub from messages."""
        return self._secrets

    def shown(self, key: str) -> str:
        """The entry as a message shows it: Go-quoted, or ``(sensitive)``.

        >>> flat = flatten({"a": "x", "b": "y"}, {"b": True})
        >>> flat.shown("a"), flat.shown("b")
        ('"x"', '(sensitive)')
        """
        if key in self._sensitive and not sensitive_shown():
            return SENSITIVE
        return go_quote(self._entries[key])

    def go_repr(self) -> str:
        """All entries as Go's ``%#v`` of the ``map[string]string``, sensitive entries as ``(sensitive)``.

        >>> flatten({"a": "x", "b": "y"}, {"b": True}).go_repr()
        'map[string]string{"%":"2", "a":"x", "b":(sensitive)}'
        """
        hidden = {} if sensitive_shown() else {k: SENSITIVE for k in self._sensitive}
        return go_string_map(self._entries, hidden)

    def __repr__(self) -> str:
        return f"FlatAttributes({self.go_repr()})"


def _flatten_into(
    values: Any, marks: Marks, entries: dict[str, str], sensitive: set[str], secrets: set[str]
) -> None:
    counts: dict[str, str] = {}
    # (flat key, value, marks, marked by an ancestor, location for errors); iterative so that
    # a 10,000-level value flattens without RecursionError.
    stack: list[tuple[str, Any, Marks, bool, tuple[Any, ...] | None]] = [("", values, marks, False, None)]
    while stack:
        key, value, mk, inherited, where = stack.pop()
        if value is None:
            continue
        if not inherited:
            mk = fit_marks(mk, value)
        marked = inherited or mk is True
        if marked and not inherited:
            collect_secret_strings(value, secrets)  # the top of a marked subtree: its strings by the one rule
        text = leaf_text(value)
        if text is not None:
            entries[key] = text
            if marked:
                sensitive.add(key)
            continue
        if isinstance(value, Mapping):
            count_key = f"{key}.%" if key else "%"
            children: list[tuple[str, Any, Marks, bool, tuple[Any, ...] | None]] = []
            for name, child in value.items():
                if not isinstance(name, str):
                    raise StateFormatError(_location(where), "an object with string keys", found=f"a key of type {type(name).__name__}")
                child_marks = None if marked or not isinstance(mk, Mapping) else mk.get(name)
                children.append((f"{key}.{name}" if key else name, child, child_marks, marked, (where, name)))
        elif isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
            count_key = f"{key}.#"
            children = []
            for i, child in enumerate(value):
                child_marks = mk[i] if not marked and isinstance(mk, Sequence) and i < len(mk) else None
                children.append((f"{key}.{i}", child, child_marks, marked, (where, i)))
        else:
            raise StateFormatError(
                _location(where), "a JSON value (null, bool, number, string, array or object)", found=f"a value of type {type(value).__name__}"
            )
        # Go writes a container's count after its entries: a map key "%" loses to the map's own count.
        counts[count_key] = str(len(value))
        if marked:
            sensitive.add(count_key)
        stack.extend(reversed(children))
    entries.update(counts)


@public("plancheck.acceptance")
def flatten(values: Any, marks: Marks = None) -> FlatAttributes:
    """The flatmap of a resource's ``values`` (None: no attributes), with its ``sensitive_values`` marks.

    Raises :class:`plancheck.StateFormatError` naming the JSON location of a value that is not JSON.

    >>> dict(sorted(flatten({"a": None, "l": [], "m": {"k.x": 1.0}, "b": [{"p": True}]}).items()))
    {'%': '4', 'b.#': '1', 'b.0.%': '1', 'b.0.p': 'true', 'l.#': '0', 'm.%': '1', 'm.k.x': '1.0'}
    >>> flatten({"a": {"b": [object()]}})
    Traceback (most recent call last):
    ...
    plancheck.StateFormatError: $["a"]["b"][0]: expected a JSON value (null, bool, number, string, array or object), found a value of type object
    >>> looped = {"a": []}
    >>> looped["a"].append(looped)
    >>> flatten(looped)
    Traceback (most recent call last):
    ...
    plancheck.StateFormatError: $: expected an object of attribute values, found a value that contains itself (a cycle)
    """
    entries: dict[str, str] = {}
    sensitive: set[str] = set()
    secrets: set[str] = set()
    if values is None:
        values = {}
    elif not isinstance(values, Mapping):
        raise StateFormatError("$", "an object of attribute values", found=f"a {type(values).__name__}")
    try:  # a Python value can hold a cycle, which the walk below would go round for ever
        refuse_cycle(values, StateFormatError, None)
    except StateFormatError:
        # Where is not shown: the keys on the way may be a sensitive map's, which the marks tell only by a walk.
        raise StateFormatError("$", "an object of attribute values", found="a value that contains itself (a cycle)") from None
    _flatten_into(values, marks, entries, sensitive, secrets)
    return FlatAttributes(entries, frozenset(sensitive), Secrets(secrets))


@public("plancheck.acceptance")
@final
class FlatOutput(ReadOnly):
    """A root module output as Go's shim holds it: a string, bool and number all become a string.

    ``value`` is that string, or the list or map as the state has it.

    >>> out = FlatOutput("n", 1.5, False)
    >>> out.value, out.go_repr()
    ('1.5', '&terraform.OutputState{Sensitive:false, Type:"string", Value:"1.5"}')
    >>> FlatOutput("pw", "hunter2", True).go_repr()
    '&terraform.OutputState{Sensitive:true, Type:"string", Value:(sensitive)}'
    """

    __slots__ = ("name", "sensitive", "type", "value")
    name: str
    value: Any
    type: str
    sensitive: bool

    def __init__(self, name: str, value: Any, sensitive: bool) -> None:
        text = leaf_text(value)
        if text is not None:
            value, kind = text, "string"
        elif is_object(value):
            kind = "map"
        elif is_sequence(value):
            kind = "list"
        else:
            kind = ""
        self._set(name=name, value=value, type=kind, sensitive=sensitive)

    def shown_value(self) -> str:
        """The value as Go's ``%#v`` writes it, or ``(sensitive)``.

        >>> FlatOutput("l", ["a"], False).shown_value(), FlatOutput("pw", "x", True).shown_value()
        ('[]interface {}{"a"}', '(sensitive)')
        """
        if self.sensitive and not sensitive_shown():
            return SENSITIVE
        return go_value(self.value)

    def go_repr(self) -> str:
        """The output as Go's ``%#v`` of its ``*terraform.OutputState`` (without the lock)."""
        return (
            f"&terraform.OutputState{{Sensitive:{'true' if self.sensitive else 'false'}, "
            f"Type:{go_quote(self.type)}, Value:{self.shown_value()}}}"
        )

    def go_type(self) -> str:
        """The Go type of the value, as ``%T`` writes it.

        >>> FlatOutput("l", [1], False).go_type(), FlatOutput("m", {}, False).go_type()
        ('[]interface {}', 'map[string]interface {}')
        """
        if isinstance(self.value, str):
            return "string"
        if self.type == "map":
            return "map[string]interface {}"
        if self.type == "list":
            return "[]interface {}"
        return "<nil>"


def go_value(value: Any) -> str:
    """A JSON value as Go's ``%#v`` writes the ``interface{}`` that ``encoding/json`` decodes it to.

    >>> print(go_value(["a", 1, True, None, {"k": "v"}]))
    []interface {}{"a", "1", true, interface {}(nil), map[string]interface {}{"k":"v"}}
    """
    if value is None:
        return "interface {}(nil)"
    if value is True or value is False:
        return "true" if value else "false"
    text = leaf_text(value)
    if text is not None:
        return go_quote(text)  # a json.Number is a string type: %#v quotes it
    if isinstance(value, Mapping):
        inner = ", ".join(f"{go_quote(str(k))}:{go_value(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0])))
        return "map[string]interface {}{" + inner + "}"
    if isinstance(value, Sequence):
        return "[]interface {}{" + ", ".join(go_value(v) for v in value) + "}"
    return f"<{type(value).__name__}>"


_MODULE_STEP: Final = re.compile(r'module\.([A-Za-z_][A-Za-z0-9_-]*)(\[(?:"(?:[^"\\]|\\.)*"|[0-9]+)\])?')


def module_legacy_path(address: str) -> str:
    """A module address as Go's ``ModuleState.Path`` prints: ``[root child grandchild]``.

    >>> module_legacy_path(""), module_legacy_path('module.a.module.b["k"]')
    ('[root]', '[root a b["k"]]')
    """
    names = ["root"]
    pos = 0
    while pos < len(address):
        found = _MODULE_STEP.match(address, pos)
        if found is None:
            return f"[root {address}]"
        names.append(found.group(1) + (found.group(2) or ""))
        pos = found.end() + 1
    return "[" + " ".join(names) + "]"


def split_address(address: str) -> tuple[str, str]:
    """A full resource address split into its module's address and the resource's address within it.

    >>> split_address('module.a["x.y"].module.b.aws_instance.web[0]'), split_address("data.x.y")
    (('module.a["x.y"].module.b', 'aws_instance.web[0]'), ('', 'data.x.y'))
    """
    pos = 0
    while address.startswith("module.", pos):
        found = _MODULE_STEP.match(address, pos)
        if found is None or not address.startswith(".", found.end()):
            break
        pos = found.end() + 1
    return address[: max(pos - 1, 0)], address[pos:]


def _resource_names(local: str, index: Any) -> Iterator[str]:
    """The names a check may use for a resource within its module: its local address, and
    Go's flatmap key for a ``count`` instance (``aws_instance.web.0`` for ``aws_instance.web[0]``)."""
    yield local
    suffix = f"[{index}]"
    if isinstance(index, int) and not isinstance(index, bool) and local.endswith(suffix):
        yield f"{local[: -len(suffix)]}.{index}"


def _module_addresses(state: State) -> set[str]:
    found = {""}
    values = state.raw.get("values")
    stack = [values.get("root_module") if isinstance(values, Mapping) else None]
    while stack:
        module = stack.pop()
        if not isinstance(module, Mapping):
            continue
        address = module.get("address")
        if isinstance(address, str) and address:
            found.add(address)
        children = module.get("child_modules")
        if isinstance(children, Sequence):
            stack.extend(children)
    return found


@public("plancheck.acceptance")
class FlatState:
    """A :class:`plancheck.State` as Go's check functions see it: resources by module and name, flattened on first use.

    Names are as in Go (``aws_instance.web``, ``aws_instance.web.0``, ``data.aws_ami.x``); the
    modern forms (``aws_instance.web[0]``, ``aws_instance.web["k"]``) work too. Modules are
    addressed as in the state (``module.child``; ``""`` is the root module).

    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a[0]", "mode": "managed", "type": "null_resource", "name": "a", "index": 0,
    ...      "values": {"id": "1", "triggers": {"k": "v"}}}]}}})
    >>> flat = FlatState.of(state)
    >>> flat.attributes("null_resource.a.0")["triggers.k"], flat.attributes("null_resource.a[0]")["%"]
    ('v', '2')
    >>> flat.attributes("null_resource.b") is None, flat.has_module("module.x")
    (True, False)
    """

    __slots__ = ("_flat", "_found", "_modules", "_outputs", "_secrets", "state")
    state: State

    def __init__(self, state: State) -> None:
        if not isinstance(state, State):
            raise ArgumentError(f"FlatState expects a plancheck.State, got {type(state).__name__}")
        self.state = state
        modules: dict[str, dict[str, StateResource]] = {address: {} for address in _module_addresses(state)}
        for resource in state.resources:
            if resource.deposed is not None:
                continue  # Go's checks see the current object only
            # From the address, not the module entry: Terraform 1.5 writes some module entries without one.
            module, local = split_address(resource.address)
            names = modules.setdefault(module, {})
            for name in _resource_names(local, resource.raw.get("index")):
                names.setdefault(name, resource)
        self._modules = modules
        self._flat: dict[int, FlatAttributes] = {}
        self._outputs: dict[str, FlatOutput] | None = None
        # Joined with the state's secrets only when a message needs them: most checks pass.
        self._found: list[Secrets] = []
        self._secrets: Secrets | None = None

    @classmethod
    def of(cls, state: State | FlatState) -> FlatState:
        """``state`` itself if already a FlatState, else a new one over it.

        >>> flat = FlatState.of(State.from_dict({"format_version": "1.0"}))
        >>> FlatState.of(flat) is flat
        True
        """
        return state if isinstance(state, FlatState) else cls(state)

    def has_module(self, module: str) -> bool:
        """Whether the state has the module instance at address ``module`` (``""``: the root module).

        >>> FlatState.of(State.from_dict({"format_version": "1.0"})).has_module("")
        True
        """
        require_name("FlatState.has_module", "a module address", module)
        return module in self._modules

    def modules(self) -> list[str]:
        """Every module address, sorted (``""`` is the root module).

        >>> FlatState.of(State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
        ...     {"address": "module.m", "resources": []}]}}})).modules()
        ['', 'module.m']
        """
        return sorted(self._modules)

    def names(self, module: str = "") -> list[str]:
        """The names the resources of ``module`` can be looked up by, sorted.

        >>> FlatState.of(State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
        ...     {"address": "a.b[0]", "index": 0, "values": {}}]}}})).names()
        ['a.b.0', 'a.b[0]']
        """
        require_name("FlatState.names", "a module address", module)
        return sorted(self._modules.get(module, {}))

    def attributes(self, name: str, module: str = "") -> FlatAttributes | None:
        """The flatmap of resource ``name`` in ``module``, or None if there is no such resource.

        Raises :class:`plancheck.StateFormatError` if its values are not JSON.
        """
        require_name("FlatState.attributes", "a resource name", name)
        require_name("FlatState.attributes", "a module address", module)
        resource = self._modules.get(module, {}).get(name)
        if resource is None:
            return None
        key = id(resource)
        flat = self._flat.get(key)
        if flat is None:
            try:
                flat = flatten(resource.values, resource.sensitive_values)
            except StateFormatError as exc:
                raise StateFormatError(
                    f"{resource.address}: values{exc.location[1:]}", exc.expected, found=exc.found, source=self.state.source
                ) from None
            self._flat[key] = flat
            if len(flat.secrets):
                self._found.append(flat.secrets)
                self._secrets = None
        return flat

    @property
    def outputs(self) -> Mapping[str, FlatOutput]:
        """The root module's outputs by name.

        >>> FlatState.of(State.from_dict({"format_version": "1.0", "values": {"outputs": {"on": {"value": True}}}})).outputs["on"].value
        'true'
        """
        if self._outputs is None:
            self._outputs = {
                name: FlatOutput(name, out.value, out.sensitive) for name, out in self.state.outputs.items()
            }
        return self._outputs

    @property
    def secrets(self) -> Secrets:
        """The state's secrets and those of every resource flattened so far."""
        if self._secrets is None:
            joined = self.state.secrets
            for found in self._found:
                joined = joined | found
            self._secrets = joined
        return self._secrets

    def scrub(self, text: str) -> str:
        """``text`` with every secret known so far replaced by ``(sensitive)``.

        >>> FlatState.of(State.from_dict({"format_version": "1.0", "values": {"outputs": {
        ...     "pw": {"value": "hunter2", "sensitive": True}}}})).scrub("pw=hunter2")
        'pw=(sensitive)'
        """
        return self.secrets.scrub(text)

    def __repr__(self) -> str:
        return f"<FlatState of {self.state!r}>"
