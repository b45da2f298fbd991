"""The steps that are not plan-and-apply: import (Go's ``testStepNewImportState``) and query (``testStepNewQuery``).

The runner hands :func:`run_import_step` and :func:`run_query_step` to each ``CaseRun``, which calls
them for an ``import_state`` or a ``query`` step (so ``_caserun`` need not import this module).

Import steps import by command or by ``import`` block, then check and verify. Go's
``ImportStateVerify`` compares the imported resource with the applied one on the legacy "flatmap"
form of their attributes (``tags.%`` = ``"1"``, ``tags.env`` = ``"test"``, ``list.#``, ``list.0``,
...), after dropping empty collections' counts, ``timeouts`` and every key starting with an ignored
prefix. That form is built here from ``terraform show -json`` values, keeping, for each key,
whether the value lies under a sensitive mark, so that a difference never shows a secret.

A query step writes its ``config`` as ``main.tfquery.hcl`` beside the configuration of the last
config-mode step (Go keeps that step's ``.tf`` files too), runs ``terraform query -no-color -json``,
reads its JSON lines with :func:`plancheck.querycheck.load_query` and runs the step's query result
checks.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from .._checking.equality import first_difference
from .._documents.state import State
from .._errors import DocumentFormatError
from .._frozen import FrozenValue, frozen
from .._redact import SENSITIVE as REDACTED
from .._terraform.binary import CommandResult, TerraformBinary
from ..querycheck import QueryFormatError, QueryOutput
from ..tfversion import Version, VersionError
from ._case import TestStep
from ._checks import query_result_failures
from ._errors import Stage, TestDefinitionError, _listing, _StepFailure, require_utf8
from ._testcheck.flatmap import go_plain, go_quoted_list
from ._workplace import Place, WorkingDirectory

if TYPE_CHECKING:
    from ._caserun import CaseRun

__all__ = [
    "Flat",
    "IMPORT_BLOCK_FILE",
    "QUERY_FILE",
    "QUERY_MIN_VERSION",
    "VERIFY_HEADER",
    "flatmap",
    "import_block",
    "import_block_with_identity",
    "query_error_messages",
    "query_refusal",
    "run_import_step",
    "run_query_step",
    "state_resources",
    "verify_import",
]


VERIFY_HEADER: Final = (
    "ImportStateVerify attributes not equivalent. Difference is shown below. "
    "The - symbol indicates attributes missing after import."
)


@frozen
class Flat(FrozenValue):
    """One flattened attribute: its text (as Go's flatmap has it) and whether it is sensitive."""

    text: str
    sensitive: bool

    def shown(self) -> str:
        return REDACTED if self.sensitive else json.dumps(self.text, ensure_ascii=False)


def _missing_identifier(which: str, attribute: str) -> str:
    return (
        f"ImportStateVerify: {which} resource missing identifier attribute {attribute!r}, ensure attribute "
        "value is properly set or use import_state_verify_identifier_attribute to choose different attribute"
    )


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral_value() else str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _mark(marks: Any, key: str | int) -> Any:
    if marks is True:
        return True
    if isinstance(marks, Mapping) and isinstance(key, str):
        return marks.get(key)
    if isinstance(marks, list) and isinstance(key, int) and 0 <= key < len(marks):
        return marks[key]
    return None


def flatmap(values: Any, marks: Any = None) -> dict[str, Flat]:
    """The flatmap form of a resource's ``values``, with ``sensitive_values`` marks (``marks``).

    Nulls are left out; maps and objects get a ``.%`` count, lists and sets a ``.#`` count.

    >>> flat = flatmap({"id": "w-1", "size": Decimal("3"), "tags": {"env": "test"}, "pw": "x", "n": None},
    ...                {"pw": True})
    >>> {k: (v.text, v.sensitive) for k, v in sorted(flat.items())}
    {'id': ('w-1', False), 'pw': ('x', True), 'size': ('3', False), 'tags.%': ('1', False), 'tags.env': ('test', False)}
    """
    result: dict[str, Flat] = {}
    if not isinstance(values, Mapping):
        return result
    # (prefix, value, marks, inherited sensitivity): iterative, so deep values cannot hit RecursionError.
    stack: list[tuple[str, Any, Any, bool]] = [
        (str(k), v, _mark(marks, str(k)), False) for k, v in values.items()
    ]
    while stack:
        key, value, mark, inherited = stack.pop()
        sensitive = inherited or mark is True
        if value is None:
            continue
        if isinstance(value, Mapping):
            result[f"{key}.%"] = Flat(str(len(value)), sensitive)
            stack.extend((f"{key}.{k}", v, _mark(mark, str(k)), sensitive) for k, v in value.items())
        elif isinstance(value, list):
            result[f"{key}.#"] = Flat(str(len(value)), sensitive)
            stack.extend((f"{key}.{i}", v, _mark(mark, i), sensitive) for i, v in enumerate(value))
        else:
            result[key] = Flat(_scalar(value), sensitive)
    return result


def _comparable(flat: Mapping[str, Flat], ignore: Sequence[str]) -> dict[str, Flat]:
    kept: dict[str, Flat] = {}
    for key, value in flat.items():
        if (key.endswith(".#") or key.endswith(".%")) and value.text == "0":
            continue
        if key == "timeouts" or key.startswith("timeouts."):
            continue
        if any(key.startswith(prefix) for prefix in ignore):
            continue
        kept[key] = value
    return kept


def _resource_key(resource: Mapping[str, Any]) -> tuple[Any, Any]:
    return resource.get("type"), resource.get("provider_name")


def _managed(resources: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in resources if r.get("mode", "managed") == "managed"]


def verify_import(
    applied: Sequence[Mapping[str, Any]],
    imported: Sequence[Mapping[str, Any]],
    *,
    identifier_attribute: str = "id",
    ignore: Sequence[str] = (),
    address: str | None = None,
) -> str | None:
    """Go's ``ImportStateVerify``: the failure message, or None when every imported resource matches.

    ``applied`` and ``imported`` are the resources of the two states, of every module (as in
    ``terraform show -json``, see :func:`state_resources`); each imported one is compared with
    the applied one of the same type and provider whose ``identifier_attribute`` is the same.
    Every difference is named, a sensitive value shows as ``(sensitive)``. With ``address``
    (the step's ``resource_name``), that resource must be among the imported ones: nothing
    compared is a failure, never a pass.

    >>> old = [{"address": "w.t", "type": "w", "values": {"id": "1", "name": "a", "pw": "s"}, "sensitive_values": {"pw": True}}]
    >>> new = [{"address": "w.t", "type": "w", "values": {"id": "1", "name": "b", "pw": "z"}, "sensitive_values": {"pw": True}}]
    >>> print(verify_import(old, new))
    ImportStateVerify attributes not equivalent. Difference is shown below. The - symbol indicates attributes missing after import.
    <BLANKLINE>
    w.t:
    - "name": "a"
    + "name": "b"
    - "pw": (sensitive)
    + "pw": (sensitive)
    >>> verify_import(old, new, ignore=["name", "pw"]) is None
    True
    >>> print(verify_import(old, [], address="module.child.w.t"))
    ImportStateVerify: resource module.child.w.t not found in the state after import (it has no managed resources)
    """
    if address is not None:
        missing = _missing(address, imported)
        if missing is not None:
            return missing
    problems: list[str] = []
    olds = _Applied(applied, identifier_attribute)
    for new in _managed(imported):
        new_flat = flatmap(new.get("values"), new.get("sensitive_values"))
        identifier = new_flat.get(identifier_attribute)
        if identifier is None:
            return _missing_identifier("New", identifier_attribute)
        old_flat = olds.find(_resource_key(new), identifier.text)
        if old_flat is _NO_IDENTIFIER:
            return _missing_identifier("Old", identifier_attribute)
        if old_flat is None:
            shown = identifier.shown() if identifier.sensitive else identifier.text
            return f"Failed state verification, resource with ID {shown} not found"
        lines = _differences(_comparable(old_flat, ignore), _comparable(new_flat, ignore))
        if lines:
            problems.append(f"{new.get('address', '?')}:\n" + "\n".join(lines))
    if not problems:
        return None
    return VERIFY_HEADER + "\n\n" + "\n".join(problems)


#: What :meth:`_Applied.find` answers when the scan meets a resource of the kind without an identifier first.
_NO_IDENTIFIER: Final[dict[str, Flat]] = {}


class _Applied:
    """The applied resources as Go's loop scans them for each imported one: in order, the same kind (type and
    provider) only, the first with the identifier's text matching, stopped by the first without an identifier.

    The scan is made once, resumed where it stopped, each resource flattened once: scanned again from the start
    for each imported resource, it flattened every applied one again, time quadratic in the resources.
    """

    def __init__(self, applied: Sequence[Mapping[str, Any]], attribute: str) -> None:
        self._pending = iter(_managed(applied))
        self._attribute = attribute
        self._found: dict[tuple[Any, Any, str], dict[str, Flat]] = {}  # the first of each kind and identifier
        self._stopped: set[tuple[Any, Any]] = set()  # the kinds whose scan met a resource without an identifier

    def find(self, kind: tuple[Any, Any], identifier: str) -> dict[str, Flat] | None:
        """The flatmap of the applied resource of ``kind`` with ``identifier``, :data:`_NO_IDENTIFIER`, or None."""
        found = self._found.get((*kind, identifier))
        if found is not None:
            return found
        if kind in self._stopped:
            return _NO_IDENTIFIER
        for old in self._pending:
            old_kind = _resource_key(old)
            if old_kind in self._stopped:
                continue  # never reached: the scan of its kind stops before it
            flat = flatmap(old.get("values"), old.get("sensitive_values"))
            old_identifier = flat.get(self._attribute)
            if old_identifier is None:
                self._stopped.add(old_kind)
                if old_kind == kind:
                    return _NO_IDENTIFIER
                continue
            self._found.setdefault((*old_kind, old_identifier.text), flat)
            if old_kind == kind and old_identifier.text == identifier:
                return flat
        return None


def _missing(address: str, imported: Sequence[Mapping[str, Any]]) -> str | None:
    """The failure when ``address`` is not among the ``imported`` managed resources, else None."""
    found = [str(r.get("address", "?")) for r in _managed(imported)]
    if address in found:
        return None
    has = "it has " + ", ".join(sorted(found)) if found else "it has no managed resources"
    return f"ImportStateVerify: resource {address} not found in the state after import ({has})"


def state_resources(document: Mapping[str, Any], key: str = "values") -> list[Mapping[str, Any]]:
    """The resources of every module of a ``show -json`` document's ``key`` (``values``, ``planned_values``).

    Child modules are walked without recursion, so a deep module tree cannot hit RecursionError.

    >>> doc = {"values": {"root_module": {"resources": [{"address": "a.b"}],
    ...        "child_modules": [{"resources": [{"address": "module.m.a.b"}]}]}}}
    >>> [r["address"] for r in state_resources(doc)]
    ['a.b', 'module.m.a.b']
    """
    values = document.get(key)
    root = values.get("root_module") if isinstance(values, Mapping) else None
    found: list[Mapping[str, Any]] = []
    pending: list[Any] = [root]
    while pending:
        module = pending.pop(0)
        if not isinstance(module, Mapping):
            continue
        resources = module.get("resources")
        if isinstance(resources, list):
            found.extend(r for r in resources if isinstance(r, Mapping))
        children = module.get("child_modules")
        if isinstance(children, list):
            pending.extend(children)
    return found


def _differences(expected: Mapping[str, Flat], actual: Mapping[str, Flat]) -> list[str]:
    lines: list[str] = []
    for key in sorted(set(expected) | set(actual)):
        old, new = expected.get(key), actual.get(key)
        if old is not None and new is not None and old.text == new.text:
            continue
        # A value sensitive on either side is hidden on both, so a secret cannot leak from the other side.
        hide = (old is not None and old.sensitive) or (new is not None and new.sensitive)
        quoted = json.dumps(key, ensure_ascii=False)
        for sign, flat in (("-", old), ("+", new)):
            if flat is not None:
                shown = REDACTED if hide else flat.shown()
                lines.append(f"{sign} {quoted}: {shown}")
    return lines


def _hcl_string(text: str) -> str:
    # JSON string syntax is valid HCL for these characters; "${" and "%{" must not start a template.
    return json.dumps(text, ensure_ascii=False).replace("${", "$${").replace("%{", "%%{")


def import_block(address: str, import_id: str) -> str:
    """An ``import`` block (Go's ``appendImportBlock``).

    >>> print(import_block("widget_thing.t", "w-0001"))
    import {
      to = widget_thing.t
      id = "w-0001"
    }
    <BLANKLINE>
    """
    return f"import {{\n  to = {address}\n  id = {_hcl_string(import_id)}\n}}\n"


def import_block_with_identity(address: str, identity: Mapping[str, Any]) -> str:
    """An ``import`` block naming the resource by its identity (Go's ``appendImportBlockWithIdentity``).

    >>> print(import_block_with_identity("widget_thing.t", {"id": "w-1", "n": Decimal("2"), "on": True, "x": None}))
    import {
      to = widget_thing.t
      identity = {
        "id" = "w-1"
        "n" = 2
        "on" = true
      }
    }
    <BLANKLINE>
    """
    lines = ["import {", f"  to = {address}", "  identity = {"]
    for key, value in identity.items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (int, float, Decimal)):
            text = _scalar(value)
        elif isinstance(value, list):
            text = "[" + ", ".join(_hcl_string(str(v)) for v in value) + "]"
        else:
            text = _hcl_string(str(value))
        lines.append(f"    {_hcl_string(str(key))} = {text}")
    lines.extend(["  }", "}", ""])
    return "\n".join(lines)


