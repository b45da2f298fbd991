"""Structural validation of plan and state documents against the JSON Schemas shipped in the package.

The schemas (``plancheck/schemas/plan.schema.json`` and ``state.schema.json``) are the
definition. Two validators apply them and always agree:

* ``"fast"`` (the default): the schema compiled once into a small tree of nodes, walked
  iteratively. It touches only what the schema constrains (the envelope, each change's
  keys, actions and marks trees, the outputs, modules and resources of ``planned_values``
  and ``prior_state``), never attribute values; a 10 KB plan takes a few microseconds, and
  the marks trees are most of the work on a large one.
* ``"full"``: the ``jsonschema`` library itself, over the whole document.

Before either, a document of the other kind is refused: a state given as a plan (a
top-level ``values`` and none of a plan's keys) or a plan given as a state (a plan's key
and no ``values``). The schemas cannot say this (both allow unknown keys), and a state
read as a plan would otherwise pass as a plan without changes.

When a document has several problems both report the same one, the first in document
order (a value's own type before its missing keys, missing keys before its members,
members in the order the document lists them), and render it through the same code, so
the error (location, expected, found) is identical whichever mode found it.
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

from tfjsonpath import describe_json_type
from tfjsonpath._jsontypes import is_object, number_text

from .._errors import ArgumentError, DocumentFormatError, PlanFormatError, StateFormatError  # noqa: F401  (the doctests name PlanFormatError)
from .._frozen import FrozenValue, frozen
from .location import PathKey, hidden_inside, hidden_keys_from, json_location

__all__ = [
    "KNOWN_ACTIONS",
    "PLAN_KEYS",
    "VALIDATION_MODES",
    "Deferred",
    "SchemaNode",
    "SchemaValidator",
    "ValidationMode",
    "Violation",
    "check_kind",
    "loading_whole",
    "mode_error",
    "plan_validator",
    "register_secret_test",
    "secret_asker",
    "state_validator",
    "validate",
]

ValidationMode = Literal["fast", "full"]
VALIDATION_MODES: Final = ("fast", "full")

#: The actions Terraform and OpenTofu write (``internal/command/jsonplan``: a replace is two of them).
KNOWN_ACTIONS: Final = frozenset({"no-op", "create", "read", "update", "delete", "forget"})

#: Top-level keys only a plan has (``internal/command/jsonplan``); a state's values are under ``values``. A document
#: of none of them (``{"format_version": "1.0"}``) the loader reads as an empty plan, as the library documents, but
#: the gates (the command line, the plugin's ``--tf-plan``) refuse it: no Terraform or OpenTofu writes a plan
#: without ``planned_values``; it is ``terraform show -json`` run without the plan file where there is no state
#: yet, and every check of a gate (``ExpectNoDestroys``, ``ExpectEmptyPlan``) would pass on it.
PLAN_KEYS: Final = (
    "planned_values", "resource_changes", "resource_drift", "output_changes", "prior_state", "configuration",
    "variables", "deferred_changes", "relevant_attributes", "applyable", "complete", "errored",
    "action_invocations", "deferred_action_invocations",
)  # fmt: skip
_PLAN_KEY_SET: Final = frozenset(PLAN_KEYS)

class Deferred:
    """Stands for a value not parsed yet (see ``_lazy``), whose members need no check now.

    Validation sees only its JSON type: its members were checked when the text was split
    (by msgspec, against types built from the schema), or are checked when the value is
    parsed (see ``split``), so a placeholder needs only its own type checked.

    >>> Deferred("object").json_type
    'object'
    """

    __slots__ = ("json_type",)

    def __init__(self, json_type: str) -> None:
        self.json_type = json_type

    def __repr__(self) -> str:
        return f"<deferred {self.json_type}>"


# -- the schemas ---------------------------------------------------------------------------------


@cache
def load_schema(name: str) -> Mapping[str, Any]:
    """The parsed schema ``plancheck/schemas/<name>.schema.json`` (read once).

    >>> load_schema("plan")["required"]
    ['format_version']
    """
    text = resources.files("plancheck").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    schema: Mapping[str, Any] = json.loads(text)
    return schema


def _resolve(root: Mapping[str, Any], schema: Mapping[str, Any]) -> Mapping[str, Any]:
    seen = 0
    while "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/") or seen > 32:
            raise ValueError(f"unsupported $ref {ref!r}")
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        schema = target
        seen += 1
    return schema


_TYPE_PHRASES: Final = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a bool",
    "null": "null",
}


def _expected_phrase(root: Mapping[str, Any], schema: Mapping[str, Any]) -> str:
    if "x-expected" in schema:
        return str(schema["x-expected"])
    if "$ref" in schema:
        return _expected_phrase(root, _resolve(root, schema))
    types = schema.get("type")
    if isinstance(types, str):
        return _TYPE_PHRASES[types]
    if isinstance(types, list):
        return " or ".join(_TYPE_PHRASES[t] for t in types)
    return "a valid value"


# -- violations and how they read ------------------------------------------------------------------


@frozen
class Violation(FrozenValue):
    """One way a document breaks its schema, before it is rendered as an error.

    ``kind`` is ``type``, ``enum``, ``pattern``, ``minimum`` or ``required``; ``path`` leads to the
    offending value, or for ``required`` to the missing key; ``schema`` is the subschema
    that was not met (for ``required``: the missing property's subschema).

    >>> Violation("type", ("resource_changes",), {"type": "array"}, {}).location
    '$.resource_changes'
    """

    kind: str
    path: PathKey
    schema: Mapping[str, Any]
    instance: Any
    rank: int = 0

    @property
    def location(self) -> str:
        """The JSON location of the problem."""
        return json_location(self.path)


def _found_phrase(violation: Violation) -> str:
    if violation.kind == "required":
        return f"no {json.dumps(violation.path[-1], ensure_ascii=False)} key"
    value = violation.instance
    if isinstance(value, Deferred):
        return f"an {value.json_type}" if value.json_type in ("object", "array") else f"a {value.json_type}"
    if violation.kind in ("enum", "pattern") and isinstance(value, str):
        # Action names and format versions: a hand-edited plan may hold a secret there (render_violation hides it).
        text = json.dumps(value if len(value) <= 60 else value[:57] + "...", ensure_ascii=False)
        return f"the string {text}"
    if violation.kind == "minimum":
        return f"the number {number_text(value)}"
    return describe_json_type(value)


def _quoted(violation: Violation) -> str | None:
    """The value ``violation``'s found part quotes (as text), or None when it only names a JSON type."""
    value = violation.instance
    if violation.kind in ("enum", "pattern") and isinstance(value, str):
        return value
    if violation.kind == "minimum" and not isinstance(value, Deferred):
        return number_text(value)
    return None


#: How to tell whether a text an error would show (a quoted value, a location's key) is one of the secrets of a
#: document (a plan's, a state's, a query message's: the error's type says which, found at ``at``): (error type,
#: document, at) -> (text -> bool), the document's secrets collected once, for every text of the error. The layer
#: that owns the secret rule (``plancheck._documents.sensitive``), which this one may not import, registers it.
SecretTest = Callable[[type[DocumentFormatError], Any, PathKey], Callable[[str], bool]]
_secret_tests: list[SecretTest] = []


def register_secret_test(test: SecretTest) -> None:
    """Have :func:`render_violation` ask ``test`` whether a text it would show is a secret (see :data:`SecretTest`).

    >>> import plancheck._documents  # registers its own: until then every quoted value is hidden (failing closed)
    >>> register_secret_test(_secret_tests[0]); _secret_tests[0].__name__
    'secret_test'
    """
    _secret_tests[:] = [test]


#: The document being loaded (a function that reads it whole), while its entries are validated alone; None while a
#: document is read for its secrets (an entry failing then has only its own). Unset, an entry's loader says.
_WHOLE: ContextVar[Callable[[], Any] | None] = ContextVar("plancheck_loading_whole", default=None)


@contextmanager
def loading_whole(readable: Callable[[], Any] | None) -> Iterator[None]:
    """Within, an entry validated alone (``at``) is an entry of the document ``readable()`` reads whole: the value
    its error would quote is hidden when it is a secret of the whole (None: of the entry alone).

    >>> with loading_whole(lambda: {"format_version": "1.2"}):
    ...     _WHOLE.get()() == {"format_version": "1.2"}
    True
    """
    token = _WHOLE.set(readable)
    try:
        yield
    finally:
        _WHOLE.reset(token)


def _shows_secret(violation: Violation, shows: Callable[[str], bool], at: PathKey, text: str) -> bool:
    """Whether the quoted ``text`` of ``violation`` may be a secret; True (hidden: failing closed) where that cannot
    be told: inside a holder's value or marks tree, or where ``shows`` (:func:`secret_asker`) raises.
    """
    if hidden_inside(violation.path, at) is not None:
        return True
    try:
        return shows(text)
    except Exception:
        return True


def secret_asker(document: Callable[[], Any], at: PathKey, error: type[DocumentFormatError]) -> Callable[[str], bool]:
    """Whether a text shows a secret of the document ``document()`` reads (found at ``at`` in its whole), read and
    its secrets collected when first asked, once for every text of the error; raising where that cannot be told:
    with no test registered, or a document malformed as no walk foresaw (it failed to load, so its marks may be
    anything)."""
    tests: list[Callable[[str], bool]] = []

    def shows(text: str) -> bool:
        if not tests:
            if not _secret_tests:
                raise LookupError("no secret test registered")
            # The guard against re-entry: reading it may validate an entry, whose error must not read it again.
            with loading_whole(None):
                tests.append(_secret_tests[0](error, document(), at))
        return tests[0](text)

    return shows


def render_violation(
    violation: Violation,
    document: Any,
    root: Mapping[str, Any],
    error: type[DocumentFormatError],
    source: str | None,
    at: PathKey = (),
    readable: Callable[[], Any] | None = None,
    whole: Callable[[], Any] | None = None,
    alone: bool = False,
) -> DocumentFormatError:
    """The error both validation modes raise for ``violation`` in ``document`` (found at ``at`` in its whole
    document: an entry checked alone); a key of a sensitive map in its location is hidden, and a key that spells a
    secret of the document (:func:`~plancheck._loading.location.hidden_keys_from`),
    and so is a quoted value that is a secret of the document (``readable()`` gives the document to read its
    secrets from where ``document`` is a view of it holding placeholders). ``whole()`` reads the whole document an
    entry checked alone belongs to (a lazy route's value, validated when first read), for its secrets: the load's
    (:func:`loading_whole`) while one is under way; none (the entry's own) while a document is read for its secrets.
    An entry ``alone`` (given to a view's constructor, at a place ``at`` stands for) is located within itself:
    ``$.change.actions``.

    >>> v = Violation("type", ("resource_changes",), {"type": "array"}, {"a": 1})
    >>> str(render_violation(v, {}, load_schema("plan"), PlanFormatError, "p.json"))
    'p.json: $.resource_changes: expected an array, found an object with 1 key'
    """
    expected = _expected_phrase(root, violation.schema)
    found = _found_phrase(violation)
    quoted = _quoted(violation)
    whole = _WHOLE.get(whole) if readable is None and at else None
    at_whole: PathKey = at
    if whole is not None:  # an entry of a document being loaded, checked alone: the whole one's secrets count
        readable, at_whole = whole, ()
    shows = secret_asker(readable or (lambda: document), at_whole, error)
    if quoted is not None and _shows_secret(violation, shows, at_whole, quoted):
        # An error's found part only: loading a valid document imports no redaction.
        from .._redact import SENSITIVE

        found = SENSITIVE
    location = json_location(violation.path, hidden_keys_from(violation.path, document, at, shows), len(at) if alone else 0)
    other = _another_format(document) if violation.kind == "required" and violation.path == ("format_version",) else None
    if other is not None:
        expected = 'a "format_version" key (a terraform show -json plan or state)'
        found = other
    return error(location, expected, found=found, source=source)


def _another_format(document: Any) -> str | None:
    """What ``document`` (one without a ``format_version``) is, when it is a JSON format people take for
    ``terraform show -json``'s, with where to get that instead; None for anything else.

    >>> _another_format({"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "5e1c..."})
    'a Terraform state file (terraform.tfstate\\'s own format, with "serial" and "lineage"), which plancheck\\'s loaders do not read: write its JSON with terraform show -json STATEFILE > state.json in the configuration\\'s directory, after terraform init (a plan\\'s: terraform show -json PLANFILE > plan.json)'
    >>> _another_format({"resource_changes": []}) is None
    True
    """
    if not isinstance(document, Mapping):
        return None
    if "plan_format_version" in document:
        # HCP Terraform's redacted plan JSON looks like a plan but is another format.
        version = document.get("plan_format_version")
        shown = json.dumps(version) if isinstance(version, str) else describe_json_type(version)
        return (
            f'HCP Terraform redacted plan JSON ("plan_format_version": {shown}), which is a different format; '
            "get the plan from terraform show -json PLANFILE"
        )
    if "remote_plan_format" in document:
        # What terraform plan -out writes under a cloud backend: a bookmark of the remote run, not a zip of the plan.
        return (
            'an HCP Terraform saved plan ("remote_plan_format": a bookmark of a remote run, not the plan), which is a '
            "different format; get the plan's JSON from terraform show -json PLANFILE where the cloud backend is "
            "configured"
        )
    if "serial" in document and "lineage" in document:
        # The state file itself (terraform.tfstate, or terraform state pull's output), not show -json's view of it. The
        # command is spelt out, redirection too, lest "its JSON" read as a JSON to write by hand; show -json needs the
        # state's providers' schemas, so it runs where terraform init installed them.
        return (
            "a Terraform state file (terraform.tfstate's own format, with \"serial\" and \"lineage\"), which "
            "plancheck's loaders do not read: write its JSON with terraform show -json STATEFILE > state.json in the "
            "configuration's directory, after terraform init (a plan's: terraform show -json PLANFILE > plan.json)"
        )
    return None


# -- the compiled ("fast") validator ---------------------------------------------------------------


# jsonschema's types (the full mode), so both modes agree: not the toolkit's is_array (a list or tuple) nor
# is_sequence, a schema "array" is a list; a "number" any numbers.Number but a bool. A Deferred value is
# the kind it says it is.
def _schema_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _schema_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, numbers.Number)


