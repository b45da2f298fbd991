"""Collecting the secret strings of a document, to scrub them from every message."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from itertools import repeat
from operator import is_
from typing import Any, Final, Protocol

from tfjsonpath import MapStep, Path, PathNotFoundError, SliceStep, Step, Traverse

from .._errors import DocumentFormatError, PlanFormatError, StateFormatError
from .._loading.collector import collector_off
from .._loading.jsontext import spelled_alike
from .._loading.lazy import LazyObject
from .._loading.validate import register_secret_test
from .._redact import Marks, Secrets, collect_secret_strings, contains_sensitive, fit_marks
from .._text import config_parts

__all__ = [
    "HasSecrets",
    "address_parses",
    "collect_marked",
    "collect_plan_secrets",
    "collect_state_secrets",
    "configuration_may_hold_secrets",
    "list_start_secrets",
    "marked_strings",
    "marks_may_hold_secrets",
    "parse_cty_path",
    "secret_test",
    "secrets_of",
    "shown_address",
]

#: The containers a marks node can be: empty, it marks nothing.
_CONTAINERS: Final = (dict, list)
#: The kinds of a marks node that marks nothing when it is falsy: false, null, an empty container (a falsy ``0`` or
#: ``""`` fails closed, as marked).
_UNMARKED_TYPES: Final = frozenset({bool, type(None), dict, list})


def marked_strings(value: Any, marks: Marks) -> Iterator[str]:
    """Yield every distinct string of every value in ``value`` that lies under a ``true`` mark.

    The strings of a marked value are those of :func:`plancheck._redact.collect_secret_strings`
    (strings, object keys, every spelling of a number); the marks decide only which values.

    Marks that do not fit the value fail closed (:func:`plancheck._redact.fit_marks`): what they
    cover is collected.

    >>> sorted(marked_strings({"a": "x1x", "b": ["p", "q"]}, {"b": [False, True]}))
    ['q']
    >>> sorted(marked_strings({"tags": {"key-1": "v"}, "name": "n"}, {"tags": True}))
    ['key-1', 'v']
    >>> sorted(marked_strings({"a": "x1x", "b": "pw1", "c": ["q"]}, {"a": 1, "b": [True], "c": {"x": True}}))
    ['pw1', 'q', 'x1x']
    """
    found: set[str] = set()
    collect_marked([(value, marks)], found)
    return iter(found)


def collect_marked(roots: Iterable[tuple[Any, Marks]], found: set[str], *, parsed_json: bool = False) -> None:
    """Add to ``found`` what :func:`marked_strings` yields for each ``(value, marks)`` of ``roots``, in one walk.

    The walk every document's secrets take: a plan's (value, marks) pairs (its changes' sides, its
    states' resources, its sensitive variables and outputs) are gathered first, then walked together.
    ``parsed_json``: the values were parsed from JSON text, so every object's keys are strings, and the
    walk does not ask (a large plan's objects have two million keys).

    >>> found = set(); collect_marked([({"a": "x1x", "b": ["p", "q"]}, {"a": True, "b": [False, True]}), ("pw1", True)], found)
    >>> sorted(found)
    ['pw1', 'q', 'x1x']
    """
    # Only where the marks go: a subtree whose marks are absent, null or false holds nothing marked,
    # so the walk follows the marks tree (much smaller than the values) and collects whole marked subtrees.
    # A large plan marks tens of thousands of plain strings: those are added where they are met. Most of its
    # marks nodes are `{}`, `[]` and `[false, ...]` (the skeleton of every block and list): those are not pushed.
    # A marks node that is falsy but no container (0, "") is pushed and fails closed (fit_marks), as any other.
    add = found.add
    stack: list[tuple[Any, Marks]] = list(roots)
    pop, push = stack.pop, stack.append
    while stack:
        val, mk = pop()
        if mk is None or mk is False:
            continue
        kind = type(val)
        if (kind is dict or kind is list) and type(mk) is kind:
            pass  # object (array) marks over an object (array), as parsers build them: they fit (the hot cases)
        elif mk is not True:
            mk = fit_marks(mk, val)
        if mk is True:
            if kind is str:
                add(val)
            elif val is not None and kind is not bool:  # null and bools, common under marks, show nothing
                collect_secret_strings(val, found)
        elif mk is None or mk is False:
            continue
        elif kind is dict or isinstance(val, Mapping):
            if type(mk) is not dict and not isinstance(mk, Mapping):
                continue
            if not parsed_json and not all(map(isinstance, val, repeat(str))) and contains_sensitive(mk):
                # JSON keys are strings: marks cannot name another key, so what it holds fails closed.
                for k, v in val.items():
                    if not isinstance(k, str):
                        push((v, True))
            for k, child in mk.items():  # the common nodes first: true, then those that mark nothing
                if child is True:
                    if k in val:
                        if type(v := val[k]) is str:
                            add(v)
                        else:
                            push((v, True))
                elif not child:
                    # false, null, an empty object or array of marks mark nothing; 0 or "" fails closed
                    if child is not None and child is not False and type(child) not in _CONTAINERS and k in val:
                        push((val[k], child))
                elif type(child) is list and all(map(is_, child, repeat(False))):
                    continue  # nor does an array of false (a list attribute's marks, the common case)
                elif k in val:
                    push((val[k], child))
        elif kind is list or isinstance(val, list):
            if not isinstance(mk, list):
                continue  # object marks over an array that hold no mark (fit_marks kept none)
            for i, child in enumerate(mk[: len(val)]):
                if child is not None and child is not False and (child or type(child) not in _CONTAINERS):
                    push((val[i], child))


def _module_roots(config: Mapping[str, Any], values: Any, roots: list[tuple[Any, Marks]]) -> None:
    """Add to ``roots`` the value of every sensitive variable and output of every module of ``config`` (a plan's
    ``configuration``) that the plan shows: a root module variable's as the plan's ``variables`` (``values``) give
    it, and every module's as the configuration shows it (a variable's default and what its call passes, an
    output's expression: :func:`_expression_values`). A child module's variables and outputs have no entry in
    ``variables`` or ``output_changes``: copied unmarked (a ``for_each`` key, through ``nonsensitive``), their
    values showed in clear.
    """
    given: Any = values if isinstance(values, Mapping) else {}
    # Each module with the values each of its variables may take: the root's the plan's variables, each child's
    # what its call passes.
    root = {name: [value.get("value")] for name, value in given.items() if isinstance(value, Mapping)}
    # With the modules above each (by id): a document given as Python values may hold a module inside itself, and
    # may share one module's mapping between two calls, each passing its own values (so each is walked).
    modules: list[tuple[Any, dict[str, list[Any]], frozenset[int]]] = [(config.get("root_module"), root, frozenset())]
    while modules:
        module, taken, above = modules.pop()
        if not isinstance(module, Mapping) or id(module) in above:
            continue
        above |= {id(module)}
        variables = module.get("variables")
        for name, variable in variables.items() if isinstance(variables, Mapping) else ():
            # A "sensitive" that is not false or null ("true", 1) fails closed.
            if isinstance(variable, Mapping) and contains_sensitive(variable.get("sensitive")):
                roots.append((variable.get("default"), True))
                roots.extend((value, True) for value in taken.get(name, ()))
        outputs = module.get("outputs")
        for output in outputs.values() if isinstance(outputs, Mapping) else ():
            if isinstance(output, Mapping) and contains_sensitive(output.get("sensitive")):
                roots.extend((value, True) for value in _expression_values(output.get("expression"), taken, {}))
        calls = module.get("module_calls")
        for call in calls.values() if isinstance(calls, Mapping) else ():
            if isinstance(call, Mapping):
                modules.append((call.get("module"), _call_values(call, taken), above))


def _call_values(call: Mapping[str, Any], taken: Mapping[str, list[Any]]) -> dict[str, list[Any]]:
    """The values a module call may give each variable of its module (:func:`_expression_values`), ``taken`` being
    those of the calling module's variables; ``each.key`` and ``each.value`` are the keys and values of what its
    ``for_each`` may be."""
    expressions = call.get("expressions")
    if not isinstance(expressions, Mapping):
        return {}
    each: dict[str, list[Any]] = {"each.key": [], "each.value": []}
    for collection in _expression_values(call.get("for_each_expression"), taken, {}):
        if isinstance(collection, Mapping):
            each["each.key"].extend(collection)
            each["each.value"].extend(collection.values())
        elif isinstance(collection, list):  # a set of strings: each key is its value
            each["each.key"].extend(collection)
            each["each.value"].extend(collection)
        else:  # a variable the for_each is computed from (toset([var.name])): its value may be a key and a value
            each["each.key"].append(collection)
            each["each.value"].append(collection)
    return {name: _expression_values(expression, taken, each) for name, expression in expressions.items()}


def _expression_values(expression: Any, taken: Mapping[str, list[Any]], each: Mapping[str, list[Any]]) -> list[Any]:
    """The values an expression of a module's configuration may have, as far as the plan shows them: its constant, and
    those of the module's variables (``taken``) and of ``each`` it references (``var.pw``, ``each.value``). What it
    computes from them, a local value or another module's output is not in the plan's configuration: not read.
    """
    if not isinstance(expression, Mapping):
        return []
    found = [expression["constant_value"]] if "constant_value" in expression else []
    references = expression.get("references")
    for reference in references if isinstance(references, list) else ():
        if isinstance(reference, str):
            found.extend(taken.get(reference[4:], ()) if reference.startswith("var.") else each.get(reference, ()))
    return found


def _same(a: Any, b: Any) -> bool:
    # A skimmed state's resource holds its change's very side (LazyObject.skim): no need to compare. Otherwise
    # equal is not enough: a state's `1E+3` (`1.0`) under its change's `1000` (`1`) has a spelling of its own,
    # which a message may show, so it is the same value only if it is written alike.
    return a is b or spelled_alike(a, b)


def _state_roots(
    state_values: Any, roots: list[tuple[Any, Marks]], known: Mapping[str, Any] | None = None, side: str = ""
) -> None:
    """Add to ``roots`` the (value, marks) pairs of a state ``values`` object: sensitive outputs and resources'
    values with their sensitive_values.

    ``known`` maps addresses to the resource changes already gathered: a resource whose values and
    marks equal its change's ``side`` (a plan's planned values repeat its changes' ``after``) holds
    no secret they did not, and an equality test runs at C speed where a walk would not.
    """
    if not isinstance(state_values, Mapping):
        return
    outputs = state_values.get("outputs")
    if isinstance(outputs, Mapping):
        for out in outputs.values():
            if isinstance(out, Mapping) and contains_sensitive(out.get("sensitive")):
                roots.append((out.get("value"), True))
    for res in _state_resources(state_values):
        values, marks = res.get("values"), res.get("sensitive_values")
        address = res.get("address")
        change = known.get(address) if known is not None and isinstance(address, str) else None
        if (
            isinstance(change, Mapping)
            and _same(values, change.get(side))
            and _same(marks, change.get(f"{side}_sensitive"))
        ):
            continue
        roots.append((values, marks))


def _state_resources(state_values: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every resource object of a state ``values`` object, its modules' included (what is not an object, skipped).

    >>> [r["address"] for r in _state_resources({"root_module": {"resources": [{"address": "a.b"}, 1],
    ...     "child_modules": [{"resources": [{"address": "module.m.c.d"}]}]}})]
    ['a.b', 'module.m.c.d']
    """
    modules = [state_values.get("root_module")]
    while modules:
        module = modules.pop()
        if not isinstance(module, Mapping):
            continue
        for res in module.get("resources") or ():
            if isinstance(res, Mapping):
                yield res
        modules.extend(module.get("child_modules") or ())


#: The (values, marks) key pairs of a change: its two sides.
_CHANGE_SIDES: Final = (("before", "before_sensitive"), ("after", "after_sensitive"))
#: Where a plan holds (values, marks) pairs: each section (a list, or an object of entries), the keys that lead
#: from an entry to what holds the pairs, and their key pairs. Its states (planned values, prior state) apart.
_PLAN_ROOTS: Final = (
    ("resource_changes", ("change",), _CHANGE_SIDES),
    ("resource_drift", ("change",), _CHANGE_SIDES),
    ("deferred_changes", ("resource_change", "change"), _CHANGE_SIDES),
    ("output_changes", (), _CHANGE_SIDES),
    ("action_invocations", (), (("config_values", "config_sensitive"),)),
    ("deferred_action_invocations", ("action_invocation",), (("config_values", "config_sensitive"),)),
)


def collect_plan_secrets(document: Mapping[str, Any]) -> Secrets:
    """Every secret string of a plan document: every (value, marks) pair the plan holds, gathered, then one walk
    of them all (:func:`collect_marked`). A plan asks this once, when a failure first needs its secrets
    (:attr:`plancheck.Plan.secrets`); its configuration's names, trusted, are asked only when a scrub finds a secret.

    >>> doc = {"variables": {"pw": {"value": "hunter2"}},
    ...        "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}
    >>> "hunter2" in collect_plan_secrets(doc)
    True
    >>> collect_plan_secrets({"resource_changes": [{"address": "a.b", "change": {"after": {"pw": "p1x", "x": "y"},
    ...     "after_sensitive": {"pw": True}}}], "output_changes": {"o": {"before": "o1x", "before_sensitive": True}}}).ordered
    ('o1x', 'p1x')
    """
    # The walk allocates many short-lived tuples and no cycle: a collection it triggered would
    # traverse the whole parsed plan for nothing (a third of the walk's time on a large plan).
    with collector_off():
        roots: list[tuple[Any, Marks]] = []
        config = document.get("configuration")
        if isinstance(config, Mapping):
            _module_roots(config, document.get("variables"), roots)
        for section, steps, sides in _PLAN_ROOTS:
            entries = document.get(section) or ()
            for entry in entries.values() if isinstance(entries, Mapping) else entries:
                for step in steps:
                    entry = entry.get(step) if isinstance(entry, Mapping) else None
                if isinstance(entry, Mapping):
                    roots.extend((entry.get(values), entry.get(marks)) for values, marks in sides)
        # A state's resource equal to its current change's side holds no secret the change did not.
        current: dict[str, Any] = {}
        for rc in document.get("resource_changes") or ():
            if isinstance(rc, Mapping) and not rc.get("deposed") and isinstance(rc.get("address"), str):
                change = rc.get("change")
                if isinstance(change, Mapping):
                    current[rc["address"]] = change
        # A plan loaded lazily reads its states without parsing the resources whose values and marks are the very
        # text of their current change's side (LazyObject.skim: those are the change's parsed side); otherwise, and
        # whenever that cannot prove a state sound, the state is read, and raises what reading it raises.
        states: dict[str, Any] = {}
        for key in ("planned_values", "prior_state"):
            skimmed = document.skim(key, current) if isinstance(document, LazyObject) else None
            states[key] = document.get(key) if skimmed is None else skimmed
        planned, prior = states["planned_values"], states["prior_state"]
        _state_roots(planned, roots, current, "after")
        if isinstance(prior, Mapping):
            _state_roots(prior.get("values"), roots, current, "before")
        found: set[str] = set()
        collect_marked(roots, found, parsed_json=isinstance(document, LazyObject))  # only JSON text is read lazily
        return Secrets(found, partial(_config_names, document, (planned, prior)))


def configuration_may_hold_secrets(config: Mapping[str, Any]) -> bool:
    """Whether a plan's ``configuration`` declares a sensitive variable or output in any module: with
    :func:`marks_may_hold_secrets`, False only when :func:`collect_plan_secrets` finds no secret, told without a value
    walked. What it says is the same for every plan of one configuration: a reader of many asks once.

    >>> configuration_may_hold_secrets({"root_module": {"outputs": {"o": {"sensitive": False}}}})
    False
    >>> configuration_may_hold_secrets({"root_module": {"module_calls": {"c": {"module": {"variables": {"pw": {"sensitive": True}}}}}}})
    True
    """
    roots: list[tuple[Any, Marks]] = []
    _module_roots(config, None, roots)
    return bool(roots)


def marks_may_hold_secrets(document: Mapping[str, Any]) -> bool:
    """Whether any (value, marks) pair of a plan ``document`` is marked (with :func:`configuration_may_hold_secrets`, what
    decides whether a plan's secrets need collecting).

    >>> marks_may_hold_secrets({"planned_values": {"root_module": {"resources": [{"sensitive_values": {"pw": True}}]}}})
    True
    >>> marks_may_hold_secrets({"resource_changes": [{"change": {"after_sensitive": {"tags": {}}, "before_sensitive": False}}],
    ...                         "output_changes": {"o": {"after_sensitive": False}}})
    False
    """
    for section, steps, sides in _PLAN_ROOTS:
        entries = document.get(section) or ()
        for entry in entries.values() if isinstance(entries, Mapping) else entries:
            for step in steps:
                entry = entry.get(step) if type(entry) is dict or isinstance(entry, Mapping) else None
            if type(entry) is dict or isinstance(entry, Mapping):  # a parsed document's objects are dicts
                for _, key in sides:
                    marks = entry.get(key)
                    # Most marks (false, null, an empty object) are answered here, without a call.
                    if (marks or type(marks) not in _UNMARKED_TYPES) and contains_sensitive(marks):
                        return True
    prior = document.get("prior_state")
    states = (document.get("planned_values"), prior.get("values") if isinstance(prior, Mapping) else None)
    return any(_state_marked(state) for state in states if isinstance(state, Mapping))


def _state_marked(state: Mapping[str, Any]) -> bool:
    """Whether a state ``values`` object has a sensitive output or a resource with a mark (:func:`marks_may_hold_secrets`)."""
    outputs = state.get("outputs")
    for out in outputs.values() if isinstance(outputs, Mapping) else ():
        if isinstance(out, Mapping) and contains_sensitive(out.get("sensitive")):
            return True
    modules = [state.get("root_module")]
    while modules:
        module = modules.pop()
        if not (type(module) is dict or isinstance(module, Mapping)):
            continue
        for res in module.get("resources") or ():
            if type(res) is dict or isinstance(res, Mapping):
                marks = res.get("sensitive_values")
                if (marks or type(marks) not in _UNMARKED_TYPES) and contains_sensitive(marks):
                    return True
        modules.extend(module.get("child_modules") or ())
    return False


def _config_names(document: Mapping[str, Any], states: tuple[Any, Any] | None = None) -> set[str]:
    """The configuration's names a document shows: its addresses without instance keys, its outputs and variables.

    ``states`` are its planned values and prior state as its secret collection read them (else the document's).

    Trusted by the document's secrets (:meth:`plancheck.Secrets.trusting`): a short secret that is
    part of a name (``tags`` in ``terraform_data.tags``) is kept there, and scrubbed as a value.

    >>> sorted(_config_names({"resource_changes": [{"address": 'module.m["k"].t.n[0]'}], "output_changes": {"o1": {}},
    ...                       "variables": {"region": {}}}))
    ['module.m', 'output.o1', 't.n', 'var.region']
    """
    addresses: set[str] = set()
    # A deferred resource is named in messages as any other (ExpectDeferredChange lists them).
    deferred = [entry.get("resource_change") for entry in document.get("deferred_changes") or () if isinstance(entry, Mapping)]
    for rc in [*(document.get("resource_changes") or ()), *(document.get("resource_drift") or ()), *deferred]:
        if isinstance(rc, Mapping) and isinstance(rc.get("address"), str):
            addresses.add(rc["address"])
    planned, prior = (document.get("planned_values"), document.get("prior_state")) if states is None else states
    for state in (planned, prior.get("values") if isinstance(prior, Mapping) else None):
        _state_addresses(state, addresses)
    addresses.update(a["address"] for a in _action_invocations(document) if isinstance(a.get("address"), str))
    names = {part for address in addresses for part in config_parts(address)}
    for key, prefix in (("output_changes", "output."), ("variables", "var.")):
        found = document.get(key)
        if isinstance(found, Mapping):
            names.update(prefix + name for name in found if isinstance(name, str))
    return names


def _state_addresses(state_values: Any, addresses: set[str]) -> None:
    if not isinstance(state_values, Mapping):
        return
    addresses.update(res["address"] for res in _state_resources(state_values) if isinstance(res.get("address"), str))


def _action_invocations(document: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every action invocation of a plan (Terraform 1.14+), the deferred ones' included.

    >>> [a["address"] for a in _action_invocations({"action_invocations": [{"address": "action.t.a"}],
    ...     "deferred_action_invocations": [{"action_invocation": {"address": "action.t.b"}}, 1]})]
    ['action.t.a', 'action.t.b']
    """
    for invocation in document.get("action_invocations") or ():
        if isinstance(invocation, Mapping):
            yield invocation
    for deferred in document.get("deferred_action_invocations") or ():
        invocation = deferred.get("action_invocation") if isinstance(deferred, Mapping) else None
        if isinstance(invocation, Mapping):
            yield invocation


def collect_state_secrets(document: Mapping[str, Any]) -> Secrets:
    """Every secret string of a state document (``terraform show -json`` of a state), in one walk: a state asks
    this once, when a failure first needs its secrets, as a plan does (:func:`collect_plan_secrets`).

    >>> doc = {"values": {"outputs": {"pw": {"value": "hunter2", "sensitive": True}}}}
    >>> "hunter2" in collect_state_secrets(doc)
    True
    """
    # As a plan's walk (and the scanner built of what it finds): no cycle is made, and a collection set off would
    # traverse the whole parsed state for nothing.
    with collector_off():
        roots: list[tuple[Any, Marks]] = []
        _state_roots(document.get("values"), roots)
        found: set[str] = set()
        collect_marked(roots, found)
        return Secrets(found, partial(_state_names, document))


def _state_names(document: Mapping[str, Any]) -> set[str]:
    """A state's configuration names: its addresses without instance keys, and its outputs."""
    addresses: set[str] = set()
    _state_addresses(document.get("values"), addresses)
    names = {part for address in addresses for part in config_parts(address)}
    values = document.get("values")
    outputs = values.get("outputs") if isinstance(values, Mapping) else None
    if isinstance(outputs, Mapping):
        names.update("output." + name for name in outputs if isinstance(name, str))
    return names


def _nested(at: tuple[str | int, ...], value: Any) -> Any:
    """``value`` placed at ``at`` in an otherwise empty document (an entry checked alone, for its secrets)."""
    for step in reversed(at):
        value = [value] if isinstance(step, int) else {step: value}
    return value


_CTY_STEP = re.compile(r'\.([^.\[\]"]+)|\[("(?:[^"\\]|\\.)*")\]|\[(0|[1-9][0-9]*)\]')


def parse_cty_path(text: str) -> Path | None:
    """A path as Terraform prints it in ``sensitive_attribute_paths`` (``.a["k"][0]``), or None if it is not one.

    >>> parse_cty_path('.tags["secret"]'), parse_cty_path(".list[1]"), parse_cty_path(".config_block.token")
    (Path(MapStep('tags'), MapStep('secret')), Path(MapStep('list'), SliceStep(1)), Path(MapStep('config_block'), MapStep('token')))
    >>> parse_cty_path("tags[") is None
    True
    """
    steps: list[Step] = []
    pos = 0
    while pos < len(text):
        match = _CTY_STEP.match(text, pos)
        if match is None:
            return None
        name, quoted, index = match.groups()
        if name is not None:
            steps.append(MapStep(name))
        elif quoted is not None:
            try:
                key = json.loads(quoted)
            except ValueError:
                return None
            steps.append(MapStep(key))
        else:
            steps.append(SliceStep(int(index)))
        pos = match.end()
    return Path(*steps)


def list_start_secrets(body: Mapping[str, Any]) -> Iterator[str]:
    """Every string under a sensitive attribute path of the ``input_config`` of a ``list_start`` message's ``body``
    (all of it, if a path is unreadable): the query output's secrets (:attr:`plancheck.querycheck.QueryOutput.secrets`).

    >>> sorted(list_start_secrets({"input_config": {"t": {"k": "v-secret"}, "n": "x"}, "sensitive_attribute_paths": ['.t["k"]']}))
    ['v-secret']
    """
    config = body.get("input_config")
    for text in body.get("sensitive_attribute_paths") or ():
        path = parse_cty_path(text)
        if path is None:
            yield from marked_strings(config, True)
            return
        try:
            value = Traverse(config, path)
        except PathNotFoundError:
            continue
        yield from marked_strings(value, True)


def _query_secrets(document: Any) -> Secrets:
    """The secrets of query output: ``document`` is one message (a schema error's), or every message of the output (a
    location's in a line broken inside a value, :func:`plancheck._loading.query.read_query`)."""
    messages = document if isinstance(document, list) else [document]
    return Secrets(
        text
        for message in messages
        if isinstance(message, Mapping) and message.get("type") == "list_start" and isinstance(message.get("list_start"), Mapping)
        for text in list_start_secrets(message["list_start"])
    )


def secret_test(error: type[DocumentFormatError], document: Any, at: tuple[str | int, ...]) -> Callable[[str], bool]:
    """The test whether a text a schema error would show from ``document`` (found at ``at`` in its whole document,
    which failed to load: a quoted value, a location's key) shows a secret of it: its secrets gathered once, as a
    loaded one's are, from what was read. An entry checked alone gives only its own secrets. Registered with
    :mod:`plancheck._loading.validate`, which hides the text when this raises (marks no walk foresaw: failing closed).

    >>> shows = secret_test(PlanFormatError, {"variables": {"pw": {"value": "hunter2"}}, "configuration":
    ...     {"root_module": {"variables": {"pw": {"sensitive": True}}}}}, ())
    >>> shows("hunter2"), shows("9")
    (True, False)
    """
    whole = _nested(at, document)
    if issubclass(error, StateFormatError):
        secrets = collect_state_secrets(whole)
    elif issubclass(error, PlanFormatError):
        secrets = collect_plan_secrets(whole)
    else:  # query output's: a list block's sensitive input
        secrets = _query_secrets(whole)
    return lambda text: secrets.scrub(text) != text  # shown as every secret is where the user asked to see them


register_secret_test(secret_test)


# -- addresses as shown: a document's secrets, kept out of its instance keys

#: A string instance key of an address (``["..."]``, JSON-escaped inside).
_INSTANCE_KEY = re.compile(r'\["((?:[^"\\]|\\.)*)"\]')
#: What an address holds outside its names (configuration text) once its instance keys are taken out: indexes.
_INDEX: Final = re.compile(r"\[[0-9]+\]")


def address_parses(address: str) -> bool:
    """Whether ``address``'s brackets and quotes read as Terraform writes them: indexes and quoted instance keys,
    each closed. Only then are its parts outside the keys names (configuration text, shown as they are by
    :func:`shown_address`); a key left open (a hand-made plan's) would pass for a name.

    >>> address_parses('module.m[0].aws_thing.z["k"]'), address_parses('aws_thing.z["k"')
    (True, False)
    """
    rest = _INDEX.sub("", _INSTANCE_KEY.sub("", address))
    return not any(mark in rest for mark in '[]"')


def shown_address(address: str, secrets: Secrets | HasSecrets, *, scrub: Callable[[str], str] | None = None) -> str:
    """``address`` as it may be shown to a user: every secret in its instance keys as ``(sensitive)``.

    An address can hold a secret: a ``for_each`` key (of a resource or of a module, as in
    ``module.m["key"]``) made from a sensitive value whose mark was dropped (``nonsensitive()``).
    Only the keys are scrubbed: module, type and resource names come from the configuration's text,
    never from a value, so a name that happens to contain a secret's characters stays readable.
    Every address plancheck shows (reprs, errors, suggestions, failures, ``tfplancheck query``)
    goes through here, with the secrets of its document. Looking an address up takes it as it is.
    ``scrub`` replaces ``secrets.scrub`` for the keys (a snapshot's, which remembers each key's answer).
    Given a document (a plan, a state) for ``secrets``, it asks for their secrets only for an address with a key.
    An address that does not parse (:func:`address_parses`: a hand-made document's key left open) has no part
    known to be a name: all of it is scrubbed.

    >>> shown_address('null_resource.fe["hunter2-secret"]', Secrets(["hunter2-secret"]))
    'null_resource.fe["(sensitive)"]'
    >>> shown_address('module.web["prod"].aws_instance.web', Secrets(["web"]))
    'module.web["prod"].aws_instance.web'
    >>> shown_address('aws_instance.a["hunter2-secret', Secrets(["hunter2-secret"]))
    'aws_instance.a["(sensitive)'
    """
    if "[" not in address:  # most addresses: no instance key
        return address
    known = secrets_of(secrets)
    if not len(known):
        return address
    shown = known.scrub if scrub is None else scrub
    if not address_parses(address):  # the key pattern below would pass over an open key, secret and all
        return shown(address)
    return _INSTANCE_KEY.sub(lambda m: '["' + shown(m.group(1)) + '"]', address)


class HasSecrets(Protocol):
    """A document (a Plan, a State): what knows the secrets its parts must not show.

    >>> from plancheck import Plan
    >>> isinstance(Plan.from_dict({"format_version": "1.0"}).secrets, Secrets)
    True
    """

    @property
    def secrets(self) -> Secrets:
        """Every secret string of the document."""


def secrets_of(source: Secrets | HasSecrets) -> Secrets:
    """The secrets ``source`` is, or those of the document it is, asked for now: a document collects its
    secrets (a walk of all of it) when first asked, so a helper given one asks only when it has a failure to
    scrub, and a check that passes walks nothing.

    >>> from plancheck import Plan
    >>> secrets_of(Secrets(["hunter2"])) == Secrets(["hunter2"]), secrets_of(Plan.from_dict({"format_version": "1.0"}))
    (True, <Secrets: 0 values>)
    """
    return source if isinstance(source, Secrets) else source.secrets