#: Where a query step's configuration is written (Go: ``terraform_plugin_test.tfquery.hcl``).
QUERY_FILE: Final = "main.tfquery.hcl"
#: ``terraform query`` (list blocks, ``-json``) first shipped in Terraform 1.14.0.
QUERY_MIN_VERSION: Final = Version("1.14.0")
_HINT: Final = (
    "Either upgrade the Terraform version running the test or add "
    '`terraform_version_checks=[SkipBelow("1.14.0")]` to the test case to skip this test.'
)


def query_refusal(binary: TerraformBinary) -> str | None:
    """Why ``binary`` cannot run a query step, or None when it can (or its version cannot be read).

    >>> print(query_refusal(TerraformBinary("/usr/bin/terraform", "1.11.4")))
    Query steps require Terraform 1.14.0 or later (this is Terraform 1.11.4): terraform query was added in 1.14.0. Either upgrade the Terraform version running the test or add `terraform_version_checks=[SkipBelow("1.14.0")]` to the test case to skip this test.
    >>> query_refusal(TerraformBinary("/usr/bin/terraform", "1.14.2")) is None
    True
    """
    try:
        version = Version(binary.version)
    except VersionError:
        return None  # as for import steps: an unreadable version lets Terraform itself decide
    if binary.flavor == "tofu":
        return (
            f"Query steps require Terraform 1.14.0 or later (this is {binary.product} {version}, "
            f"which has no query command). {_HINT}"
        )
    if version < QUERY_MIN_VERSION:
        return (
            f"Query steps require Terraform 1.14.0 or later (this is {binary.product} {version}): "
            f"terraform query was added in 1.14.0. {_HINT}"
        )
    return None


