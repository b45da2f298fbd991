"""What a session's plans and checks exercised of each module, as data that merges in any order.

A plan's ``configuration`` names every module it used (the root and each ``module_calls`` child) and
what each declares; a module whose directory is known (the root when the plan was made from a
directory, a local child below it) is also scanned (:mod:`.scan`) for its ``check`` blocks, its
conditions and their lines. Each module is keyed by its directory relative to the rootdir, or, not
local, by its source string; an item by its configuration address from the plan's root without
instance keys (``module.net.terraform_data.b``). What was planned and with which actions comes from
the plan's resource changes, planned values and output changes; the conditions' outcomes from its
``checks`` section (Terraform 1.5+: an object whose every instance passed passed all its conditions;
one that failed failed its only condition, and nothing is guessed when it has several) and from the
diagnostics an acceptance step expected, each located in exactly one condition block by its file and line
(:meth:`CoverageData.add_failures`); what was asserted from the checks that ran on it (:func:`.session.targets`), and
whether any check could address an item at all (:func:`assertable`) from its kind, address and what was seen of
it, so data written before that rule reads the same. Everything merges as a union, so shards combine to the
same data whatever order they finish in.
"""

from __future__ import annotations

import marshal
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from tfjsonpath import describe_json_type

from ..._documents.plan import Plan
from ..._documents.sensitive import configuration_may_hold_secrets, marks_may_hold_secrets
from ..._errors import DocumentFormatError
from ..._redact import Secrets

__all__ = [
    "DATA_FORMAT",
    "UNKNOWN_ROOT",
    "CoverageData",
    "CoverageDataError",
    "ItemData",
    "ModuleData",
    "assertable",
    "config_address",
    "counts",
    "percent",
    "percent_of",
]

#: What a data file says it is, and its version.
DATA_FORMAT: Final = "tfplancheck-coverage-data"
_VERSION: Final = 1
#: The key of a root module whose directory is not known (a plan loaded from a file).
UNKNOWN_ROOT: Final = "(unknown directory)"
#: The names an actions list is recorded as. A replacement whose old object is forgotten (``lifecycle { destroy = false
#: }``: Terraform 1.16's ``["create", "forget"]``, OpenTofu 1.12's ``["forget", "create"]``) destroys nothing, so it is
#: no ``replace``: it is a create and a forget, as ``ExpectResourceActions`` counts it.
_ACTION_NAMES: Final = {
    ("create",): ("create",), ("update",): ("update",), ("delete",): ("delete",), ("read",): ("read",),
    ("no-op",): ("no-op",), ("delete", "create"): ("replace",), ("create", "delete"): ("replace",),
    ("forget",): ("forget",), ("create", "forget"): ("create", "forget"), ("forget", "create"): ("create", "forget"),
}
_CHECK_KINDS: Final = {"var": "var.", "output_value": "output.", "check": "check."}
# The patterns below are compiled on first use (re's cache), not on import: most sessions never use them, and
# compiling one costs what reading a few plans does.
#: A module path followed by a dot: what may come before an item's module-relative address.
_MODULE_PATH: Final = r"^(?:module\.[^.]+\.)+\Z"
#: The module path an item's address starts with, followed by a dot.
_MODULE_PREFIX: Final = r"^((?:module\.[^.]+\.)*module\.[^.]+)\."
#: A module path of one plan: its module's data, its configuration, and the addresses it declares there.
_Seen = tuple["ModuleData", Mapping[str, Any], set[str]]


class CoverageDataError(DocumentFormatError):
    """A coverage data file that is not one: where, what was expected and what was found.

    >>> str(CoverageDataError("$.modules", "an object", found="a list", source=".tf-coverage"))
    '.tf-coverage: $.modules: expected an object, found a list'
    """

    kind = "coverage data"


def config_address(address: str) -> str:
    """``address`` without its instance keys: ``module.a["x"].t.b[0]`` is ``module.a.t.b``.

    >>> config_address('module.net["a]"].terraform_data.b[0]')
    'module.net.terraform_data.b'
    """
    if "[" not in address:
        return address
    out: list[str] = []
    i, n = 0, len(address)
    while i < n:
        c = address[i]
        if c != "[":
            out.append(c)
            i += 1
            continue
        i += 1
        while i < n and address[i] != "]":
            if address[i] == '"':
                i += 1
                while i < n and address[i] != '"':
                    i += 2 if address[i] == "\\" else 1
            i += 1
        i += 1
    return "".join(out)


class ItemData:
    """An accumulator: one declared item, what was seen of it, and its conditions' outcomes (kind:index -> seen)."""

    __slots__ = ("actions", "asserted", "conditions", "failed", "kind", "passed", "paths", "planned")

    def __init__(
        self, kind: str, planned: bool = False, actions: set[str] | None = None, asserted: bool = False,
        paths: set[str] | None = None, passed: set[str] | None = None, failed: set[str] | None = None,
        conditions: tuple[str, ...] = (),
    ) -> None:
        self.kind = kind
        self.planned = planned
        self.actions = set() if actions is None else actions
        self.asserted = asserted
        self.paths = set() if paths is None else paths
        self.passed = set() if passed is None else passed
        self.failed = set() if failed is None else failed
        self.conditions = conditions

    def merge(self, other: ItemData) -> None:
        """Add what ``other`` saw (a union; the declared conditions are the longer list)."""
        self.planned |= other.planned
        self.asserted |= other.asserted
        self.actions |= other.actions
        self.paths |= other.paths
        self.passed |= other.passed
        self.failed |= other.failed
        if len(other.conditions) > len(self.conditions):
            self.conditions = other.conditions


