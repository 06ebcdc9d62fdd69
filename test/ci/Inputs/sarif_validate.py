#!/usr/bin/env python3
"""Validates SARIF files with Microsoft's SARIF Multitool (sarif-sdk).

usage: sarif_validate.py --tool-dir DIR [--allow-warnings] FILE...

The multitool is installed by scripts/setup.sh into DIR (an npm prefix,
.tools/sarif-multitool of the source tree), with the user's proxy and CA
settings; this script only runs it and never goes to the network. When it is
not there, the script fails (exit code 2) and says why: the reason setup.sh
recorded in DIR/install-error.txt, or that setup.sh has not been run.

It runs `sarif-multitool validate FILE -o FILE.validation.sarif` and fails
(exit code 1) when the validation log has an error- or warning-level result
(JSON schema violations are JSON1xxx errors, SARIF1xxx are spec rules,
SARIF2xxx best practices). The multitool exits 0 even when it finds errors,
so its log is what counts. Notes (e.g. SARIF2006 "URI not reachable" without
network) do not fail.
"""
import argparse
import json
import os
import subprocess
import sys

EXIT_INVALID, EXIT_NO_TOOL = 1, 2


def find_tool(tool_dir):
    """The installed multitool, or exits with the reason it is missing."""
    tool = os.path.join(tool_dir, "node_modules", ".bin", "sarif-multitool")
    if os.access(tool, os.X_OK):
        return tool
    why = "scripts/setup.sh has not installed it (run scripts/setup.sh)"
    try:
        with open(os.path.join(tool_dir, "install-error.txt"),
                  encoding="utf-8", errors="replace") as f:
            why = ("scripts/setup.sh could not install it: " +
                   f.read().strip())
    except OSError:
        pass
    sys.stderr.write(
        f"sarif_validate: error: the SARIF validator is not installed in "
        f"{tool_dir}: {why}\n"
        "sarif_validate: the tests never install it themselves (they must "
        "not need the network); fix the cause and run scripts/setup.sh "
        "again\n")
    sys.exit(EXIT_NO_TOOL)


def problems(log_path):
    with open(log_path, encoding="utf-8-sig") as f:
        log = json.load(f)
    found = []
    for run in log.get("runs", []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        for res in run.get("results", []):
            level = res.get("level")
            if level is None and "ruleIndex" in res:
                level = (rules[res["ruleIndex"]].get("defaultConfiguration", {})
                         .get("level"))
            level = level or "warning"
            if level in ("error", "warning"):
                msg = res.get("message", {})
                text = msg.get("text") or " / ".join(msg.get("arguments", []))
                found.append(f"{level} {res.get('ruleId')}: {text}")
        for inv in run.get("invocations", []):
            for n in inv.get("toolExecutionNotifications", []):
                if n.get("level", "warning") == "error":
                    found.append("error (tool): " + n.get("message", {}).get("text", ""))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool-dir", required=True)
    ap.add_argument("--allow-warnings", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    tool = find_tool(args.tool_dir)
    failed = False
    for path in args.files:
        out = path + ".validation.sarif"
        proc = subprocess.run([tool, "validate", path, "-o", out, "--log",
                               "ForceOverwrite"], capture_output=True, text=True)
        if proc.returncode != 0 or not os.path.exists(out):
            sys.stderr.write(f"sarif_validate: error: {path}: sarif-multitool "
                             f"failed (exit code {proc.returncode}):\n"
                             f"{proc.stdout}{proc.stderr}")
            sys.exit(EXIT_NO_TOOL)
        found = problems(out)
        if args.allow_warnings:
            found = [p for p in found if not p.startswith("warning")]
        for p in found:
            print(f"{path}: {p}")
        if found:
            failed = True
        else:
            print(f"{path}: valid SARIF 2.1.0 (sarif-multitool)")
    sys.exit(EXIT_INVALID if failed else 0)


if __name__ == "__main__":
    main()