def _diagnostic_text(message: Mapping[str, Any]) -> str:
    diagnostic = message.get("diagnostic")
    if isinstance(diagnostic, Mapping):
        summary = diagnostic.get("summary")
        detail = diagnostic.get("detail")
        if isinstance(summary, str) and summary:
            text = f"Error: {summary}"
            return f"{text}\n{detail}" if isinstance(detail, str) and detail else text
    fallback = message.get("@message")
    return fallback if isinstance(fallback, str) and fallback else "an error without a message"


def query_error_messages(output: QueryOutput) -> list[str]:
    """The text of every error-level message of ``output`` (Go fails the step on any of them).

    >>> out = QueryOutput.from_messages([{"@level": "error", "@message": "Error: Missing list block",
    ...     "type": "diagnostic", "diagnostic": {"severity": "error", "summary": "Missing list block",
    ...     "detail": "A query file needs a list block."}}], allow_errored=True)
    >>> query_error_messages(out)
    ['Error: Missing list block\\nA query file needs a list block.']
    """
    return [_diagnostic_text(message) for message in output.messages if message.get("@level") == "error"]


#: Go's minimum versions for the import block kinds (``importStatePreconditions``).
_IMPORT_BLOCK_MIN: Final = Version("1.5.0")
_IDENTITY_MIN: Final = Version("1.12.0")
_VERSION_HINT: Final = (
    "Either upgrade the Terraform version running the test or add a `terraform_version_checks` "
    "to the test case to skip this test."
)
IMPORT_BLOCK_FILE: Final = "plancheck_import.tf"