def _schema_object(value: Any) -> bool:
    if isinstance(value, Deferred):
        return value.json_type == "object"
    return is_object(value)


def _schema_array(value: Any) -> bool:
    if isinstance(value, list):
        return True
    return isinstance(value, Deferred) and value.json_type == "array"


_TYPE_TESTS: Final[Mapping[str, Callable[[Any], bool]]] = {
    "object": _schema_object,
    "array": _schema_array,
    "string": lambda v: isinstance(v, str),
    "integer": _schema_integer,
    "number": _schema_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}

_SUPPORTED_KEYWORDS: Final = frozenset(
    {
        "$schema", "$id", "$ref", "$defs", "$comment", "title", "description", "x-expected", "x-struct",
        "type", "required", "properties", "additionalProperties", "items", "enum", "pattern", "minimum",
    }
)  # fmt: skip

_Check = Callable[[Any], "str | None"]


def _ok(value: Any) -> str | None:
    return None


_PLAIN: Final = {"string": str, "array": list, "object": dict, "boolean": bool}


def _compile_check(schema: Mapping[str, Any]) -> _Check:
    """The test of a subschema's own keywords (type, enum, pattern): one closure per subschema, one shape
    for every combination; validation calls it once per constrained value."""
    types = schema.get("type")
    names = [types] if isinstance(types, str) else list(types or ())
    # A plain isinstance decides the usual value (a str, a list, a dict, a bool), the tests the rest (a lazy
    # value, another Mapping, a number: bool is an int). A str or a bool is decided by isinstance alone.
    plain = tuple(_PLAIN[t] for t in names if t in _PLAIN)
    others = tuple(_TYPE_TESTS[t] for t in names if t not in ("string", "boolean"))
    enum: frozenset[str] | None = None
    if "enum" in schema:
        if not all(isinstance(v, str) for v in schema["enum"]):
            raise ValueError("the compiled validator supports enums of strings only")
        enum = frozenset(schema["enum"])
    pattern = re.compile(schema["pattern"]).search if "pattern" in schema else None
    minimum = schema.get("minimum")
    if not names and enum is None and pattern is None and minimum is None:
        return _ok

    def check(value: Any) -> str | None:
        if names and not isinstance(value, plain):
            for test in others:
                if test(value):
                    break
            else:
                return "type"
        if enum is not None and not (isinstance(value, str) and value in enum):
            return "enum"
        if pattern is not None and isinstance(value, str) and not pattern(value):
            return "pattern"
        if minimum is not None and _schema_number(value) and value < minimum:
            return "minimum"
        return None

    return check


