"""How far ``plancheck.tfconfig`` reads ``.tf.json`` as Terraform does: the differential corpus's agreement figure.

For every case under ``tests/tfconfig/differential/cases/``, the library loads the case's directory
and is compared with Terraform's recorded answer (``recorded/<case>.json``, made by
``tools/record_tfjson_differential.py``) on these points:

* verdict: the library loads the configuration exactly when ``terraform validate`` finds it valid;
* error file, line and column: for a case both reject, the library's error names the file, line and
  column (in characters) of Terraform's first error diagnostic;
* content, for cases Terraform plans: the root module's (and local child modules') outputs,
  variables, resources, provisioners and module calls, each argument's constant value and
  references, as the plan's ``configuration`` section shows them (numbers compared by value,
  references as a set, each cut at its splat and listed with its prefixes as Terraform does).

The library reads each module directory with ``load_config(dir, strict=True)`` (Terraform rejects
unknown top-level properties; the library's default is lenient) and, as Terraform does, also the
local child modules. It prints one line per disagreement and the figure
``N of M points agree (C cases); D deliberate differences, U other``; exit status 0.
``DELIBERATE`` lists the deliberate differences with their reasons;
``tests/tfconfig/test_tfconfig_differential.py`` pins that every other point agrees.

    .venv/bin/python tools/tfjson_agreement.py [--quiet]
"""

from __future__ import annotations

import argparse
import decimal
import json
import re
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "tfconfig" / "differential"


#: Points where the library deliberately says something else than Terraform, with the reason.
#: ``tests/tfconfig/test_tfconfig_differential.py`` fails on any other disagreement, and on an entry
#: here that has come to agree (so the list stays true).
DELIBERATE: dict[tuple[str, str], str] = {
    ("bad_utf8_in_string", "verdict"): (
        "Terraform replaces bytes that are not UTF-8 with U+FFFD and reads on; JSON text is Unicode "
        "(RFC 7159, adopted by the HCL JSON spec), so the library refuses the file and says where the byte is."
    ),
    ("connection_type_literal", "verdict"): (
        "Terraform decodes connection blocks only when a provisioner runs (apply); the library checks their "
        "templates when it reads the file, so a broken template there is found before apply."
    ),
    ("module_missing_argument", "verdict"): (
        "A module call's missing argument is found by comparing it with the child module's variables; "
        "the library reads one module at a time and leaves module interfaces to Terraform."
    ),
    ("template_undeclared_reference", "verdict"): (
        "A reference to an undeclared variable needs the whole module's scope; the library also reads single "
        "files and fragments, so it does not reject references at load time (ExpectReferences checks them)."
    ),
    ("terraform_required_version_unsatisfied", "verdict"): (
        "Whether required_version is satisfied depends on the Terraform version that runs, not on the file."
    ),
    ("unknown_argument_in_body", "verdict"): (
        "Whether a resource accepts an argument is in the provider's schema, which a reader of JSON does not have."
    ),
    ("variables_full", "var.shape"): (
        "Terraform shows a variable's default with the optional() attribute defaults of its type applied "
        "(type evaluation); the library shows the default as written."
    ),
}


@dataclass(frozen=True)
class Point:
    """One compared point of one case."""

    case: str
    what: str
    terraform: str
    library: str

    @property
    def agrees(self) -> bool:
        """Whether the library said what Terraform said."""
        return self.terraform == self.library


def _first_error(recording: dict[str, Any]) -> dict[str, Any] | None:
    for stage in ("init", "validate"):
        for diagnostic in (recording.get(stage) or {}).get("diagnostics") or ():
            if diagnostic.get("severity") == "error":
                return dict(diagnostic)
    return None


def _reference_texts(references: Iterable[Any]) -> list[str]:
    """How Terraform lists references: each cut at its splat, then every prefix down to the referenced object."""
    out: list[str] = []
    for ref in references:
        text = re.split(r"\[\*\]|\.\*", ref.text, maxsplit=1)[0]
        subject = ref.subject if text.startswith(ref.subject) else text
        while True:
            out.append(text)
            if len(text) <= len(subject):
                break
            cut = max(text.rfind("."), text.rfind("["))
            if cut < len(subject):
                break
            text = text[:cut]
    return sorted(set(out))


def _expression(block: Any, name: str) -> str:
    """The library's view of one argument, in the shape of Terraform's ``expressions`` entry."""
    return _show({"constant_value": block.get(name), "references": _reference_texts(block.references(name))})


