"""Checks the JSON of `bench/bench.py --quick` (test/tools/bench-quick.test):
every section is there and carries real measurements."""
import json
import sys

r = json.load(open(sys.argv[1]))
for section in ("overhead", "scaling", "nostream", "project"):
    assert section in r, f"section {section} missing: {sorted(r)}"
rows = r["scaling"]["rows"]
assert rows, "no scaling rows"
for row in rows:
    assert row["statements"] >= row["n_target"], row
    assert row["engine_cpu"] is not None and row["engine_cpu"] >= 0, row
    assert row["rss_kib"] > 0, row
    assert not row["skipped_functions"], row
for row in r["overhead"] + [r["nostream"]]:
    assert row["cpu_a"] and row["cpu_b"], row["file"]
    assert row["dataflow_cpu"] is not None, row["file"]
    assert not row["skipped_functions"], row["file"]
assert r["project"]["runs"], "no whole-project run"
print("bench json ok:", len(rows), "scaling rows")