class ModuleData:
    """An accumulator: a module's items, whether its key is a local directory, whether a plan of it could say
    its conditions' outcomes (Terraform 1.5+), the files its scan could not read, and lines never to show (a sensitive
    variable's default, a line that shows a secret of a plan of the module)."""

    __slots__ = ("_data_items", "checks_available", "items", "local", "scan_errors", "withheld")

    def __init__(
        self, local: bool = False, checks_available: bool = False, items: dict[str, ItemData] | None = None,
        scan_errors: set[str] | None = None, withheld: dict[str, set[int]] | None = None,
    ) -> None:
        self.local = local
        self.checks_available = checks_available
        self.items = {} if items is None else items
        self.scan_errors = set() if scan_errors is None else scan_errors
        self.withheld = {} if withheld is None else withheld
        #: (how many items there were, whether one was a data source) when last asked: see :meth:`has_data`.
        self._data_items = (0, False)

    def has_data(self) -> bool:
        """Whether one of the items is a data source: asked of the items again only when there are more of them (an
        item is never removed, nor its kind changed)."""
        count, found = self._data_items
        if count != len(self.items):
            found = any(item.kind == "data" for item in self.items.values())
            self._data_items = (len(self.items), found)
        return found

    def item(self, address: str, kind: str) -> ItemData:
        found = self.items.get(address)
        if found is None:
            found = self.items[address] = ItemData(kind)
        return found