def _recorded_expression(entry: dict[str, Any] | None) -> str:
    entry = entry or {}
    return _show({"constant_value": entry.get("constant_value"), "references": sorted(set(entry.get("references") or ()))})


def _canonical(value: Any) -> Any:
    """Numbers compared by value (``1.50`` is ``1.5``, ``1E+2`` is ``100``), whatever their spelling."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        number = decimal.Decimal(value)
        if number == number.to_integral_value():
            return int(number)
        return f"number:{number.normalize()}"
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return str(value)


def _show(value: Any) -> str:
    return json.dumps(_canonical(value), sort_keys=True)


def _flag(value: Any) -> bool:
    return value in (True, "true")


def _content_points(name: str, config: Any, recorded: dict[str, Any]) -> list[Point]:
    """Blocks, arguments, references and constant values of the root module, as the plan's configuration shows them."""
    points: list[Point] = []

    def point(what: str, terraform: Any, library: Any) -> None:
        points.append(Point(name, what, terraform if isinstance(terraform, str) else _show(terraform),
                            library if isinstance(library, str) else _show(library)))

    outputs = recorded.get("outputs") or {}
    point("outputs", sorted(outputs), sorted(config.outputs))
    for key, entry in sorted(outputs.items()):
        block = config.output(key)
        if block is None:
            continue
        point(f"output.{key}.value", _recorded_expression(entry.get("expression")), _expression(block, "value"))
        point(
            f"output.{key}.meta",
            [entry.get("description"), bool(entry.get("sensitive")), entry.get("depends_on") or []],
            [block.get("description"), _flag(block.get("sensitive")), block.get("depends_on") or []],
        )
    variables = recorded.get("variables") or {}
    point("variables", sorted(variables), sorted(config.variables))
    for key, entry in sorted(variables.items()):
        block = config.variable(key)
        if block is None:
            continue
        point(
            f"var.{key}",
            [entry.get("default"), entry.get("description"), bool(entry.get("sensitive"))],
            [block.get("default"), block.get("description"), _flag(block.get("sensitive"))],
        )
    resources = {r["address"]: r for r in recorded.get("resources") or ()}
    point("resources", sorted(resources), sorted(b.address for b in (*config.resources(), *config.data_sources())))
    for address, entry in sorted(resources.items()):
        block = config.resource(entry["type"], entry["name"]) if entry.get("mode") == "managed" else (
            config.data_source(entry["type"], entry["name"])
        )
        if block is None:
            continue
        for arg, expression in sorted((entry.get("expressions") or {}).items()):
            point(f"{address}.{arg}", _recorded_expression(expression), _expression(block, arg))
        for meta in ("count", "for_each"):
            if f"{meta}_expression" in entry or block.has(meta):
                point(f"{address}.{meta}", _recorded_expression(entry.get(f"{meta}_expression")), _expression(block, meta))
        point(f"{address}.depends_on", entry.get("depends_on") or [], block.get("depends_on") or [])
        recorded_list = list(entry.get("provisioners") or ())
        recorded_provisioners = [
            [p.get("type"), {k: _recorded_expression(v) for k, v in sorted((p.get("expressions") or {}).items())}]
            for p in recorded_list
        ]
        # The library's provisioners, each shown with the arguments Terraform shows for the same one.
        shown = [sorted(p.get("expressions") or {}) for p in recorded_list]
        library_provisioners = [
            [p.labels[0], {k: _expression(p, k) for k in (shown[i] if i < len(shown) else sorted(p.body))}]
            for i, p in enumerate(block.blocks("provisioner"))
        ]
        point(f"{address}.provisioners", recorded_provisioners, library_provisioners)
    calls = recorded.get("module_calls") or {}
    point("module_calls", sorted(calls), sorted(config.modules))
    for key, entry in sorted(calls.items()):
        block = config.module(key)
        if block is None:
            continue
        point(f"module.{key}.source", entry.get("source"), block.get("source"))
        for arg, expression in sorted((entry.get("expressions") or {}).items()):
            point(f"module.{key}.{arg}", _recorded_expression(expression), _expression(block, arg))
    return points


