#!/usr/bin/env python3
"""Validates SARIF files with Microsoft's SARIF Multitool (sarif-sdk).

usage: sarif_validate.py --npm-dir DIR [--home DIR] [--allow-warnings] FILE...

Installs @microsoft/sarif-multitool from the npm registry into DIR the first
time (later runs find it and skip the install), runs
`sarif-multitool validate FILE -o FILE.validation.sarif` and fails when the
validation log has an error- or warning-level result (JSON schema violations
are JSON1xxx errors, SARIF1xxx are spec rules, SARIF2xxx best practices).
The multitool exits 0 even when it finds errors, so its log is what counts.
Notes (e.g. SARIF2006 "URI not reachable" without network) do not fail.
"""
import argparse
import fcntl
import json
import os
import subprocess
import sys

PACKAGE = "@microsoft/sarif-multitool@5"


def ensure_installed(npm_dir, home):
    tool = os.path.join(npm_dir, "node_modules", ".bin", "sarif-multitool")
    os.makedirs(npm_dir, exist_ok=True)
    with open(os.path.join(npm_dir, ".install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # lit runs tests in parallel
        if not os.path.exists(tool):
            env = dict(os.environ)
            if home:
                env["HOME"] = home
            proc = subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--prefix",
                 npm_dir, PACKAGE], env=env, capture_output=True, text=True)
            if proc.returncode != 0 or not os.path.exists(tool):
                sys.exit(f"sarif_validate: cannot install {PACKAGE} from the "
                         f"npm registry into {npm_dir} (npm exit code "
                         f"{proc.returncode}):\n{proc.stdout}{proc.stderr}")
        # npm may skip the package's postinstall `chmod u+x`.
        for platform in ("linux", "darwin"):
            exe = os.path.join(npm_dir, "node_modules", "@microsoft",
                               f"sarif-multitool-{platform}", "Sarif.Multitool")
            if os.path.exists(exe) and not os.access(exe, os.X_OK):
                os.chmod(exe, 0o755)
    return tool


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
    ap.add_argument("--npm-dir", required=True)
    ap.add_argument("--home")
    ap.add_argument("--allow-warnings", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    tool = ensure_installed(args.npm_dir, args.home)
    failed = False
    for path in args.files:
        out = path + ".validation.sarif"
        proc = subprocess.run([tool, "validate", path, "-o", out, "--log",
                               "ForceOverwrite"], capture_output=True, text=True)
        if proc.returncode != 0 or not os.path.exists(out):
            print(f"{path}: sarif-multitool failed (exit code "
                  f"{proc.returncode}):\n{proc.stdout}{proc.stderr}")
            failed = True
            continue
        found = problems(out)
        if args.allow_warnings:
            found = [p for p in found if not p.startswith("warning")]
        for p in found:
            print(f"{path}: {p}")
        if found:
            failed = True
        else:
            print(f"{path}: valid SARIF 2.1.0 (sarif-multitool)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