class CoverageData:
    """Every module's coverage data: built from plans and checks, merged, written to and read from JSON.

    >>> data = CoverageData()
    >>> data.add_plan(Plan.from_dict({"format_version": "1.2", "configuration": {"root_module": {
    ...     "resources": [{"address": "t.a", "mode": "managed", "type": "t", "name": "a"}]}},
    ...     "resource_changes": [{"address": "t.a", "mode": "managed", "type": "t", "name": "a",
    ...                           "change": {"actions": ["create"]}}]}), None, Path("."))
    >>> item = data.modules[UNKNOWN_ROOT].items["t.a"]
    >>> item.planned, item.actions
    (True, {'create'})
    """

    def __init__(self) -> None:
        self.modules: dict[str, ModuleData] = {}
        #: A directory's scan, once: (address, kind, condition keys, file, withheld lines) per item, and its errors.
        self._scans: dict[Path, tuple[
            list[tuple[str, str, tuple[str, ...], str, tuple[int, ...]]], tuple[str, ...], tuple[tuple[str, tuple[int, ...]], ...]
        ]] = {}
        #: A directory's scanned items, once (their condition blocks' lines locate a diagnostic).
        self._declared: dict[Path, tuple[Any, ...]] = {}
        #: The last configuration walked for each (module key, directory, rootdir, outcomes available), with what its
        #: plans recorded: a session's plans of one module repeat its configuration, and walking an equal one again
        #: changes no data (see :meth:`_walked`).
        self._walks: dict[tuple[str, Path | None, Path, bool], _Walked] = {}
        #: Each absolute directory plans were made from (and rootdir): resolved, and its module's key.
        self._directories: dict[tuple[str | bytes, Path], tuple[Path, str]] = {}
        #: The lines of a directory's files that show one of a set of secrets, per file: found once per set.
        self._secret_lines: dict[tuple[Path, Secrets], dict[str, set[int]]] = {}

    def module(self, key: str) -> ModuleData:
        found = self.modules.get(key)
        if found is None:
            found = self.modules[key] = ModuleData()
        return found

    # -- from a plan ------------------------------------------------------------------------------

    def add_plan(
        self, plan: Plan, directory: str | os.PathLike[str] | None, rootdir: Path,
        asserted: Iterable[tuple[str, str, str | None]] = (),
    ) -> None:
        """Record what ``plan`` (made from ``directory`` when known) planned, and the ``asserted`` targets of its checks."""
        raw = plan.raw
        configuration = raw.get("configuration")
        root = configuration.get("root_module") if isinstance(configuration, Mapping) else None
        available = "checks" in raw or _at_least(raw.get("terraform_version"), (1, 5))
        base, key = self._located(directory, rootdir)
        walked = self._walked(root if isinstance(root, Mapping) else {}, key, base, rootdir, available)
        instances, same_changes = _planned(plan, walked)
        if walked.directories and (walked.sensitive or _marks_hold(raw, walked, same_changes)):
            self._withhold(plan.secrets, walked.directories)
        _declared_planned(walked, instances)
        checks = raw.get("checks")
        if walked.checks is None or not _equal(walked.checks[0], checks):
            # Kept when every entry found its item (one not found may be declared by a later walk of its module).
            walked.checks = _copied(checks) if self._checks(checks, walked.paths) else None
        done = walked.asserted
        # Only the targets not recorded yet (a set's difference: a session's plans repeat their checks' targets).
        for target in set(asserted).difference(done):
            kind, address, path_text = target
            item = _asserted(kind, address, walked.paths)
            if item is not None:
                item.asserted = True
                if path_text:
                    item.paths.add(path_text)
                done.add(target)

    def _withhold(self, secrets: Secrets, directories: Mapping[Path, ModuleData]) -> None:
        """Mark withheld every line of the local modules' files that shows one of a plan's ``secrets``: a literal
        under ``sensitive()``, passed to a child's sensitive variable, given to a sensitive output or to an attribute
        the provider marks sensitive. So the data (a worker's, a file ``coverage combine`` reads) carries what the
        HTML report must withhold, and no report needs the plans, gone by then, to scrub it."""
        if not secrets:
            return
        for directory, module in directories.items():
            found = self._secret_lines.get((directory, secrets))
            if found is None:
                found = self._secret_lines[(directory, secrets)] = _lines_showing(directory, secrets)
            for file, lines in found.items():
                module.withheld.setdefault(file, set()).update(lines)

    def _located(self, directory: str | os.PathLike[str] | None, rootdir: Path) -> tuple[Path | None, str]:
        """A plan's directory resolved, and its module's key (:data:`UNKNOWN_ROOT` when not known); an absolute one
        resolved once (a session's plans of one module name its directory alike)."""
        if directory is None:
            return None, UNKNOWN_ROOT
        text = os.fspath(directory)
        located = self._directories.get((text, rootdir))
        if located is None:
            base = Path(text).resolve()
            located = (base, _relative(base, rootdir))
            if os.path.isabs(text):  # a relative one is resolved against the working directory, which may change
                self._directories[(text, rootdir)] = located
        return located

    def add_failures(
        self, directory: str | os.PathLike[str], rootdir: Path, located: Iterable[tuple[str, str, int]]
    ) -> None:
        """Record as seen failing each condition a Terraform diagnostic located: (condition kind, file relative to
        ``directory``, the configuration the step planned, and a line in it).

        Only a diagnostic whose line lies in exactly one condition block of its kind is recorded, and in a child
        module only when one module call of it was planned (the file does not say through which call); anything
        else is left, never guessed.
        """
        from .scan import locate

        base = Path(directory).resolve()
        for kind, file, line in located:
            path = (base / file).resolve()
            module_dir = path.parent
            if module_dir not in self._declared:
                # A plan of the module not read yet (Terraform before 1.5 writes none when planning fails): the
                # root's items are known from its files alone.
                if module_dir != base:
                    continue
                self._walk({}, _relative(base, rootdir), base, "", rootdir, {}, False)
            found = locate(self._declared.get(module_dir, ()), path.name, line, kind)
            if found is None:
                continue
            address, condition = found
            module = self.module(_relative(module_dir, rootdir))
            items = [
                item for name, item in module.items.items()
                if (name == address or (name.endswith("." + address) and re.match(_MODULE_PATH, name[:-len(address)])))
                and condition in item.conditions
            ]
            if len(items) == 1:
                items[0].failed.add(condition)

    def _walked(
        self, config: Mapping[str, Any], key: str, directory: Path | None, rootdir: Path, available: bool
    ) -> _Walked:
        """The module paths of a root module's ``config`` (:meth:`_walk`), walking it only when it is not equal to the
        last one walked with the same key, directory, rootdir and ``available``.

        Walking an equal configuration again is a no-op on the data: every module and item it would add is there
        (nothing is ever removed), the flags and sets it sets are unions of the same values, and an item's conditions
        are its directory's one scan. Only :meth:`merge` sets conditions otherwise: it forgets the walks. Equal (``==``)
        configurations walk alike: the walk reads names and sources only as strings and containers only by their
        kind, which equality keeps (a string equals only a string, a list only a list). What is walked and kept is a
        copy of plain JSON values (a plan's document is not copied: its owner may change it later); a configuration
        that is not plain JSON, or that cannot be compared, is walked every time.
        """
        cache_key = (key, directory, rootdir, available)
        cached = self._walks.get(cache_key)
        if cached is not None and _equal(cached.config, config):
            return cached
        kept = _copied(config)
        if kept is not None:
            config = kept[0]
        paths: dict[str, _Seen] = {}
        directories: dict[Path, ModuleData] = {}
        self._walk(config, key, directory, "", rootdir, paths, available, directories)
        walked = _Walked(config, paths, directories, configuration_may_hold_secrets({"root_module": config}))
        if kept is not None:
            self._walks[cache_key] = walked
        return walked

    def _walk(
        self, config: Mapping[str, Any], key: str, directory: Path | None, path: str, rootdir: Path,
        paths: dict[str, _Seen], available: bool, directories: dict[Path, ModuleData] | None = None,
    ) -> None:
        module = self.module(key)
        if directory is not None and directories is not None:
            directories[directory] = module
        module.local = module.local or directory is not None
        module.checks_available |= available
        declared: set[str] = set()
        paths[path] = (module, config, declared)
        prefix = path + "." if path else ""

        def add(address: str, kind: str) -> ItemData:
            declared.add(address)
            return module.item(address, kind)

        for resource in _list(config.get("resources")):
            mode, type_, name = resource.get("mode"), resource.get("type"), resource.get("name")
            # OpenTofu's configuration lists its ephemeral resources too: no item, as the scan of a .tf file makes
            # none (never planned, they were resources type.name that no plan could cover).
            if isinstance(type_, str) and isinstance(name, str) and mode != "ephemeral":
                data = mode == "data"
                add(f"{prefix}{'data.' if data else ''}{type_}.{name}", "data" if data else "resource")
        for name in _names(config.get("outputs")):
            add(f"{prefix}output.{name}", "output")
        for name in _names(config.get("variables")):
            add(f"{prefix}var.{name}", "variable")
        calls = config.get("module_calls")
        if directory is not None:
            self._declare(module, directory, prefix, add)
        for name in _names(calls):
            assert isinstance(calls, Mapping)
            call = calls[name]
            add(f"{prefix}module.{name}", "module")
            if not isinstance(call, Mapping) or not isinstance(call.get("module"), Mapping):
                continue
            source = call.get("source")
            source = source if isinstance(source, str) else "(no source)"
            child_dir: Path | None = None
            child_key = source
            if directory is not None and source.startswith(("./", "../")):
                child_dir = (directory / source).resolve()
                child_key = _relative(child_dir, rootdir)
            self._walk(
                call["module"], child_key, child_dir, f"{prefix}module.{name}", rootdir, paths, available, directories
            )

    def _declare(self, module: ModuleData, directory: Path, prefix: str, add: Callable[[str, str], ItemData]) -> None:
        scanned = self._scans.get(directory)
        if scanned is None:
            from .scan import scan_module  # only for a plan whose directory is known

            found = scan_module(directory)
            self._declared[directory] = found.items
            scanned = self._scans[directory] = ([
                (d.address, d.kind, tuple(f"{kind}:{i}" for kind, n in d.conditions for i in range(n)), d.file, d.withheld)
                for d in found.items
            ], found.errors, found.withheld)
        items, errors, withheld_of = scanned
        module.scan_errors.update(errors)
        for file, lines in withheld_of:
            module.withheld.setdefault(file, set()).update(lines)
        for address, kind, conditions, file, withheld in items:
            add(prefix + address, kind).conditions = conditions
            if withheld:
                module.withheld.setdefault(file, set()).update(withheld)

    def _checks(self, checks: Any, paths: Mapping[str, _Seen]) -> bool:
        """Record the outcomes of a plan's ``checks`` section; return whether every entry found its item."""
        complete = True
        for entry in _list(checks):
            address = entry.get("address")
            if not isinstance(address, Mapping):
                continue
            module_path = config_address(str(address.get("module") or ""))
            found = paths.get(module_path)
            kind, name = address.get("kind"), address.get("name")
            if found is None or not isinstance(name, str):
                continue
            prefix = module_path + "." if module_path else ""
            if kind == "resource":
                if address.get("mode") == "ephemeral":  # no item (see _resource), nor one to be found later
                    continue
                item = _resource(address, module_path, found)
            elif kind in _CHECK_KINDS:
                local = _CHECK_KINDS[str(kind)] + name
                item = found[0].items.get(prefix + local)
                if item is None and kind == "check":  # a check block of a module whose files were not scanned
                    item = found[0].item(prefix + local, "check")
            else:
                continue
            if item is None:
                complete = False
                continue
            if kind == "check":
                item.planned = True
            statuses = [i.get("status") for i in _list(entry.get("instances"))] or [entry.get("status")]
            for status in statuses:
                if status == "pass":
                    item.passed.update(item.conditions)
                elif status == "fail" and len(item.conditions) == 1:
                    item.failed.update(item.conditions)
        return complete

    # -- merging and files ------------------------------------------------------------------------

    def merge(self, other: CoverageData) -> None:
        """Add ``other``'s data to this one (a union: the order of merges does not matter)."""
        self._walks.clear()  # an item's conditions may change here: the next plan walks its configuration again
        for key, theirs in other.modules.items():
            mine = self.module(key)
            mine.local |= theirs.local
            mine.checks_available |= theirs.checks_available
            mine.scan_errors |= theirs.scan_errors
            for file, lines in theirs.withheld.items():
                mine.withheld.setdefault(file, set()).update(lines)
            for address, item in theirs.items.items():
                mine.item(address, item.kind).merge(item)

    def to_json(self) -> dict[str, Any]:
        """The data as a JSON value, every list sorted: equal data gives equal text."""
        return {"format": DATA_FORMAT, "version": _VERSION, "modules": {
            key: {
                "local": module.local, "checks_available": module.checks_available,
                "scan_errors": sorted(module.scan_errors),
                "withheld": {file: sorted(lines) for file, lines in sorted(module.withheld.items())},
                "items": {address: {
                    "kind": item.kind, "planned": item.planned, "actions": sorted(item.actions),
                    "asserted": item.asserted, "asserted_paths": sorted(item.paths), "conditions": list(item.conditions),
                    "passed": sorted(item.passed), "failed": sorted(item.failed),
                } for address, item in sorted(module.items.items())},
            } for key, module in sorted(self.modules.items())
        }}

    @classmethod
    def from_json(cls, value: Any, source: str | None = None) -> CoverageData:
        """Read data written by :meth:`to_json`; anything else is a :class:`CoverageDataError` saying where.

        >>> CoverageData.from_json({"format": "x"}, "a.json")
        Traceback (most recent call last):
        ...
        plancheck._plugin.coverage.data.CoverageDataError: a.json: $.format: expected "tfplancheck-coverage-data", found "x"
        """
        data = cls()
        top = _expect(value, dict, "$", "an object", source)
        if top.get("format") != DATA_FORMAT:
            raise CoverageDataError("$.format", f'"{DATA_FORMAT}"', found=_shown(top.get("format")), source=source)
        if top.get("version") != _VERSION:
            raise CoverageDataError("$.version", str(_VERSION), found=_shown(top.get("version")), source=source)
        for key, module in _expect(top.get("modules"), dict, "$.modules", "an object", source).items():
            where = f"$.modules[{_shown(key)}]"
            module = _expect(module, dict, where, "an object", source)
            found = data.module(key)
            found.local = _expect(module.get("local"), bool, f"{where}.local", "true or false", source)
            found.checks_available = _expect(
                module.get("checks_available"), bool, f"{where}.checks_available", "true or false", source
            )
            found.scan_errors = set(_strings(module.get("scan_errors"), f"{where}.scan_errors", source))
            for file, lines in _expect(module.get("withheld"), dict, f"{where}.withheld", "an object", source).items():
                found.withheld[file] = set(_ints(lines, f"{where}.withheld[{_shown(file)}]", source))
            for address, item in _expect(module.get("items"), dict, f"{where}.items", "an object", source).items():
                at = f"{where}.items[{_shown(address)}]"
                item = _expect(item, dict, at, "an object", source)
                kind = _expect(item.get("kind"), str, f"{at}.kind", "a string", source)
                found.items[address] = ItemData(
                    kind,
                    _expect(item.get("planned"), bool, f"{at}.planned", "true or false", source),
                    set(_strings(item.get("actions"), f"{at}.actions", source)),
                    _expect(item.get("asserted"), bool, f"{at}.asserted", "true or false", source),
                    set(_strings(item.get("asserted_paths"), f"{at}.asserted_paths", source)),
                    set(_strings(item.get("passed"), f"{at}.passed", source)),
                    set(_strings(item.get("failed"), f"{at}.failed", source)),
                    tuple(_strings(item.get("conditions"), f"{at}.conditions", source, _CONDITION_KEY)),
                )
                if not assertable(address, found.items[address]):
                    # Data written before the rule could mark such an item asserted (a resource check given a
                    # variable's address): none is, or it counted in the percent but not in its total (over 100%).
                    found.items[address].asserted = False
                    found.items[address].paths = set()
        return data


