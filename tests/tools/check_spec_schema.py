#!/usr/bin/env python3
"""Every committed spec (experiments/specs/*.json) validates against experiments/specs/spec.schema.json,
and every broken spec of tests/data/broken_specs/MANIFEST.tsv marked 1 in its third column is rejected."""
import glob
import json
import os
import sys

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPECS = os.path.join(ROOT, "experiments", "specs")
BROKEN = os.path.join(ROOT, "tests", "data", "broken_specs")


def main():
    with open(os.path.join(SPECS, "spec.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    passed = failed = 0
    specs = sorted(p for p in glob.glob(os.path.join(SPECS, "*.json")) if not p.endswith(".schema.json"))
    if not specs:
        print("no specs found in " + SPECS)
        return 1
    for path in specs:
        with open(path) as f:
            errors = list(validator.iter_errors(json.load(f)))
        if errors:
            failed += 1
            for e in errors[:5]:
                print(f"FAIL {os.path.relpath(path, ROOT)}: /{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
        else:
            passed += 1
    rejected = 0
    with open(os.path.join(BROKEN, "MANIFEST.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    for name, _, expressible in rows:
        with open(os.path.join(BROKEN, name)) as f:
            doc = json.load(f)
        valid = validator.is_valid(doc)
        if expressible == "1" and valid:
            failed += 1
            print(f"FAIL broken spec {name} is accepted by the schema")
        elif expressible == "1":
            passed += 1
            rejected += 1
    print(f"{len(specs)} specs checked, {rejected} broken specs rejected")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