class SchemaNode:
    """One compiled subschema. Built once per schema; validation allocates nothing per node."""

    __slots__ = (
        "additional",
        "check",
        "deep",
        "items",
        "properties",
        "required",
        "schema",
        "shallow",
        "trivial",
    )

    def __init__(self, schema: Mapping[str, Any]) -> None:
        unknown = set(schema) - _SUPPORTED_KEYWORDS
        if unknown:
            raise ValueError(f"the compiled validator does not support {sorted(unknown)}")
        self.schema = schema
        self.check: _Check = _compile_check(schema)
        self.required: tuple[str, ...] = tuple(schema.get("required", ()))
        self.properties: dict[str, SchemaNode] = {}
        self.additional: SchemaNode | None = None
        self.items: SchemaNode | None = None
        # Set by the compiler once the members are known:
        self.shallow = False  # only the value's own keywords (type, enum, pattern) are constrained
        self.trivial = False  # nothing at all is constrained
        self.deep = False  # members are constrained: the value needs a walk of its own

    def finish(self) -> None:
        self.deep = bool(
            self.required or self.properties or self.additional is not None or self.items is not None
        )
        self.shallow = not self.deep
        self.trivial = self.shallow and self.check is _ok

    def member(self, key: str) -> SchemaNode | None:
        """The node of member ``key`` of an object: its property's, else additionalProperties', else None."""
        found = self.properties.get(key)
        return found if found is not None or key in self.properties else self.additional

    def tree_leaves(self) -> tuple[str, ...] | None:
        """The scalar types of a *tree* node, or None for any other node.

        A tree (a marks tree is one) is a value of the node's scalar types, or an object or
        array whose members are trees again: no properties, no keywords but the type, and
        additionalProperties and items that are the node itself.
        """
        schema = self.schema
        if self.additional is not self or self.items is not self or self.properties or self.required:
            return None
        if "enum" in schema or "pattern" in schema:
            return None
        types = schema.get("type")
        names = [types] if isinstance(types, str) else list(types or ())
        if not names or "object" not in names or "array" not in names:
            return None
        return tuple(n for n in names if n not in ("object", "array"))