def assertable(address: str, item: ItemData) -> bool:
    """Whether a plan check can address the item at ``address``, so that it counts a second time, as asserted.

    Checks address a managed resource, or a data source, by the address of its resource change, and a root
    module's output by its name in the output changes (:func:`.session.targets`). No check addresses a variable, a module
    call, a child module's output (a plan has no output changes of it) or a ``check`` block. A data source read
    while planning has no resource change, only planned values: once planned, it is assertable only when a plan
    showed a change of it (its read deferred to apply: an action) or a check addressed it.

    >>> assertable("var.name", ItemData("variable")), assertable("output.id", ItemData("output"))
    (False, True)
    >>> assertable("module.net.output.id", ItemData("output"))
    False
    >>> assertable("data.t.a", ItemData("data", planned=True)), assertable("data.t.a", ItemData("data"))
    (False, True)
    """
    if item.kind in ("variable", "module", "check"):
        return False
    if item.kind == "output":
        return not address.startswith("module.")
    if item.kind == "data":
        return item.asserted or not item.planned or bool(item.actions)
    return True


def counts(items: Iterable[tuple[str, ItemData]]) -> tuple[int, int, int, int, int, int]:
    """(items, planned, asserted, assertable, conditions, condition outcomes seen) of (address, item) pairs.

    >>> counts([("var.v", ItemData("variable", planned=True, conditions=("validation:0",), failed={"validation:0"}))])
    (1, 1, 0, 0, 1, 1)
    """
    n = planned = asserted = can = conditions = seen = 0
    for address, item in items:
        n += 1
        planned += item.planned
        asserted += item.asserted
        can += assertable(address, item)
        if item.conditions:  # most items have none: no generator made for them
            conditions += len(item.conditions)
            seen += sum((c in item.passed) + (c in item.failed) for c in item.conditions)
    return n, planned, asserted, can, conditions, seen