class _ImportStep:
    """An ``import_state`` step (Go's ``testStepNewImportState``): import, then check and verify."""

    def __init__(self, run: CaseRun, step: TestStep) -> None:
        self.run_ = run
        self.step = step
        self.kind = step.import_state_kind
        assert step.resource_name is not None  # checked by TestStep
        self.address = step.resource_name

    def fail(self, stage: Stage, reason: str, result: CommandResult | None = None) -> _StepFailure:
        return _StepFailure(stage, reason, result)

    def preconditions(self) -> None:
        try:
            version = Version(self.run_.settings.terraform.version)
        except VersionError:
            return  # an unreadable version was already reported by any version check; let Terraform decide
        if self.kind.resource_identity and version < _IDENTITY_MIN:
            raise self.fail(
                Stage.IMPORT,
                f"ImportState steps using resource identity require Terraform 1.12.0 or later "
                f"(this is {version}). {_VERSION_HINT}",
            )
        if self.kind.plannable and version < _IMPORT_BLOCK_MIN:
            raise self.fail(
                Stage.IMPORT,
                f"ImportState steps using plannable import blocks require Terraform 1.5.0 or later "
                f"(this is {version}). {_VERSION_HINT}",
            )

    def import_id(self, state: State) -> str:
        step = self.step
        if step.import_state_id_func is not None:
            try:
                returned = step.import_state_id_func(state)
            except AssertionError as exc:
                raise self.fail(Stage.IMPORT, f"import_state_id_func failed: {exc}") from None
            if isinstance(returned, BaseException):
                raise self.fail(Stage.IMPORT, f"import_state_id_func failed: {returned}")
            if not isinstance(returned, str):
                raise self.fail(
                    Stage.IMPORT, f"import_state_id_func returned {type(returned).__name__}, expected the import id (str)"
                )
            try:
                require_utf8(returned, "import_state_id_func's id")  # a command-line argument, or an import block's
            except TestDefinitionError as exc:
                raise self.fail(Stage.IMPORT, str(exc)) from None
            found = returned
        elif step.import_state_id is not None:
            found = step.import_state_id
        else:
            if not state.has_resource(self.address):
                raise self.fail(Stage.IMPORT, f"Not found: {self.address} in the state")
            values = state.resource(self.address).values
            value = values.get("id") if isinstance(values, Mapping) else None
            if not isinstance(value, str) or not value:
                raise self.fail(
                    Stage.IMPORT,
                    f"{self.address} has no id attribute to import by: give import_state_id or import_state_id_func",
                )
            found = value
        return step.import_state_id_prefix + found

    def identity(self, document: Mapping[str, Any]) -> dict[str, Any]:
        resource = next((r for r in state_resources(document) if r.get("address") == self.address), None)
        identity = resource.get("identity") if resource is not None else None
        if not isinstance(identity, Mapping) or not identity:
            raise self.fail(
                Stage.IMPORT, f"importing resource {self.address}: expected prior state to have resource identity values, got none"
            )
        return dict(identity)

    def configuration(self) -> TestStep:
        run, step = self.run_, self.step
        resolved = run.resolve(step)
        if resolved is not None:
            return resolved
        prior = run.applied_config
        if prior is None:
            raise self.fail(Stage.CONFIG, "Cannot import state with no specified config")
        # The earlier step's configuration, with its variables unless this step gives its own.
        return replace(prior, variables=step.variables or prior.variables)

    def place(self) -> Place | None:
        """The working directory to import in: None is the case's own (``import_state_persist``)."""
        if self.step.import_state_persist:
            return None
        run = self.run_
        root = run.wd.root.parent / f"{run.wd.root.name}_import_step_{run.step_no}"
        shutil.rmtree(root, ignore_errors=True)
        wd = WorkingDirectory(root)
        return Place(wd, {**run.env, "TF_DATA_DIR": str(root / ".terraform")})

    def run(self) -> None:
        run, step = self.run_, self.step
        self.preconditions()
        run.use_providers(step)
        run.restore_valid_config()
        document = run.show_state(Stage.IMPORT)
        state = run.load(Stage.IMPORT, document)
        import_id = self.import_id(state)
        identity = self.identity(document) if self.kind.resource_identity else None
        config = self.configuration()
        extra: dict[str, str] = {}
        if self.kind.plannable and not step.import_state_config_exact:
            block = import_block_with_identity(self.address, identity) if identity else import_block(self.address, import_id)
            extra[IMPORT_BLOCK_FILE] = block
        place = self.place()
        try:
            self.prepare(place, config, extra)
            if self.kind.plannable:
                self.plan_import(place, identity)
            else:
                self.import_command(place, import_id, document)
        finally:
            if place is not None:
                self.clean(place)

    def prepare(self, place: Place | None, config: TestStep, extra: Mapping[str, str]) -> None:
        run = self.run_
        if place is None:
            run.write(config, extra)
            return
        try:
            place.wd.write_step(run.providers.complete(config), extra)
        except (DocumentFormatError, TestDefinitionError, OSError) as exc:
            raise self.fail(Stage.CONFIG, f"cannot write the configuration: {exc}") from None
        run.learn_configuration(place.wd.root)
        state_file = run.wd.root / "terraform.tfstate"
        if self.kind.plannable and run.step_no > 1 and state_file.is_file():
            # As Go: the case's state, minus the resource to import, so the plan imports just that one.
            shutil.copyfile(state_file, place.wd.root / "terraform.tfstate")
        run.tf(Stage.INIT, "init", "-input=false", "-no-color", place=place)
        if self.kind.plannable and (place.wd.root / "terraform.tfstate").is_file():
            run.tf(Stage.IMPORT, "state", "rm", self.address, ok=(0, 1), place=place)

    def clean(self, place: Place) -> None:
        run = self.run_
        if self.step.prevent_disk_cleanup or run.persist:
            run.log(f"[step {run.step_no}/{run.total}] the import working directory is kept in {place.wd.root}")
            return
        shutil.rmtree(place.wd.root, ignore_errors=True)

    def import_command(self, place: Place | None, import_id: str, before: Mapping[str, Any]) -> None:
        run, step = self.run_, self.step
        run.tf(Stage.IMPORT, "import", "-input=false", "-no-color", self.address, import_id, place=place)
        if place is None:
            run.applied = True
        after = run.show_state(Stage.IMPORT, place)
        imported = run.load(Stage.IMPORT, after)
        if step.import_state_check is not None:
            # Every imported resource, whatever its module (Go's root-module-only list would miss module.x.y.z).
            resources = [r for r in imported.resources if r.raw.get("mode", "managed") == "managed"]
            run.run_check(Stage.IMPORT_STATE_CHECK, "ImportStateCheck failed", step.import_state_check, resources)
        if step.import_state_verify:
            problem = verify_import(
                state_resources(before),
                state_resources(after),
                identifier_attribute=step.import_state_verify_identifier_attribute,
                ignore=step.import_state_verify_ignore,
                address=self.address,
            )
            if problem is not None:
                raise self.fail(Stage.IMPORT_STATE_VERIFY, problem)

    def plan_import(self, place: Place | None, identity: Mapping[str, Any] | None) -> None:
        run, step = self.run_, self.step
        result = run.plan(Stage.IMPORT_PLAN, place=place)
        document = run.show_plan(Stage.IMPORT_PLAN, place)
        changes = document.get("resource_changes")
        change = next(
            (c for c in changes if isinstance(c, Mapping) and c.get("address") == self.address), None
        ) if isinstance(changes, list) else None
        body = change.get("change") if change is not None else None
        actions = body.get("actions") if isinstance(body, Mapping) else None
        if not isinstance(actions, list):
            raise self.fail(
                Stage.IMPORT_PLAN, f"importing resource {self.address}: expected a resource change, got no changes", result
            )
        assert isinstance(body, Mapping)
        if body.get("importing") is None:
            raise self.fail(
                Stage.IMPORT_PLAN,
                f"importing resource {self.address}: expected an import operation, got {go_quoted_list(actions)} action "
                "with plan",
                result,
            )
        if not step.expect_non_empty_plan and actions != ["no-op"]:
            raise self.fail(
                Stage.IMPORT_PLAN,
                f"importing resource {self.address}: expected a no-op import operation, got {go_quoted_list(actions)} "
                "action with plan",
                result,
            )
        if step.import_plan_checks.pre_apply:
            run.check_plan(
                Stage.IMPORT_PLAN, "Import plan check(s) failed", document, tuple(step.import_plan_checks.pre_apply), result
            )
        if identity is not None:
            planned = next(
                (r for r in state_resources(document, "planned_values") if r.get("address") == self.address), None
            )
            new = planned.get("identity") if planned is not None else None
            # Typed as Terraform's identity is (a cty object of its schema): numbers equal by value (1, 1.0, 1e0),
            # attributes in any order, a bool never a number; Python's == took true for 1.
            if first_difference(identity, new) is not None:
                raise self.fail(
                    Stage.IMPORT_PLAN,
                    # Go writes both with %v; no planned identity is its empty map
                    f"importing resource {self.address}: expected identity values {go_plain(identity)}, got "
                    f"{go_plain(new if new is not None else {})}",
                    result,
                )


