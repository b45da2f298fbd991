"""How long a piece of a secret must be before it is scrubbed everywhere, and what scrubbing costs.

``Secrets.scrub`` replaces every run of ``SUBSTRING_WINDOW`` characters taken from a secret.
A shorter window hides shorter fragments (safer) but blanks more ordinary text that merely shares
a few characters with a secret (noisier). This script measures both sides for windows 4 to 16:

* collateral: the share of an unrelated text (this project's README and docs pages and pytest's own sources,
  ~1 MB of English and code) that is replaced, with the secrets of every real plan and state of
  ``../shared/corpus`` plus a few typical shapes (passphrase, PEM key, JSON policy);
* the shortest fragment of a secret that is hidden, which is the window by construction;
* speed: microseconds to scrub 1 KB of text, and to build the scanner, for the secrets of a
  generated 1000-resource plan.

    .venv/bin/python benchmarks/bench_scrub.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _pytest

from plancheck import _redact
from plancheck._documents.sensitive import collect_plan_secrets, collect_state_secrets
from plancheck._redact import Secrets

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
GEN_PLAN = ROOT.parent / "shared" / "bench" / "gen_plan.py"

SHAPES = [
    "correct horse battery staple",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MaqbGBZZpWLWy7AV\n"
    "-----END RSA PRIVATE KEY-----",
    json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:GetObject"}]}),
    "AKIAIOSFODNN7EXAMPLE",
    "postgres://admin:Sup3rS3cret@db.internal:5432/app",
]


def corpus_secrets() -> list[str]:
    found: list[str] = []
    for kind, collect in (("plans", collect_plan_secrets), ("states", collect_state_secrets)):
        for path in sorted((CORPUS / kind).glob("*.json")) if CORPUS.is_dir() else ():
            try:
                document = json.loads(path.read_text(encoding="utf-8"))
                found.extend(collect(document).ordered)
            except (ValueError, TypeError, AttributeError):
                continue
    return found


def unrelated_text() -> str:
    parts = [p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]]
    parts.extend(p.read_text(encoding="utf-8") for p in sorted(Path(_pytest.__file__).parent.rglob("*.py")))
    return "\n".join(parts)


def generated_plan_secrets() -> list[str]:
    if not GEN_PLAN.is_file():
        return []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "plan.json")
        subprocess.run([sys.executable, str(GEN_PLAN), "--resources", "1000", "--seed", "1", "-o", str(out)],
                       check=True, capture_output=True)
        return list(collect_plan_secrets(json.loads(out.read_text(encoding="utf-8"))).ordered)


def collateral(window: int, secrets: list[str], text: str) -> float:
    _redact.SUBSTRING_WINDOW = window  # type: ignore[misc]
    scrubbed = Secrets(secrets).scrub(text)
    # What survives unchanged, by characters: the rest was replaced.
    changed = len(text) - sum(len(part) for part in scrubbed.split(_redact.SENSITIVE))
    return 100.0 * changed / len(text)


def main() -> None:
    text = unrelated_text()
    real = corpus_secrets()
    default = _redact.SUBSTRING_WINDOW
    print(f"unrelated text: {len(text) / 1e6:.2f} MB; corpus secrets: {len(real)}; shapes: {len(SHAPES)}")
    print("| window | corpus secrets: text replaced % | + typical shapes: text replaced % |")
    print("|---:|---:|---:|")
    for window in (4, 5, 6, 8, 10, 12, 16):
        a = collateral(window, real, text)
        b = collateral(window, real + SHAPES, text)
        print(f"| {window} | {a:.4f} | {b:.4f} |")
    _redact.SUBSTRING_WINDOW = default  # type: ignore[misc]

    many = generated_plan_secrets()
    if many:
        start = time.perf_counter()
        secrets = Secrets(many)
        secrets.touches("")
        build = time.perf_counter() - start
        sample = text[:100_000]
        start = time.perf_counter()
        reps = 5
        for _ in range(reps):
            secrets.scrub(sample)
        per_kb = (time.perf_counter() - start) / reps / (len(sample) / 1000) * 1e6
        print(f"generated 1000-resource plan: {len(many)} secrets; scanner built in {build * 1000:.1f} ms; "
              f"scrub {per_kb:.0f} µs per KB of text (window {default})")


if __name__ == "__main__":
    main()
