"""Fail unless the junit report shows end-to-end tests that ran against a real Terraform and passed."""

import sys
import xml.etree.ElementTree as ET

MIN_E2E = 5


def main(path: str) -> int:
    root = ET.parse(path).getroot()
    ran = skipped = 0
    for case in root.iter("testcase"):
        where = (case.get("classname") or "") + "." + (case.get("name") or "")
        if "e2e" not in where:
            continue
        if case.find("skipped") is not None:
            skipped += 1
        elif case.find("failure") is None and case.find("error") is None:
            ran += 1
    print(f"e2e tests: {ran} passed, {skipped} skipped")
    if skipped or ran < MIN_E2E:
        print(f"FAIL: expected at least {MIN_E2E} e2e tests to run and none to skip", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
