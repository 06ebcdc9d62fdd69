#!/usr/bin/env bash
# Builds and runs the GPU integration suite (docs/integration.md).
#   integration/run_gpu.sh [--sanitizer] [--runs N]
# Needs PyTorch (python3 -c 'import torch'), nvcc, CMake, ninja and a GPU.
# Writes integration/results/<date>-<gpu>-torch<version>.{json,md}, and copies
# them to $OUT when it is set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sanitizer=0
runs=${STREAMSAFE_RUNS:-20}
while [ $# -gt 0 ]; do
  case $1 in
  --sanitizer) sanitizer=1 ;;
  --runs) runs=$2; shift ;;
  *) echo "usage: $0 [--sanitizer] [--runs N]" >&2; exit 2 ;;
  esac
  shift
done

[ -d /usr/local/cuda/bin ] && export PATH=/usr/local/cuda/bin:$PATH
torch_prefix=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')
torch_version=$(python3 -c 'import torch;print(torch.__version__.split("+")[0])')
torch_cuda=$(python3 -c 'import torch;print(torch.version.cuda)')
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1)
gpu_slug=$(echo "$gpu" | sed 's/NVIDIA //; s/[^A-Za-z0-9]\+/-/g; s/-$//' | tr A-Z a-z)
name="$(date +%F)-${gpu_slug}-torch${torch_version}"
build=${BUILD_DIR:-$here/build}
results=$here/results
mkdir -p "$results" "$build"
export TORCH_CUDA_ARCH_LIST=$cc

echo "== configure + build ($gpu, sm_${cc/./}, torch $torch_version)"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$torch_prefix" -DCMAKE_CUDA_ARCHITECTURES="${cc/./}" \
  >"$build/configure.log" 2>&1 || { tail -40 "$build/configure.log"; exit 1; }
ninja -C "$build" -k 0 -j "$(nproc)" >"$build/build.log" 2>&1 || grep -B2 -A12 'error' "$build/build.log" | head -80
echo "== built in ${SECONDS}s"

# Writes results/<name>.{json,md} from the lines so far (and copies to $OUT).
collect() {
  python3 - "$lines" "$results/$name.json" "$gpu" "$torch_version" "$torch_cuda" "$runs" <<'PY'
import json, sys, datetime
lines, dst, gpu, torch_version, cuda, runs = sys.argv[1:]
cases = {}
for l in open(lines):
    r = json.loads(l)
    c = cases.setdefault(r.pop("case"), {})
    v = r.pop("variant")
    if "sanitizer_errors" in r:
        c.setdefault("sanitizer", {})[v] = {"errors": r["sanitizer_errors"], "rc": r["sanitizer_rc"]}
    else:
        c[v] = r
json.dump({"date": datetime.date.today().isoformat(), "gpu": gpu, "torch": torch_version,
           "cuda": "CUDA " + cuda, "runs": int(runs), "cases": cases}, open(dst, "w"), indent=1)
PY
  python3 "$here/make_table.py" "$results/$name.json" >"$results/$name.md"
  if [ -n "${OUT:-}" ]; then
    cp "$results/$name.json" "$results/$name.md" "$OUT/"
    cp "$build"/*.log "$build"/*.err "$OUT/" 2>/dev/null
  fi
}

lines=$build/lines.jsonl
: >"$lines"
cases=$(ls "$here"/cases/*_bug.* | sed 's#.*/##; s/_bug\..*//')
echo "== run ($runs runs each)"
for c in $cases; do
  for v in bug fixed; do
    exe=$build/${c}_$v
    if [ ! -x "$exe" ]; then
      echo "{\"case\": \"$c\", \"variant\": \"$v\", \"error\": \"not built\"}" | tee -a "$lines"
      continue
    fi
    out=$("$exe" "$runs" 2>"$build/${c}_$v.err")
    rc=$?
    line=$(echo "$out" | grep '^{' | tail -1)
    [ -n "$line" ] || line="{\"case\": \"$c\", \"variant\": \"$v\", \"error\": \"exit $rc: $(tail -c 300 "$build/${c}_$v.err" | tr -d '"\\\n')\"}"
    echo "$line" | tee -a "$lines"
  done
done

collect

# compute-sanitizer catches stream-ordered lifetime races only with the
# cudaMallocAsync backend. Run it on the record_stream / allocation cases (both
# variants), then on the other bug variants while time is left.
sanitize() { # case variant
  local exe=$build/${1}_$2 log=$build/${1}_$2.sanitizer.log rc errors
  [ -x "$exe" ] || return
  PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync STREAMSAFE_WARMUP=1 timeout 90 \
    compute-sanitizer --tool memcheck --track-stream-ordered-races all "$exe" 2 >"$log" 2>&1
  rc=$?
  errors=$(grep -o 'ERROR SUMMARY: [0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  echo "{\"case\": \"$1\", \"variant\": \"$2\", \"sanitizer_errors\": ${errors:-null}, \"sanitizer_rc\": $rc}" | tee -a "$lines"
  collect
}
if [ "$sanitizer" = 1 ]; then
  echo "== compute-sanitizer"
  alloc_cases="missing_record_stream fresh_alloc_side_write fill_on_side_no_wait"
  for c in $alloc_cases; do sanitize "$c" bug; sanitize "$c" fixed; done
  for c in $cases; do
    case " $alloc_cases " in *" $c "*) continue ;; esac
    [ "$SECONDS" -lt "${SANITIZER_DEADLINE_S:-400}" ] && sanitize "$c" bug
  done
fi
collect
cat "$results/$name.md"
echo "== done in ${SECONDS}s"
