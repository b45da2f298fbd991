"""Fail unless the junit report shows end-to-end tests that ran against a real Terraform and passed,
and every skip says why in words a reader can read.

A skip reason the plugin scrubbed ("shared/corpus is (sensitive) beside the repository") means a
test planted a common word as a secret (a sensitive value's words are scrubbed from every later
report of the session): its reason no longer tells why the test was skipped.
"""

import sys
import xml.etree.ElementTree as ET

MIN_E2E = 5


def main(path: str) -> int:
    root = ET.parse(path).getroot()
    ran = skipped = 0
    garbled = []
    for case in root.iter("testcase"):
        where = (case.get("classname") or "") + "." + (case.get("name") or "")
        skip = case.find("skipped")
        if skip is not None and "(sensitive)" in (skip.get("message") or ""):
            garbled.append(f"{where}: {skip.get('message')}")
        if "e2e" not in where:
            continue
        if case.find("skipped") is not None:
            skipped += 1
        elif case.find("failure") is None and case.find("error") is None:
            ran += 1
    print(f"e2e tests: {ran} passed, {skipped} skipped")
    if garbled:
        print("FAIL: skip reasons scrubbed as secrets (a test planted a common word as a secret):", file=sys.stderr)
        print("\n".join(garbled[:20]), file=sys.stderr)
        return 1
    if skipped or ran < MIN_E2E:
        print(f"FAIL: expected at least {MIN_E2E} e2e tests to run and none to skip", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
