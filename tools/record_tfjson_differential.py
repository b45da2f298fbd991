"""Record what the real Terraform says about each case of the ``.tf.json`` differential suite.

Each case is a directory under ``tests/tfconfig/differential/cases/`` holding a tiny module
(``.tf.json`` files, maybe ``.tofu.json`` files and local child modules) and a ``case.toml``.
For each case this script copies the module to a temporary directory and runs, with the
``terraform`` on PATH (or ``--terraform``), no network and an empty CLI configuration:

1. ``terraform init -backend=false -json``: its success and its diagnostics;
2. ``terraform validate -json``: the verdict and every diagnostic with its range;
3. when valid, ``terraform plan -json -out=p`` (diagnostics from the streamed messages) and
   ``terraform show -json p``: the plan's ``configuration`` section and ``planned_values.outputs``.

The answers go to ``tests/tfconfig/differential/recorded/<case>.json``, with file names relative
to the case directory, no timestamps and exact numbers, so that re-recording with the same
Terraform gives the same bytes.

Usage::

    python tools/record_tfjson_differential.py              # every case
    python tools/record_tfjson_differential.py dup_argument  # only the named cases
    python tools/record_tfjson_differential.py --check       # re-record in memory, report drift

>>> _render({"b": [1, Decimal("1E+400")], "a": None}, 0)
'{\\n  "a": null,\\n  "b": [\\n    1,\\n    1E+400\\n  ]\\n}'
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
SUITE: Final = ROOT / "tests" / "tfconfig" / "differential"
CASES: Final = SUITE / "cases"
RECORDED: Final = SUITE / "recorded"
CASE_FILE: Final = "case.toml"
RECORDING_FORMAT: Final = 1
FLAVORS: Final = ("terraform", "opentofu")
# A command that has not finished after this long is stuck (they take well under a second).
TIMEOUT_S: Final = 120


class RecordError(Exception):
    """A case or a Terraform answer that cannot be recorded (a bad case.toml, garbled output)."""


@dataclass(frozen=True)
class Case:
    """One case directory and what its ``case.toml`` says about it."""

    name: str
    directory: Path
    description: str
    rule: str
    flavor: str


@dataclass(frozen=True)
class Run:
    """One finished Terraform command."""

    returncode: int
    stdout: str
    stderr: str


def load_case(directory: Path) -> Case:
    """Read ``case.toml`` of a case directory, checking the fields the suite relies on."""
    meta_path = directory / CASE_FILE
    try:
        meta = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RecordError(f"{meta_path}: {exc}") from None
    for key in ("description", "rule", "flavor"):
        if not isinstance(meta.get(key), str) or not meta[key]:
            raise RecordError(f"{meta_path}: needs a non-empty string {key!r}")
    if meta["flavor"] not in FLAVORS:
        raise RecordError(f"{meta_path}: flavor must be one of {FLAVORS}, got {meta['flavor']!r}")
    return Case(directory.name, directory, meta["description"], meta["rule"], meta["flavor"])


def all_cases() -> list[Case]:
    """Every case directory, in name order."""
    return [load_case(d) for d in sorted(CASES.iterdir()) if d.is_dir()]


def case_files(directory: Path) -> Iterator[Path]:
    """The files Terraform is given: everything in the case directory but ``case.toml``."""
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.relative_to(directory) != Path(CASE_FILE):
            yield path


def case_digest(directory: Path) -> str:
    """SHA-256 over the case's file names and bytes, so a stale recording can be told apart."""
    digest = hashlib.sha256()
    for path in case_files(directory):
        rel = path.relative_to(directory).as_posix()
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def clean_env(workdir: Path) -> dict[str, str]:
    """The environment Terraform runs in: no TF_* settings of the caller, an empty CLI config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
    cli_config = workdir / "empty.tfrc"
    cli_config.write_text("", encoding="utf-8")
    env.update(
        TF_CLI_CONFIG_FILE=str(cli_config),
        TF_IN_AUTOMATION="1",
        CHECKPOINT_DISABLE="1",
    )
    return env


def run(terraform: str, args: Sequence[str], cwd: Path, env: dict[str, str]) -> Run:
    """Run one Terraform command to completion."""
    done = subprocess.run(
        [terraform, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT_S,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def loads(text: str, what: str) -> Any:
    """Parse Terraform's JSON keeping every number exact (fractions and exponents as Decimal)."""
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{what}: not JSON ({exc}): {text[:200]!r}") from None


def json_lines(text: str, what: str) -> list[dict[str, Any]]:
    """The messages of a ``-json`` stream (one JSON object a line)."""
    return [loads(line, what) for line in text.splitlines() if line.strip()]


