#!/usr/bin/env bash
# run_peers.sh -- runs the modern peers (CUB DeviceTopK and
# torch.topk) on the same seeded data (default |V| = 2^30 u32, UD/ND/CD,
# k = 4^0..4^12; both take --dtypes u32,i32,f32,f16,bf16,u64,i64,f64, --dists,
# --ks, --log-n, --reps) and collects their JSON lines (each naming the GPU's name and uuid and the
# seed) into one file for `tuner --import-peers OUT.jsonl`, which stores them
# beside the algorithms' rows.  A peer that is not built (CCCL >= 3.2 headers
# missing) or cannot import torch is reported as skipped.  Each CUB build
# (one per CCCL version) runs with 64-bit and 32-bit item counts: each
# (version, width) is a configuration of the peer, and the figures take the
# fastest one per point (the peers at their best).
#
#   experiments/peers/run_peers.sh [OUT.jsonl] [extra args for both peers]
#   the peers default to seed 1, the tuner's default, so they see the very data
#   of the algorithms' rows
#   environment: CUB_PEER (default bin/cub_topk_peer; several builds separated
#   by spaces), PYTHON (default python3), CUB_ITEM_BITS (default "64 32": the
#   item count widths to run; 32 was always fastest: docs/changelog.md, 2026-11-23)
#   Both peers time with --timing gpu (the tuner's default: the stream held
#   until the call is enqueued) unless the extra args say --timing call.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-peers.jsonl}
shift || true
cub_peer=${CUB_PEER:-bin/cub_topk_peer}
python=${PYTHON:-python3}
: > "$out"
CUB_ITEM_BITS=${CUB_ITEM_BITS:-64 32}   # cub_topk_peer --items: the item count's width
ran=0
for peer in $cub_peer; do
    [ -x "$peer" ] || continue
    ran=1
    for bits in $CUB_ITEM_BITS; do
        "$peer" --items "$bits" "$@" | tee -a "$out" || echo "run_peers: $peer --items $bits failed" >&2
    done
done
if [ "$ran" = 0 ]; then
    echo '{"peer":"cub_device_topk","skipped":"not built (configure.sh found no CCCL >= 3.2 headers)"}' | tee -a "$out"
fi
"$python" experiments/peers/torch_topk.py "$@" | tee -a "$out" || echo "run_peers: torch_topk.py failed" >&2
echo "run_peers: $(grep -c '"ms_median"' "$out") rows in $out; store them with: bin/tuner --import-peers $out"
