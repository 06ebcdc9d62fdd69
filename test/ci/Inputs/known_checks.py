#!/usr/bin/env python3
"""usage: known_checks.py CI_TOOL DRIVER PY_DRIVER

Fails when a streamsafe-* check that the driver or streamsafe-py lists
(`--list-checks`) is unknown to streamsafe-ci: it has no page where
streamsafe-ci looks for it (next to CI_TOOL), so its SARIF rule would have
no description. Prints the checks it verified."""
import os
import subprocess
import sys

ci_tool, driver, py_driver = sys.argv[1:4]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(ci_tool))))

from streamsafe_ci import cli, rules, runner  # noqa: E402


def listed(argv):
    out = subprocess.run(argv + ["--checks=-*,streamsafe-*", "--list-checks"],
                         check=True, capture_output=True, text=True).stdout
    return [c for c in runner._listed(out) if c.startswith("streamsafe-")]


cpp, python = listed([driver]), listed([py_driver])
if not cpp or not python:
    sys.exit("known_checks: a tool lists no streamsafe-* check")
catalog = rules.RuleCatalog(cli.doc_dirs(ci_tool), rules.DEFAULT_DOC_BASE_URL)
unknown = [c for c in sorted(set(cpp) | set(python)) if not catalog.knows(c)]
for c in unknown:
    print(f"error: streamsafe-ci does not know {c} (no page in "
          f"{', '.join(catalog.doc_dirs) or 'any documentation folder'})")
for c in sorted(set(cpp) | set(python)):
    print(("C++ " if c in cpp else " " * 4) +
          ("Python " if c in python else " " * 7) + c)
sys.exit(1 if unknown else 0)
