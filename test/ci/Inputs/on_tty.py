#!/usr/bin/env python3
"""usage: on_tty.py OUT COMMAND...: runs COMMAND with its standard error on a
pseudo-terminal (standard output inherited) and writes what the terminal
received to OUT. Exits with the command's exit code."""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
proc = subprocess.Popen(sys.argv[2:], stderr=slave)
os.close(slave)
chunks = []
while True:
    try:
        data = os.read(master, 4096)
    except OSError:
        break
    if not data:
        break
    chunks.append(data)
code = proc.wait()
with open(sys.argv[1], "wb") as f:
    f.write(b"".join(chunks))
sys.exit(code)
