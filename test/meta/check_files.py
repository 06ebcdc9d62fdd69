#!/usr/bin/env python3
"""Fails when a registered streamsafe-* check lacks its documentation page
(docs/checks/<name>.md) or its lit test (test/checkers/<name>*.cpp|.cu).

The list of checks comes from the driver itself (`--list-checks`), so a check
cannot be registered without being noticed here.
"""
import argparse
import glob
import os
import subprocess
import sys


def registered_checks(driver):
    out = subprocess.run(
        [driver, "--checks=-*,streamsafe-*", "--list-checks"],
        check=True, stdout=subprocess.PIPE, text=True).stdout
    return sorted(line.strip() for line in out.splitlines()
                  if line.strip().startswith("streamsafe-"))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--driver", required=True)
    p.add_argument("--root", required=True, help="source tree")
    args = p.parse_args()
    checks = registered_checks(args.driver)
    if not checks:
        sys.exit("no streamsafe-* check is registered")
    missing = []
    for check in checks:
        name = check[len("streamsafe-"):]
        doc = os.path.join(args.root, "docs", "checks", name + ".md")
        if not os.path.isfile(doc):
            missing.append("%s: no documentation page %s" % (check, doc))
        tests = [t for ext in ("cpp", "cu") for t in glob.glob(
            os.path.join(args.root, "test", "checkers", "%s*.%s" % (name, ext)))]
        if not tests:
            missing.append("%s: no test test/checkers/%s*.cpp|.cu" % (check, name))
    for m in missing:
        print("error: " + m)
    print("%d checks registered, %d files missing" % (len(checks), len(missing)))
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