#: Where a value is, as :meth:`SchemaValidator._walk` builds it: None at the start, else (parent, key).
_Link = tuple[Any, str | int] | None
_Frame = tuple["SchemaNode | None", Any, _Link]


def _path(base: PathKey, link: _Link) -> PathKey:
    """The path of ``link``, below ``base``."""
    steps: list[str | int] = []
    while link is not None:
        link, step = link
        steps.append(step)
    steps.reverse()
    return (*base, *steps)


#: A node's quick test: falsy when the value is valid, truthy (``"type"``, ``True``) when it is not. A node that
#: constrains the value alone (type, enum, pattern) has its check as its test: no wrapper, one call per value.
_Problem = Callable[[Any], "str | bool | None"]


def _valid(value: Any) -> None:
    return None


def _problems(nodes: Iterable[SchemaNode]) -> dict[int, _Problem]:
    """One quick test per node (see :data:`_Problem`), composed from its members' tests.

    A node's members are made first, so a test calls its members' tests directly. A recursive schema
    (a module's child modules are modules) calls back into a node still being made through a cell,
    filled once that node's test exists.
    """
    made: dict[int, _Problem] = {}
    cells: dict[int, list[_Problem]] = {}

    def member(node: SchemaNode | None) -> _Problem | None:
        if node is None or node.trivial:
            return None
        if not node.deep:
            return node.check
        known = made.get(id(node))
        if known is not None:
            return known
        if id(node) in cells:  # being made, further up: a cycle
            return _through(cells[id(node)])
        cells[id(node)] = [_valid]
        leaves = node.tree_leaves()
        test = _tree_problem(leaves) if leaves is not None else _problem(node, member)
        made[id(node)] = cells[id(node)][0] = test
        return test

    for node in nodes:
        made[id(node)] = member(node) or _valid
    return made