class Scrubber:
    """Strips the temporary directory from every string, so recordings hold relative names only."""

    def __init__(self, workdir: Path) -> None:
        resolved = workdir.resolve()
        prefixes = {str(workdir), str(resolved)}
        self._prefixes = sorted((p + os.sep for p in prefixes), key=len, reverse=True) + sorted(
            prefixes, key=len, reverse=True
        )

    def text(self, value: str) -> str:
        """``value`` with the temporary directory removed (a path inside it becomes relative)."""
        for prefix in self._prefixes:
            value = value.replace(prefix, "" if prefix.endswith(os.sep) else ".")
        return value

    def value(self, value: Any) -> Any:
        """A copy of a JSON value with every string and key scrubbed."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.value(v) for k, v in value.items()}
        return value


def _position(pos: Any) -> dict[str, Any] | None:
    """A range end as recorded: 1-based line and column (in characters), 0-based byte offset."""
    if not isinstance(pos, dict):
        return None
    return {k: pos[k] for k in ("line", "column", "byte") if k in pos}


def diagnostic(raw: Any) -> dict[str, Any]:
    """One diagnostic as recorded: severity, summary, detail, and range (file, start, end)."""
    if not isinstance(raw, dict):
        raise RecordError(f"a diagnostic must be an object, got {raw!r}")
    out: dict[str, Any] = {
        "severity": raw.get("severity"),
        "summary": raw.get("summary"),
        "detail": raw.get("detail", ""),
    }
    rng = raw.get("range")
    if isinstance(rng, dict):
        out["range"] = {
            "filename": rng.get("filename"),
            "start": _position(rng.get("start")),
            "end": _position(rng.get("end")),
        }
    else:
        out["range"] = None
    return out


def stream_diagnostics(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The diagnostics of a streamed ``-json`` run, in the order Terraform emitted them."""
    return [diagnostic(m.get("diagnostic")) for m in messages if m.get("type") == "diagnostic"]


def record_case(case: Case, terraform: str, version: str) -> dict[str, Any]:
    """Run Terraform on a temporary copy of one case and return its recorded answers."""
    with tempfile.TemporaryDirectory(prefix="tfjson-diff-") as tmp:
        workdir = Path(tmp) / "case"
        workdir.mkdir()
        for path in case_files(case.directory):
            target = workdir / path.relative_to(case.directory)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        env = clean_env(Path(tmp))
        scrub = Scrubber(workdir)

        init = run(terraform, ["init", "-backend=false", "-input=false", "-no-color", "-json"], workdir, env)
        init_messages = json_lines(init.stdout, f"{case.name}: terraform init")

        validate = run(terraform, ["validate", "-json", "-no-color"], workdir, env)
        verdict = loads(validate.stdout, f"{case.name}: terraform validate")
        if not isinstance(verdict, dict) or not isinstance(verdict.get("valid"), bool):
            raise RecordError(f"{case.name}: terraform validate gave no verdict: {validate.stdout[:200]!r}")

        recording: dict[str, Any] = {
            "recording_format": RECORDING_FORMAT,
            "case": case.name,
            "description": case.description,
            "rule": case.rule,
            "flavor": case.flavor,
            "terraform_version": version,
            "case_digest": case_digest(case.directory),
            "init": {"ok": init.returncode == 0, "diagnostics": stream_diagnostics(init_messages)},
            "validate": {
                "valid": verdict["valid"],
                "error_count": verdict.get("error_count", 0),
                "warning_count": verdict.get("warning_count", 0),
                "diagnostics": [diagnostic(d) for d in verdict.get("diagnostics", [])],
            },
            "plan": None,
        }
        if verdict["valid"]:
            recording["plan"] = record_plan(case, terraform, workdir, env)
        return dict(scrub.value(recording))


def record_plan(case: Case, terraform: str, workdir: Path, env: dict[str, str]) -> dict[str, Any]:
    """Plan a valid case; keep the plan's configuration section and its evaluated outputs."""
    plan = run(
        terraform, ["plan", "-json", "-input=false", "-lock=false", "-no-color", "-out=p"], workdir, env
    )
    messages = json_lines(plan.stdout, f"{case.name}: terraform plan")
    result: dict[str, Any] = {
        "ok": plan.returncode == 0,
        "diagnostics": stream_diagnostics(messages),
        "configuration": None,
        "planned_outputs": None,
    }
    if plan.returncode == 0:
        show = run(terraform, ["show", "-json", "-no-color", "p"], workdir, env)
        if show.returncode != 0:
            raise RecordError(f"{case.name}: terraform show failed: {show.stderr.strip()[:300]}")
        document = loads(show.stdout, f"{case.name}: terraform show")
        result["configuration"] = document.get("configuration")
        result["planned_outputs"] = document.get("planned_values", {}).get("outputs", {})
    return result