def percent(items: Iterable[tuple[str, ItemData]]) -> float:
    """The coverage percent of (address, item) pairs, rounded to two decimals; 100.0 when there is nothing to cover.

    Each item counts once planned and, when :func:`assertable`, once asserted; each condition once seen passing
    and once seen failing.

    >>> percent([("t.a", ItemData("resource", planned=True)), ("output.o", ItemData("output"))])
    25.0
    >>> percent([("t.a", ItemData("resource", planned=True, asserted=True)), ("var.v", ItemData("variable", planned=True))])
    100.0
    """
    return percent_of(counts(items))


def percent_of(found: tuple[int, int, int, int, int, int]) -> float:
    """:func:`percent` of what :func:`counts` found (of one module's items, or summed over several modules': counts
    add up).

    >>> percent_of((2, 1, 0, 1, 0, 0))
    33.33
    """
    n, planned, asserted, can, conditions, seen = found
    total = n + can + 2 * conditions
    return 100.0 if total == 0 else round((planned + asserted + seen) * 100 / total, 2)


def _planned(plan: Plan, walked: _Walked) -> tuple[set[str], bool]:
    """Mark the resources and root outputs of ``plan`` planned in its configuration's ``walked`` modules; return the
    module paths that had an instance planned, and whether the plan's own ``resource_changes`` list read the same as
    the last one kept (:attr:`_Walked.changes`)."""
    paths = walked.paths
    entries = plan.raw.get("resource_changes")
    own = isinstance(entries, list)
    if not isinstance(entries, list):  # a lazily split plan keeps them apart
        entries = [change.raw for change in plan.resource_changes]
    read = _read_changes(entries)
    kept_changes = walked.changes
    same = read is not None and kept_changes is not None and _equal(kept_changes[0], read)
    if same and kept_changes is not None:
        instances = set(kept_changes[1])  # what recording them again would record is there
    else:
        instances, complete = _changes(entries, paths)
        # Kept when every change found its item (one not found may be declared by a later walk of its module), as a
        # copy (the plan's owner may change its document later).
        kept = _copied(read) if read is not None and complete else None
        walked.changes = None if kept is None else (kept[0], frozenset(instances))
        walked.changes_marked = None
    # A data source read while planning is in the planned values (and the prior state), not in the changes.
    planned_values, prior = plan.raw.get("planned_values"), plan.raw.get("prior_state")
    prior = prior.get("values") if isinstance(prior, Mapping) else None
    pending = [values.get("root_module") for values in (planned_values, prior) if isinstance(values, Mapping)]
    while pending:
        module = pending.pop()
        if not isinstance(module, Mapping):
            continue
        module_path = config_address(str(module.get("address") or ""))
        instances.add(module_path)
        # A managed resource has its resource change: only the data sources are read, in one pass over the list.
        resources = module.get("resources")
        seen = paths.get(module_path)
        # Only a module with a data source item has one to mark (most have none: their resources are not read).
        if isinstance(resources, list) and seen is not None and seen[0].has_data():
            for resource in resources:
                if (type(resource) is dict or isinstance(resource, Mapping)) and resource.get("mode") == "data":
                    item = _resource(resource, module_path, seen)
                    if item is not None:
                        item.planned = True
        pending.extend(_list(module.get("child_modules")))
    root = paths.get("")
    outputs = plan.raw.get("output_changes")
    # The output names of the last plan read with this walk, each of which found its item, find the same items again
    # (marked planned then).
    if root is not None and isinstance(outputs, Mapping) and not _equal(walked.outputs, outputs.keys()):
        complete = True
        for name in outputs:
            found = root[0].items.get(f"output.{name}")
            if found is None or not isinstance(name, str):  # a name that is not a string may equal one that is
                complete = False
            if found is not None:
                found.planned = True
        walked.outputs = frozenset(outputs) if complete else None
    _complete(instances, paths)
    return instances, same and own