def _through(cell: list[_Problem]) -> _Problem:
    def problem(value: Any) -> str | bool | None:
        return cell[0](value)

    return problem


def _tree_problem(leaves: tuple[str, ...]) -> _Problem:
    """The test of a tree node (see :meth:`SchemaNode.tree_leaves`).

    Marks trees hang off every resource change and every resource, so this is the hot loop
    of validation: plain recursion over dicts and lists with ``type(x) is`` tests (a tree
    deeper than the recursion limit is walked by :meth:`SchemaValidator._walk` instead).
    """
    only_bools = leaves == ("boolean",)
    tests = tuple(_TYPE_TESTS[name] for name in leaves)

    def bad_leaf(value: Any) -> bool:
        if isinstance(value, Deferred):
            return value.json_type not in ("object", "array")
        if isinstance(value, list):
            return invalid(list(value))
        if isinstance(value, Mapping):
            return invalid(dict(value))
        return not any(test(value) for test in tests)

    def invalid(value: Any) -> bool:
        kind = type(value)
        if kind is dict:
            value = value.values()
        elif kind is not list:
            return not (kind is bool and only_bools) and bad_leaf(value)
        for member in value:
            kind = type(member)
            if kind is bool and only_bools:
                continue
            if kind is dict or kind is list:
                if member and invalid(member):
                    return True
                continue
            if bad_leaf(member):
                return True
        return False

    return invalid


