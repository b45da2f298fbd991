"""How far ``plancheck.tfconfig`` reads ``.tf.json`` as Terraform does: the differential corpus's agreement figure.

For every case under ``tests/tfconfig/differential/cases/``, the library loads the case's directory
and is compared with Terraform's recorded answer (``recorded/<case>.json``, made by
``tools/record_tfjson_differential.py``) on these points:

* verdict: the library loads the configuration exactly when ``terraform validate`` finds it valid;
* error file and line: for a case both reject, the library's error names the file and line of
  Terraform's first error diagnostic.

It prints one line per disagreement and ``N of M points agree``; exit status 0. This is a report
(where the library stands), not a test: the comparison tests that pin 100 % come with the fixes.

    .venv/bin/python tools/tfjson_agreement.py [--quiet]
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "tfconfig" / "differential"


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
    try:
        load_config(case_dir, flavor=flavor)
    except (ConfigFormatError, OSError) as exc:
        error = exc if isinstance(exc, ConfigFormatError) else ConfigFormatError("$", "a readable directory", found=str(exc))
    name = case_dir.name
    points = [Point(name, "verdict", "valid" if terraform_valid else "invalid", "valid" if error is None else "invalid")]
    diagnostic = _first_error(recording)
    if error is not None and not terraform_valid and diagnostic is not None and diagnostic.get("range"):
        where = diagnostic["range"]
        expected = f"{where.get('filename')}:{(where.get('start') or {}).get('line')}"
        found_file = None
        if error.file:
            found = Path(error.file)
            found_file = str(found.relative_to(case_dir)) if case_dir in found.parents else found.name
        points.append(Point(name, "error location", expected, f"{found_file}:{error.line}"))
    return points


def main(argv: list[str] | None = None) -> int:
    """Compare every recorded case and print the agreement figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quiet", action="store_true", help="print only the figure")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    points: list[Point] = []
    for recorded in sorted((CORPUS / "recorded").glob("*.json")):
        case_dir = CORPUS / "cases" / recorded.stem
        if case_dir.is_dir():
            points.extend(compare_case(case_dir, json.loads(recorded.read_text(encoding="utf-8"))))
    for point in points:
        if not point.agrees and not args.quiet:
            print(f"{point.case}: {point.what}: terraform {point.terraform}, library {point.library}")
    agree = sum(point.agrees for point in points)
    print(f"{agree} of {len(points)} points agree ({len({p.case for p in points})} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