def run_import_step(run: CaseRun, step: TestStep) -> None:
    """Run the ``import_state`` step ``step`` of ``run`` (what the runner hands a case as ``import_step``)."""
    _ImportStep(run, step).run()


def run_query_step(run: CaseRun, step: TestStep) -> None:
    """Run the ``query`` step ``step`` of ``run`` (Go's ``testStepNewQuery``, what the runner hands a case as
``query_step``): write the query file, init, query, check."""
    refusal = query_refusal(run.settings.terraform)
    if refusal is not None:
        raise _StepFailure(Stage.QUERY, refusal)
    # resolve() builds the step again, so TestStep refuses a config function's dict itself.
    resolved = run.resolve(step)
    assert resolved is not None  # a query step always has config= (checked by TestStep)
    assert isinstance(resolved.config, str)
    text = resolved.config
    # As Go, the last config-mode step's configuration stays (its provider and resource blocks).
    base = run.applied_config if run.applied_config is not None else TestStep(config="")
    base = replace(base, variables=step.variables or base.variables, providers=step.providers)
    # The query file is never a "valid configuration" to go back to: write() leaves current_valid
    # false, so whatever runs next (destroy, refresh, import) writes the last applied one again.
    run.write(base, {QUERY_FILE: text})
    result = run.tf(Stage.QUERY, "query", "-no-color", "-json", ok=(0, 1))
    output = _read_query(run, result)
    errors = query_error_messages(output)
    if errors:
        raise _StepFailure(Stage.QUERY, _listing("terraform query reported errors", errors), replace(result, stdout=""))
    if result.returncode != 0:
        raise _StepFailure(Stage.QUERY, "terraform query failed", result)
    failures = query_result_failures(output, tuple(step.query_result_checks))
    if failures:
        raise _StepFailure(Stage.QUERY_RESULT_CHECKS, _listing("Query result check(s) failed", failures))


def _read_query(run: CaseRun, result: CommandResult) -> QueryOutput:
    """The query's JSON lines; its sensitive list block inputs join the case's secrets."""
    try:
        # allow_errored: the step lists every error itself (query_error_messages), as Go fails on any.
        output = QueryOutput.from_json(result.stdout, source="terraform query -json", allow_errored=True)
    except QueryFormatError as exc:
        raise _StepFailure(
            Stage.QUERY, f"cannot read the output of terraform query -json: {exc}", run.withhold(result)
        ) from None
    run.add_secrets(output.secrets)
    return output