_ABSENT: Final = object()
_PLAIN_TYPES: Final = {"string": str, "boolean": bool}


def _plain_type(node: SchemaNode) -> type | None:
    """The Python type that decides ``node`` alone (a string or a bool with no other keyword), or None."""
    schema = node.schema
    if node.deep or "enum" in schema or "pattern" in schema:
        return None
    types = schema.get("type")
    return _PLAIN_TYPES.get(types) if isinstance(types, str) else None


def _problem(node: SchemaNode, member: Callable[[SchemaNode | None], _Problem | None]) -> _Problem:
    check = node.check
    required = node.required
    extra = member(node.additional)
    items = member(node.items)
    # With no additionalProperties, look the few constrained keys up instead of walking every key.
    plain = [(key, kind) for key, sub in node.properties.items() if (kind := _plain_type(sub)) is not None]
    tested = [
        (key, test)
        for key, sub in node.properties.items()
        if _plain_type(sub) is None and (test := member(sub)) is not None
    ]
    props = dict(tested) | {key: member(node.properties[key]) for key, _ in plain}

    def invalid(value: Any) -> str | bool | None:
        if check(value) is not None:
            return True
        if isinstance(value, dict):
            for key in required:
                if key not in value:
                    return True
            if extra is None:
                get = value.get
                for key, kind in plain:
                    child = get(key, _ABSENT)
                    if child is not _ABSENT and not isinstance(child, kind):
                        return True
                for key, test in tested:
                    child = get(key, _ABSENT)
                    if child is not _ABSENT and test(child):
                        return True
                return False
            for key, child in value.items():
                member_test = props.get(key) if key in node.properties else extra
                if member_test is not None and member_test(child):
                    return True
            return False
        if isinstance(value, list):
            return items is not None and any(map(items, value))
        if isinstance(value, Mapping):
            return invalid(dict(value))
        return False

    return invalid


