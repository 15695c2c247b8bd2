#!/bin/sh
# delegate_sweep.sh -- the delegate build alone (paper 4.1, 5.1, 5.3) across
# alpha: |V| = 2^30, k = 16 (later stages negligible), beta 2, median of 7, the
# `delegate` stage time of `drtopk run --json`, with the plan's shared-memory
# builds (default) and with --no-shared-delegate (warp-centric only), for u32
# and f32.  The numbers behind delegate_build.cu's shape choices
# (docs/changelog.md, 2026-11-21).  Needs a GPU.
#   experiments/delegate_sweep.sh            (DRTOPK: the binary, default bin/drtopk;
#                                             SWEEP_ALPHAS, SWEEP_DTYPES to narrow)
set -u
DRTOPK=${DRTOPK:-bin/drtopk}
SWEEP_ALPHAS=${SWEEP_ALPHAS:-"3 4 5 6 7 8 9 10 12"}
SWEEP_DTYPES=${SWEEP_DTYPES:-"u32 f32"}
N="2^30"
K=16
BETA=2
REPS=7
[ -x "$DRTOPK" ] || { echo "delegate_sweep.sh: $DRTOPK not built (ninja bin/drtopk)"; exit 1; }
"$DRTOPK" version | grep -q "GPU usable: yes" || { echo "delegate_sweep.sh: no usable CUDA GPU"; exit 1; }
delegate_ms() { # dtype alpha [flag]: the median ms, or "err"
    "$DRTOPK" run --backend cuda --n "$N" --k "$K" --alpha "$2" --beta "$BETA" --dtype "$1" --reps "$REPS" \
        --json ${3:+"$3"} 2> /dev/null |
        python3 -c 'import json, sys; print("%.3f" % json.load(sys.stdin)["stage_ms_median"]["delegate"])' \
            2> /dev/null || echo err
}
printf "%-5s %5s %9s %9s\n" dtype alpha default warp
for dt in $SWEEP_DTYPES; do
    for a in $SWEEP_ALPHAS; do
        printf "%-5s %5s %9s %9s\n" "$dt" "$a" "$(delegate_ms "$dt" "$a")" "$(delegate_ms "$dt" "$a" --no-shared-delegate)"
    done
done