def _read_changes(entries: list[Any]) -> list[tuple[Any, ...]] | None:
    """What recording resource changes reads of each: its module address, mode, type, name and actions, and what
    :func:`_marks_hold` reads: the marks of its change's two sides; None when one lacks a key (or is not an object),
    which only :func:`_changes` reads as it is."""
    try:
        return [(e.get("module_address"), e["mode"], e["type"], e["name"], c["actions"], c.get("before_sensitive"),
                 c.get("after_sensitive")) for e in entries for c in (e["change"],)]
    except (AttributeError, KeyError, TypeError):
        return None


def _marks_hold(raw: Mapping[str, Any], walked: _Walked, same_changes: bool) -> bool:
    """:func:`~plancheck._documents.sensitive.marks_may_hold_secrets` of a plan document ``raw`` read with ``walked``.

    Its resource changes hold a mark only in their change's ``before_sensitive`` and ``after_sensitive`` (a
    section's answer is its own): when the plan's changes read as the last ones kept (``same_changes``, marks
    included), their answer is the one found for those (once per kept changes), and only the rest of the document is
    asked. A session's plans of one module repeat their changes' marks; each plan's values differ. A document that
    is not a plain dict (a lazily read one, whose sections a copy would parse) is asked whole.
    """
    if not same_changes or type(raw) is not dict:
        return marks_may_hold_secrets(raw)
    if walked.changes_marked is None:
        walked.changes_marked = marks_may_hold_secrets({"resource_changes": raw["resource_changes"]})
    return walked.changes_marked or marks_may_hold_secrets({k: v for k, v in raw.items() if k != "resource_changes"})