class SchemaValidator:
    """A schema compiled for repeated validation; see the module docstring.

    >>> v = SchemaValidator(load_schema("plan"))
    >>> v.first_violation({"format_version": "1.2", "resource_changes": {}}).location
    '$.resource_changes'
    >>> v.first_violation({"format_version": "1.2"}) is None
    True
    """

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        nodes: dict[int, SchemaNode] = {}
        self.root = self._compile(schema, nodes)
        for node in nodes.values():
            node.finish()
        self._problems = _problems(nodes.values())
        self._full: Any = None

    def is_valid(self, document: Any, node: SchemaNode | None = None) -> bool:
        """Whether ``document`` has no violation (:meth:`first_violation`'s quick test decides a valid one)."""
        return self.first_violation(document, node=node) is None

    def _compile(self, schema: Mapping[str, Any], nodes: dict[int, SchemaNode]) -> SchemaNode:
        target = _resolve(self.schema, schema)
        known = nodes.get(id(target))
        if known is not None:
            return known
        node = SchemaNode(target)
        nodes[id(target)] = node
        for key, sub in target.get("properties", {}).items():
            node.properties[key] = self._compile(sub, nodes)
        if "additionalProperties" in target:
            if not isinstance(target["additionalProperties"], Mapping):
                raise ValueError("additionalProperties must be a schema")
            node.additional = self._compile(target["additionalProperties"], nodes)
        if "items" in target:
            node.items = self._compile(target["items"], nodes)
        return node

    def node_at(self, *keys: str) -> SchemaNode:
        """The compiled node at a path of properties (``node_at("prior_state", "values")``)."""
        node = self.root
        for key in keys:
            node = node.properties[key]
        return node

    # -- fast mode -------------------------------------------------------------------------------

    def first_violation(
        self, document: Any, *, path: PathKey = (), node: SchemaNode | None = None
    ) -> Violation | None:
        """The first violation in document order, or None; ``path`` is where ``document`` is. No depth limit.

        The quick test first, and a valid document is not walked: composed closures, one call per constrained value,
        allocating next to nothing (so it needs no pause of the garbage collector). Only a document that fails it,
        or is deeper than the closures can go, is walked, once, for its problem and its place.
        """
        problem = self._problems[id(node or self.root)]
        try:
            if not problem(document):
                return None
        except RecursionError:  # deeper than the closures can go: the walk has no limit
            pass
        return self._walk(document, path, node)

    def _walk(self, document: Any, path: PathKey, node: SchemaNode | None) -> Violation | None:
        """The first violation in document order, or None. Iterative: no depth limit.

        Members whose subschema has no members of its own are checked on the spot; the
        others go on a stack, in reverse, so they are walked in document order. A problem
        found on the spot waits on the stack behind the earlier members still to walk.
        Locations are links (parent, key), made a path only for the violation: a tuple per
        level would cost time quadratic in the depth of a deep document.
        """
        stack: list[_Frame] = [(node or self.root, document, None)]
        pop = stack.pop
        push = stack.append
        while stack:
            current, value, where = pop()
            if current is None:
                violation: Violation = value
                return violation
            kind = current.check(value)
            if kind is not None:
                return Violation(kind, _path(path, where), current.schema, value)
            if not current.deep:
                continue
            if isinstance(value, dict) or (not isinstance(value, list) and isinstance(value, Mapping)):
                for rank, key in enumerate(current.required):
                    if key not in value:
                        sub_schema = current.properties[key].schema if key in current.properties else {}
                        return Violation("required", _path(path, (where, key)), sub_schema, None, rank)
                props = current.properties
                extra = current.additional
                walks: list[_Frame] = []
                for key, child in value.items():
                    sub = props.get(key, extra)
                    if sub is None or sub.trivial:
                        continue
                    if sub.deep:
                        walks.append((sub, child, (where, key)))
                        continue
                    kind = sub.check(child)
                    if kind is not None:
                        push((None, Violation(kind, _path(path, (where, key)), sub.schema, child), None))
                        break
                walks.reverse()
                stack.extend(walks)
            elif isinstance(value, list):
                items = current.items
                if items is None or items.trivial:
                    continue
                if items.deep:
                    stack.extend((items, value[i], (where, i)) for i in range(len(value) - 1, -1, -1))
                    continue
                check = items.check
                for i, child in enumerate(value):
                    kind = check(child)
                    if kind is not None:
                        return Violation(kind, _path(path, (where, i)), items.schema, child)
        return None

    # -- full mode (jsonschema) ------------------------------------------------------------------

    def full_violations(self, document: Any) -> Iterator[Violation]:
        """Every violation ``jsonschema`` finds, in its own order."""
        if self._full is None:
            from jsonschema import Draft202012Validator

            self._full = Draft202012Validator(self.schema)
        for error in self._full.iter_errors(document):
            path = tuple(error.absolute_path)
            if error.validator == "required":
                instance = error.instance
                for rank, key in enumerate(error.validator_value):
                    if isinstance(instance, dict) and key not in instance:
                        sub = error.schema.get("properties", {}).get(key, {})
                        yield Violation("required", (*path, key), sub, None, rank)
                continue
            kind = str(error.validator)
            if kind not in ("type", "enum", "pattern", "minimum"):
                raise ValueError(f"unexpected schema keyword {kind!r} in a validation error")
            yield Violation(kind, path, error.schema, error.instance)

    def first_full_violation(self, document: Any) -> Violation | None:
        """The violation ``jsonschema`` finds that comes first in document order (see the module docstring)."""
        best: tuple[tuple[tuple[int, int], ...], Violation] | None = None
        for violation in self.full_violations(document):
            key = _order_key(document, violation)
            if best is None or key < best[0]:
                best = (key, violation)
        return None if best is None else best[1]


_KIND_RANK: Final = {"type": 0, "enum": 1, "pattern": 2, "minimum": 3}  # the order the compiled check tests them in


def _order_key(document: Any, violation: Violation) -> tuple[tuple[int, int], ...]:
    """Sort key of a violation: document positions along its path; see the module docstring."""
    key: list[tuple[int, int]] = []
    value = document
    steps = violation.path[:-1] if violation.kind == "required" else violation.path
    for step in steps:
        key.append((1, step if isinstance(step, int) else list(value).index(step)))
        value = value[step]
    if violation.kind == "required":
        key.append((0, violation.rank))  # missing keys before the object's members
    else:
        key.append((-1, _KIND_RANK[violation.kind]))  # the value itself before anything in it
    return tuple(key)


# -- a plan is not a state ------------------------------------------------------------------------