def _render(value: Any, indent: int) -> str:
    """JSON text with sorted keys and two-space indentation, writing Decimals exactly."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_render(value[k], indent + 1)}" for k in sorted(value)
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(pad + _render(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    if isinstance(value, Decimal):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def render(recording: dict[str, Any]) -> str:
    """The bytes a recording file holds."""
    return _render(recording, 0) + "\n"


def terraform_version(terraform: str) -> str:
    """The version of the Terraform binary, from ``terraform version -json``."""
    with tempfile.TemporaryDirectory(prefix="tfjson-diff-") as tmp:
        done = run(terraform, ["version", "-json"], Path(tmp), clean_env(Path(tmp)))
    info = loads(done.stdout, "terraform version -json")
    version = info.get("terraform_version") if isinstance(info, dict) else None
    if not isinstance(version, str):
        raise RecordError(f"terraform version -json gave no version: {done.stdout[:200]!r}")
    return version


def summary(recording: dict[str, Any]) -> str:
    """One line on what Terraform said about a case."""
    validate = recording["validate"]
    if not validate["valid"]:
        first = validate["diagnostics"][0] if validate["diagnostics"] else None
        where = ""
        if first and first["range"]:
            rng = first["range"]
            where = f" at {rng['filename']}:{rng['start']['line']}:{rng['start']['column']}"
        what = f"{first['summary']}{where}" if first else "no diagnostic"
        return f"invalid, {validate['error_count']} error(s): {what}"
    plan = recording["plan"]
    if not plan["ok"]:
        errors = [d["summary"] for d in plan["diagnostics"] if d["severity"] == "error"]
        return f"valid, plan failed: {'; '.join(errors)}"
    warnings = len(validate["diagnostics"]) + len(plan["diagnostics"])
    return f"valid, planned, {len(plan['planned_outputs'])} output(s), {warnings} warning(s)"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line: case names, ``--terraform``, ``--check``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("cases", nargs="*", help="case names (default: every case)")
    parser.add_argument("--terraform", default="terraform", help="the Terraform binary (default: on PATH)")
    parser.add_argument(
        "--check", action="store_true", help="record in memory and report cases whose recording differs"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Record the named cases (or all); return 0, or 1 if ``--check`` found a drift."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    terraform = shutil.which(args.terraform)
    if terraform is None:
        print(f"error: no Terraform binary {args.terraform!r} on PATH", file=sys.stderr)
        return 2
    try:
        cases = all_cases()
        if args.cases:
            by_name = {c.name: c for c in cases}
            unknown = [n for n in args.cases if n not in by_name]
            if unknown:
                print(f"error: no such case: {', '.join(unknown)}", file=sys.stderr)
                return 2
            cases = [by_name[n] for n in args.cases]
        version = terraform_version(terraform)
        print(f"Terraform {version} ({terraform}); {len(cases)} case(s) from {CASES.relative_to(ROOT)}")
        RECORDED.mkdir(parents=True, exist_ok=True)
        drifted: list[str] = []
        started = time.perf_counter()
        for case in cases:
            t0 = time.perf_counter()
            text = render(record_case(case, terraform, version))
            target = RECORDED / f"{case.name}.json"
            old = target.read_text(encoding="utf-8") if target.exists() else None
            if args.check:
                state = "same" if old == text else "DIFFERS"
                if old != text:
                    drifted.append(case.name)
            else:
                target.write_text(text, encoding="utf-8")
                state = "unchanged" if old == text else ("written" if old is None else "updated")
            took = time.perf_counter() - t0
            print(f"  {case.name:<40} {state:<9} {took:5.2f}s  {summary(loads(text, case.name))}")
        total = time.perf_counter() - started
    except (RecordError, subprocess.TimeoutExpired, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    orphans = sorted(p.stem for p in RECORDED.glob("*.json") if not (CASES / p.stem).is_dir())
    if orphans:
        print(f"warning: recordings without a case (delete them): {', '.join(orphans)}")
    verb = "checked" if args.check else "recorded"
    print(f"{verb} {len(cases)} case(s) in {total:.1f}s into {RECORDED.relative_to(ROOT)}")
    if drifted:
        print(f"{len(drifted)} recording(s) differ: {', '.join(drifted)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
