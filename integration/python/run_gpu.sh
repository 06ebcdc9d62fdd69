#!/usr/bin/env bash
# Runs the Python twins (docs/integration.md, "Python twins") on a CUDA GPU:
# every case plainly, then under PyTorch's CUDA Sanitizer (TORCH_CUDA_SANITIZER=1).
#   integration/python/run_gpu.sh [--runs N]
# Needs PyTorch with CUDA (python3 -c 'import torch'). Writes
# results/<date>-<gpu>-torch<version>.json (the analyzer columns are added by
# make_table.py from results/analyzer.json) and copies it to $OUT when set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${STREAMSAFE_RUNS:-20}
while [ $# -gt 0 ]; do
  case $1 in
  --runs) runs=$2; shift ;;
  *) echo "usage: $0 [--runs N]" >&2; exit 2 ;;
  esac
  shift
done
export PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH}
torch_version=$(python3 -c 'import torch;print(torch.__version__.split("+")[0])')
torch_cuda=$(python3 -c 'import torch;print(torch.version.cuda)')
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
gpu_slug=$(echo "$gpu" | sed 's/NVIDIA //; s/[^A-Za-z0-9]\+/-/g; s/-$//' | tr A-Z a-z)
name="$(date +%F)-${gpu_slug}-torch${torch_version}"
work=${WORK_DIR:-$(mktemp -d)}
lines=$work/lines.jsonl
: >"$lines"
echo "== $gpu, torch $torch_version, CUDA $torch_cuda, $runs runs each"

# One process: the harness's JSON line plus the process's wall time and,
# under CSAN, how many race reports it printed.
one() { # case variant sanitizer(0|1)
  local c=$1 v=$2 san=$3 log=$work/$1_$2_$3.err t0 t1 out rc line reports
  t0=$(date +%s.%N)
  # torch enables CSAN when the variable is set at all (even to 0): unset it.
  if [ "$san" = 1 ]; then export TORCH_CUDA_SANITIZER=1; else unset TORCH_CUDA_SANITIZER; fi
  out=$(timeout "${CASE_TIMEOUT_S:-120}" python3 "$here/cases/${c}_$v.py" "$runs" 2>"$log")
  rc=$?
  t1=$(date +%s.%N)
  reports=$(grep -c 'CSAN detected a possible data race' "$log")
  line=$(echo "$out" | grep '^{' | tail -1)
  [ -n "$line" ] || line="{\"case\": \"$c\", \"variant\": \"$v\", \"error\": \"exit $rc: $(tail -c 300 "$log" | tr -d '"\\\n')\"}"
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); r.update(case=sys.argv[2], variant=sys.argv[3], sanitizer=sys.argv[4]=="1", process_seconds=round(float(sys.argv[6])-float(sys.argv[5]),3), csan_reports=int(sys.argv[7]), rc=int(sys.argv[8])); print(json.dumps(r))' \
    "$line" "$c" "$v" "$san" "$t0" "$t1" "${reports:-0}" "$rc" | tee -a "$lines"
  [ -n "${OUT:-}" ] && cp "$log" "$OUT/" 2>/dev/null
}

collect() {
  python3 - "$lines" "$here/results/$name.json" "$gpu" "$torch_version" "$torch_cuda" "$runs" <<'PY'
import json, sys, datetime
lines, dst, gpu, torch_version, cuda, runs = sys.argv[1:]
cases = {}
for l in open(lines):
    r = json.loads(l)
    c = cases.setdefault(r.pop("case"), {})
    v = r.pop("variant")
    c.setdefault(v, {})["csan" if r.pop("sanitizer") else "plain"] = r
json.dump({"date": datetime.date.today().isoformat(), "gpu": gpu, "torch": torch_version,
           "cuda": "CUDA " + cuda, "runs": int(runs), "cases": cases}, open(dst, "w"), indent=1)
PY
  [ -n "${OUT:-}" ] && cp "$here/results/$name.json" "$OUT/"
}

mkdir -p "$here/results"
cases=$(ls "$here"/cases/*_bug.py | sed 's#.*/##; s/_bug\.py$//')
echo "== plain"
for c in $cases; do for v in bug fixed; do one "$c" "$v" 0; done; done
collect
echo "== TORCH_CUDA_SANITIZER=1"
for c in $cases; do for v in bug fixed; do one "$c" "$v" 1; done; collect; done
unset TORCH_CUDA_SANITIZER
echo "== done in ${SECONDS}s"
