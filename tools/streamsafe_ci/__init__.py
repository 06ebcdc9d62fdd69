"""streamsafe-ci: the StreamSafe CI gate (see docs/ci.md).

Runs the `streamsafe` driver (or clang-tidy with the StreamSafe plugin) over a
compile database in parallel and turns its findings into text, SARIF 2.1.0 or
JSON lines, with baselines, changed-lines filtering, sharding and exit codes
that a lint gate can trust. Python 3 standard library only.
"""

__version__ = "0.1.0"