def check_kind(keys: Iterable[str], error: type[DocumentFormatError], source: str | None = None) -> None:
    """Refuse a state read as a plan, or a plan read as a state, from the document's top-level keys.

    A state has ``values`` and none of :data:`PLAN_KEYS`; a plan has one of them and no
    ``values``. Anything else (``{"format_version": "1.0"}``, an empty plan or state alike)
    is left to the schema.

    >>> check_kind(["format_version", "values"], PlanFormatError)
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: $: expected a plan (terraform show -json PLANFILE), found a state (a top-level "values" and none of a plan's keys): this is a state, not a plan (use load_state)
    >>> check_kind(["format_version", "values"], StateFormatError)
    """
    names = list(keys)
    has_values = "values" in names
    plan_keys = [name for name in names if name in _PLAN_KEY_SET]
    if issubclass(error, StateFormatError):
        if plan_keys and not has_values:
            raise error(
                "$", "a state (terraform show -json, or terraform show -json STATEFILE)",
                found=f"a plan (a top-level {json.dumps(plan_keys[0])} and no \"values\"): "
                "this is a plan, not a state (use load_plan)",
                source=source,
            )  # fmt: skip
    elif has_values and not plan_keys:
        raise error(
            "$", "a plan (terraform show -json PLANFILE)",
            found='a state (a top-level "values" and none of a plan\'s keys): '
            "this is a state, not a plan (use load_state)",
            source=source,
        )  # fmt: skip


# -- entry points ----------------------------------------------------------------------------------


@cache
def plan_validator() -> SchemaValidator:
    """The plan schema, compiled once.

    >>> plan_validator().first_violation({"format_version": "2.0"}).kind
    'pattern'
    """
    return SchemaValidator(load_schema("plan"))


@cache
def state_validator() -> SchemaValidator:
    """The state schema, compiled once.

    >>> state_validator().first_violation({"format_version": "1.0", "values": {"outputs": []}}).location
    '$.values.outputs'
    """
    return SchemaValidator(load_schema("state"))


def to_builtin(document: Any) -> Any:
    """A plain-dict copy of the object levels that are other Mappings (lazy documents), for ``jsonschema``."""
    if isinstance(document, Mapping) and not isinstance(document, dict):
        return {key: to_builtin(value) for key, value in document.items()}
    return document


def validate(
    validator: SchemaValidator,
    document: Any,
    error: type[DocumentFormatError],
    source: str | None = None,
    mode: str = "fast",
    readable: Callable[[], Any] | None = None,
) -> None:
    """Raise ``error`` if ``document`` is not what ``validator``'s schema describes: a ``show -json`` plan
    (:func:`plan_validator`, :class:`~plancheck.PlanFormatError`) or state (:func:`state_validator`,
    :class:`~plancheck.StateFormatError`) of format 0.x or 1.x. ``readable()`` reads the document whose secrets
    the error hides, where ``document`` is a view of it holding placeholders (see :func:`render_violation`).

    >>> import plancheck._documents  # the secret rule's owner, which clears a quoted value (see render_violation)
    >>> validate(plan_validator(), {"format_version": "1.2", "resource_changes": [{"address": "a.b", "change": {"actions": ["nop"]}}]}, PlanFormatError)
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: $.resource_changes[0].change.actions[0]: expected an action: one of "no-op", "create", "read", "update", "delete", "forget", found the string "nop"
    >>> validate(state_validator(), {"format_version": "1.0", "values": {"root_module": {"resources": [{}]}}}, StateFormatError)
    Traceback (most recent call last):
    ...
    plancheck.StateFormatError: $.values.root_module.resources[0].address: expected a resource address string, found no "address" key
    """
    if mode not in VALIDATION_MODES:
        raise mode_error(mode)
    if isinstance(document, Mapping):
        check_kind(document, error, source)
    if mode == "fast":
        violation = validator.first_violation(document)  # the quick test first: a valid document is not walked
    else:
        document = to_builtin(document)
        try:
            violation = validator.first_full_violation(document)
        except RecursionError:
            raise error(
                "$", "a document nested shallowly enough for the JSON Schema validator",
                found="deeper nesting", source=source,
            ) from None  # fmt: skip
    if violation is not None:
        raise render_violation(violation, document, validator.schema, error, source, readable=readable)


def mode_error(validation: str) -> ArgumentError:
    """The error for an unknown ``validation`` mode, listing the modes (each entry point refuses one
    before it reads anything).

    >>> raise mode_error("quick")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: validation must be one of fast, full, got 'quick'
    """
    return ArgumentError(f"validation must be one of {', '.join(VALIDATION_MODES)}, got {validation!r}")