def _changes(entries: list[Any], paths: Mapping[str, _Seen]) -> tuple[set[str], bool]:
    """Mark each resource change's item planned, with its action; return the module paths that had an instance
    planned, and whether every change found its item."""
    instances = {""}
    complete = True
    # A module's changes share its module address: its path and data are looked up once for all of them.
    modules: dict[str, tuple[str, _Seen | None]] = {}
    for entry in entries:
        text = str(entry.get("module_address") or "")
        module = modules.get(text)
        if module is None:
            module_path = config_address(text)
            module = modules[text] = (module_path, paths.get(module_path))
            instances.add(module_path)
        item = _resource(entry, *module)
        if item is None:
            complete = False
            continue
        item.planned = True
        actions = (entry.get("change") or {}).get("actions")
        names = _ACTION_NAMES.get(tuple(actions)) if isinstance(actions, list) else None
        if names is not None:
            item.actions.update(names)
    return instances, complete


def _resource(entry: Mapping[str, Any], module_path: str, found: _Seen | None) -> ItemData | None:
    """The item of a resource change (or a state's resource, or a check's address) of the module at ``module_path``,
    whose data ``found`` is (None: a module the configuration does not show)."""
    type_, name, mode = entry.get("type"), entry.get("name"), entry.get("mode")
    # An ephemeral resource (a check of its conditions, an OpenTofu change) is no item: not the managed type.name's.
    if found is None or not isinstance(type_, str) or not isinstance(name, str) or mode == "ephemeral":
        return None
    prefix = module_path + "." if module_path else ""
    data = mode == "data"
    return found[0].items.get(f"{prefix}{'data.' if data else ''}{type_}.{name}")


class _Walked:
    """A root module's configuration walked (:meth:`CoverageData._walked`), its module paths, and what the plans read
    with it recorded that reading another would record again. An item, once found, is the same item for as long as
    the walk is kept (items are never replaced; a merge forgets the walks)."""

    __slots__ = (
        "asserted", "changes", "changes_marked", "checks", "config", "directories", "instances", "outputs", "paths",
        "sensitive",
    )

    def __init__(
        self, config: Mapping[str, Any], paths: dict[str, _Seen], directories: Mapping[Path, ModuleData],
        sensitive: bool,
    ) -> None:
        self.config = config
        self.paths = paths
        #: The directory of each local module walked, and its data: where a plan's secrets may stand in clear.
        self.directories = directories
        #: Whether the configuration declares a sensitive variable or output (its plans may hold secrets unmarked).
        self.sensitive = sensitive
        #: Each set of module instances whose declared items were marked planned.
        self.instances: set[frozenset[str]] = set()
        #: The check targets (kind, address, path text) recorded, each on the item it found.
        self.asserted: set[tuple[str, str, str | None]] = set()
        #: The last ``checks`` section recorded, each entry of which found its item.
        self.checks: tuple[Any] | None = None
        #: The last resource changes recorded (what :func:`_read_changes` reads of them), each of which found its
        #: item, and the module paths they planned an instance of.
        self.changes: tuple[list[tuple[Any, ...]], frozenset[str]] | None = None
        #: Whether the kept changes hold a mark (:func:`_marks_hold`); None until asked.
        self.changes_marked: bool | None = None
        #: The root output names of the last plan whose output changes were recorded, each of which found its item.
        self.outputs: frozenset[str] | None = None


def _copied(value: Any) -> tuple[Any] | None:
    """A copy of ``value`` (in a tuple), when it is plain JSON: kept to tell whether a later plan's is equal (a
    plan's document is not kept itself: its owner may change it later); None otherwise (a dict subclass, another
    Mapping, too deep a nesting: what marshal refuses)."""
    try:
        return (marshal.loads(marshal.dumps(value)),)
    except ValueError:
        return None


def _declared_planned(walked: _Walked, instances: set[str]) -> None:
    """Mark planned what has no change of its own in the module ``instances`` planned: a variable, a child module's
    output, and a module call with its child's instance."""
    planned = frozenset(instances)
    if planned in walked.instances:  # marking them again would change nothing
        return
    walked.instances.add(planned)
    for path, (module, _, declared) in walked.paths.items():
        if path not in instances:
            continue
        for address in declared:
            item = module.items[address]
            if item.kind == "module":
                item.planned |= address in instances
            elif item.kind == "variable" or (item.kind == "output" and path):
                item.planned = True