def compare_case(case_dir: Path, recording: dict[str, Any]) -> list[Point]:
    """The compared points of one case.

    >>> compare_case(Path("/nonexistent"), {"validate": {"valid": True}})[0].what
    'verdict'
    """
    from plancheck.tfconfig import ConfigFormatError, load_config

    meta_path = case_dir / "case.toml"
    meta = tomllib.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    flavor: Literal["terraform", "opentofu"] = "opentofu" if meta.get("flavor") == "opentofu" else "terraform"
    terraform_valid = bool((recording.get("validate") or {}).get("valid")) and bool((recording.get("init") or {}).get("ok", True))
    error: ConfigFormatError | None = None
    config: Any = None
    children: dict[str, Any] = {}
    try:
        # strict=True: Terraform rejects unknown top-level properties (the library's default is lenient).
        config = load_config(case_dir, flavor=flavor, strict=True)
        children = _load_children(case_dir, config, flavor)
    except (ConfigFormatError, OSError) as exc:
        error = exc if isinstance(exc, ConfigFormatError) else ConfigFormatError("$", "a readable directory", found=str(exc))
    name = case_dir.name
    points = [Point(name, "verdict", "valid" if terraform_valid else "invalid", "valid" if error is None else "invalid")]
    diagnostic = _first_error(recording)
    if error is not None and not terraform_valid and diagnostic is not None and diagnostic.get("range"):
        where = diagnostic["range"]
        start = where.get("start") or {}
        expected = f"{where.get('filename')}:{start.get('line')}:{start.get('column')}"
        found_file = None
        if error.file:
            found = Path(error.file)
            found_file = str(found.relative_to(case_dir)) if case_dir in found.parents else found.name
        points.append(Point(name, "error location", expected, f"{found_file}:{error.line}:{error.column}"))
    configuration = ((recording.get("plan") or {}).get("configuration") or {}).get("root_module")
    if config is not None and configuration is not None:
        points.extend(_content_points(name, config, configuration))
        for call, entry in sorted((configuration.get("module_calls") or {}).items()):
            child = children.get(call)
            if child is not None and entry.get("module") is not None:
                points.extend(
                    Point(p.case, f"module.{call}: {p.what}", p.terraform, p.library)
                    for p in _content_points(name, child, entry["module"])
                )
    return points


def _load_children(directory: Path, config: Any, flavor: Literal["terraform", "opentofu"], depth: int = 0) -> dict[str, Any]:
    """Load the local child modules (``./``, ``../`` sources) as Terraform does: the library reads one module
    directory at a time, so the comparison loads each module Terraform loads."""
    from plancheck.tfconfig import load_config

    children: dict[str, Any] = {}
    for call, block in sorted(config.modules.items()):
        source = block.get("source")
        if isinstance(source, str) and source.startswith(("./", "../")) and depth < 8:
            child = load_config(directory / source, flavor=flavor, strict=True)
            _load_children(directory / source, child, flavor, depth + 1)
            children[call] = child
    return children


def collect(corpus: Path = CORPUS) -> list[Point]:
    """Every compared point of every recorded case, in case order."""
    points: list[Point] = []
    for recorded in sorted((corpus / "recorded").glob("*.json")):
        case_dir = corpus / "cases" / recorded.stem
        if case_dir.is_dir():
            text = recorded.read_text(encoding="utf-8")
            points.extend(compare_case(case_dir, json.loads(text, parse_float=decimal.Decimal)))
    return points


def main(argv: list[str] | None = None) -> int:
    """Compare every recorded case and print the agreement figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quiet", action="store_true", help="print only the figure")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    points = collect()
    for point in points:
        if not point.agrees and not args.quiet:
            deliberate = " (deliberate)" if (point.case, point.what) in DELIBERATE else ""
            print(f"{point.case}: {point.what}: terraform {point.terraform}, library {point.library}{deliberate}")
    print(summary(points))
    return 0


def summary(points: list[Point]) -> str:
    """The agreement figure: ``N of M points agree (C cases); D deliberate differences, U other``.

    >>> summary([Point("c", "verdict", "valid", "valid"), Point("d", "verdict", "valid", "invalid")])
    '1 of 2 points agree (2 cases); 0 deliberate differences, 1 other'
    """
    agree = sum(point.agrees for point in points)
    deliberate = sum(not p.agrees and (p.case, p.what) in DELIBERATE for p in points)
    other = len(points) - agree - deliberate
    cases = len({p.case for p in points})
    return f"{agree} of {len(points)} points agree ({cases} cases); {deliberate} deliberate differences, {other} other"


if __name__ == "__main__":
    sys.exit(main())
