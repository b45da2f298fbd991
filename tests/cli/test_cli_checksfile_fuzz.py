"""Fuzzing the checks-file reader (issue #12): mutated real checks files only ever give a ChecksFileError.

The seeds are the bundled examples (``examples/null/checks.toml`` and ``checks.json``) and files generated
from every check and matcher of the catalogue; Hypothesis mutates their bytes (cuts, repeats, flips,
splices of the tokens that broke the reader before: huge exponents, long integers, deep nesting, NaN,
lone surrogates, a BOM, NUL). The law: :func:`load_checks_file` returns checks or raises
:class:`ChecksFileError` with a one-line message naming the file, and the command line run on the file
exits 0, 1 or 2 with no exception escaping it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plancheck.cli._checksfile import ChecksFileError, CheckSpec, load_checks_file
from plancheck.cli._command import run
from plancheck.cli._registry import default_registry

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "null"
REGISTRY = default_registry()
PLAN = {"format_version": "1.2", "terraform_version": "1.0.3", "resource_changes": [], "output_changes": {}}


def _generated() -> list[bytes]:
    """A TOML and a JSON file using matchers of every argument kind, inside ExpectKnownOutputValue."""
    scalars: dict[str, dict[str, object]] = {"StringExact": {"value": "a"}, "Int64Exact": {"value": 3}, "Float64Exact": {"value": 1.5},
               "NumberExact": {"value": 12.25}, "StringRegexp": {"pattern": "^a+$"}}
    nested: dict[str, dict[str, object]] = {"ListExact": {"items": [{"type": "Null"}]}, "MapPartial": {"items": {"k": {"type": "Bool", "value": True}}}}
    checks = [{"type": "ExpectKnownOutputValue", "address": "x", "matcher": {"type": name, **args}}
              for name, args in {**scalars, **nested}.items()]
    checks.append({"type": "ExpectResourceAction", "address": "a.b", "action": "Update"})
    toml = "\n".join(
        f'[[check]]\ntype = "ExpectKnownOutputValue"\naddress = "x"\nmatcher = {{ type = "{name}", '
        + ", ".join(f"{k} = {json.dumps(v)}" for k, v in args.items()) + " }\n"
        for name, args in scalars.items()
    )
    return [toml.encode(), json.dumps({"check": checks}, indent=1).encode()]


SEEDS = [(EXAMPLES / "checks.toml").read_bytes(), (EXAMPLES / "checks.json").read_bytes(), *_generated()]

TOKENS = [
    b"1e1000000000000000000", b"-1e1000000000000000000", b"9" * 5000, b"NaN", b"-Infinity", b"nan", b"inf",
    b"[" * 700, b"{" * 700, b"{a=" * 400, b'"\\ud800"', b"\xef\xbb\xbf", b"\x00", b"\xff", b"1979-05-27",
    b"[[check]]", b'type = "ListExact"', b'"type": "Float32Exact", "value": 1e39', b"0x" + b"f" * 40,
    b'"' + b"k" * 300 + b'"', b"\n", b"]]", b"}", b"=", b",", b'"', b"'''",
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=len(data)))
        op = draw(st.sampled_from(["insert", "delete", "flip", "repeat"]))
        if op == "insert":
            data[at:at] = draw(st.sampled_from(TOKENS) | st.binary(min_size=1, max_size=6))
        elif op == "delete":
            del data[at : at + draw(st.integers(min_value=1, max_value=40))]
        elif op == "flip" and at < len(data):
            data[at] = draw(st.integers(min_value=0, max_value=255))
        else:
            data[at:at] = data[at : at + draw(st.integers(min_value=1, max_value=60))] * draw(
                st.integers(min_value=2, max_value=50)
            )
    return bytes(data)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz-checks")
    (path / "plan.json").write_text(json.dumps(PLAN), "utf-8")
    return path


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=mutated(), suffix=st.sampled_from([".toml", ".json"]))
def test_a_mutated_checks_file_gives_checks_or_one_typed_error(workdir: Path, data: bytes, suffix: str) -> None:
    path = workdir / f"fuzzed{suffix}"
    path.write_bytes(data)
    try:
        specs = load_checks_file(str(path), REGISTRY, max_bytes=1 << 20)
    except ChecksFileError as exc:
        message = str(exc)
        assert message.startswith(str(path))
        assert "\n" not in message
        assert len(message) < 1000
    else:
        assert all(isinstance(s, CheckSpec) for s in specs)
    out, err = io.StringIO(), io.StringIO()
    code = run([str(workdir / "plan.json"), "--checks", str(path)], stdout=out, stderr=err, environ={"PATH": ""})
    assert code in (0, 1, 2)
    assert "Traceback" not in err.getvalue()
    if code == 2 and err.getvalue():
        assert err.getvalue().startswith("tfplancheck: error: ")


@pytest.mark.parametrize("seed", range(len(SEEDS)), ids=["example-toml", "example-json", "generated-toml", "generated-json"])
def test_the_seeds_themselves_are_valid(workdir: Path, seed: int) -> None:
    path = workdir / f"seed{seed}.{'toml' if seed % 2 == 0 else 'json'}"
    path.write_bytes(SEEDS[seed])
    assert len(load_checks_file(str(path), REGISTRY)) >= 5