def _equal(kept: Any, read: Any) -> bool:
    """Whether what was ``read`` of a plan equals what was ``kept`` of an earlier one; False when comparing them fails
    (a value of the document's own kind whose ``==`` raises)."""
    try:
        return bool(kept == read)
    except Exception:
        return False


def _asserted(kind: str, address: str, paths: Mapping[str, _Seen]) -> ItemData | None:
    """The item a check target addresses: a root output by its name, a resource change's by its address; None when
    the plan's modules declare none (a resource check given a variable's or a child output's address finds none)."""
    if kind == "output":
        root = paths.get("")
        return root[0].items.get(f"output.{address}") if root is not None else None
    full = config_address(address)
    module_path = ""
    match = re.match(_MODULE_PREFIX, full) if full.startswith("module.") else None
    if match is not None:
        module_path = match.group(1)
    found = paths.get(module_path)
    item = found[0].items.get(full) if found is not None else None
    return item if item is not None and item.kind in ("resource", "data") else None


def _complete(instances: set[str], paths: Mapping[str, _Seen]) -> None:
    """Add to the planned module ``instances`` their ancestors, and each call without count or for_each of one."""
    for path in list(instances):  # a module instance planned means its ancestors' were too
        while "." in path:
            path = path.rsplit(".module.", 1)[0] if ".module." in path else ""
            instances.add(path)
    # A call without count or for_each has exactly one instance wherever its parent has one.
    for path in sorted(paths, key=lambda p: p.count(".")):
        if path and path not in instances:
            parent = path.rsplit(".module.", 1)[0] if ".module." in path else ""
            _, call = path.rsplit("module.", 1)
            calls = paths[parent][1].get("module_calls") if parent in paths else None
            spec = calls.get(call) if isinstance(calls, Mapping) else None
            if parent in instances and isinstance(spec, Mapping) and not (
                "count_expression" in spec or "for_each_expression" in spec
            ):
                instances.add(path)


def _lines_showing(directory: Path, secrets: Secrets) -> dict[str, set[int]]:
    """The 1-based lines of each ``.tf``, ``.tf.json``, ``.tofu`` and ``.tofu.json`` file of ``directory`` that show
    one of ``secrets`` (what a scrub of the line would change); a file that cannot be read shows nothing (the report
    says it cannot be read)."""
    found: dict[str, set[int]] = {}
    suffixes = (".tf", ".tf.json", ".tofu", ".tofu.json")
    try:
        names = sorted(p.name for p in directory.iterdir() if p.name.endswith(suffixes) and p.is_file())
    except OSError:
        return found
    for name in names:
        try:
            text = (directory / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = {number for number, line in enumerate(text.split("\n"), start=1) if secrets.touches(line)}
        if lines:
            found[name] = lines
    return found


def _relative(directory: Path, rootdir: Path) -> str:
    return Path(os.path.relpath(directory, rootdir.resolve())).as_posix()


def _at_least(version: Any, wanted: tuple[int, int]) -> bool:
    match = re.match(r"^(\d+)\.(\d+)", version) if isinstance(version, str) else None
    return match is not None and (int(match.group(1)), int(match.group(2))) >= wanted


def _list(value: Any) -> list[Mapping[str, Any]]:
    # A parsed document's objects are dicts: the ABC's isinstance is asked only of anything else.
    return [v for v in value if type(v) is dict or isinstance(v, Mapping)] if isinstance(value, list) else []


def _names(value: Any) -> list[str]:
    return [k for k in value if isinstance(k, str)] if isinstance(value, Mapping) else []


def _shown(value: Any) -> str:
    """A scalar as its JSON text (the data holds addresses and counts, no secrets); an object or array by its kind
    and size, as the plan and state loaders say it.

    >>> _shown("yes"), _shown(None), _shown([1]), _shown({})
    ('"yes"', 'null', 'an array of 1 element', 'an object with 0 keys')
    """
    import json

    if isinstance(value, (str, int, float, bool)) or value is None:
        return json.dumps(value)
    return describe_json_type(value)


def _expect(value: Any, kind: type, where: str, expected: str, source: str | None) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CoverageDataError(where, expected, found=_shown(value), source=source)
    return value


#: A condition's key as the data writes it: its kind and its index among the item's conditions of that kind.
_CONDITION_KEY: Final = (r"[a-z]+:(?:0|[1-9][0-9]{0,17})", 'a condition such as "validation:0"')


def _strings(value: Any, where: str, source: str | None, form: tuple[str, str] | None = None) -> list[str]:
    """The strings of a list, each of ``form`` when given: (its pattern, what it is called)."""
    items = _expect(value, list, where, "a list of strings", source)
    for i, item in enumerate(items):
        _expect(item, str, f"{where}[{i}]", "a string", source)
        if form is not None and re.fullmatch(form[0], item) is None:
            raise CoverageDataError(f"{where}[{i}]", form[1], found=_shown(item), source=source)
    return list(items)


def _ints(value: Any, where: str, source: str | None) -> list[int]:
    items = _expect(value, list, where, "a list of line numbers", source)
    for i, item in enumerate(items):
        _expect(item, int, f"{where}[{i}]", "a line number", source)
    return list(items)

