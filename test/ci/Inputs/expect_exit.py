#!/usr/bin/env python3
"""usage: expect_exit.py CODE COMMAND...: runs COMMAND (standard streams
inherited) and succeeds only when it exits with CODE."""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.run(sys.argv[2:]).returncode
if got != want:
    sys.stderr.write(f"expect_exit: expected exit code {want}, got {got}: "
                     f"{' '.join(sys.argv[2:])}\n")
    sys.exit(1)
