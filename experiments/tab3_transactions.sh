#!/bin/bash
# tab3_transactions.sh -- Table 3 (paper 6.4): global load and store
# transactions of radix, bucket, bitonic, plain and Dr.-assisted, |V| = 2^30,
# k = 2^7 on UD, measured with ncu on the GPU machine.  The database has no
# table for hardware counters yet (ncu_measurements); until it does the table
# is the "not measured" panel.  Verdict: Dr.-assisted loads and stores are
# below the plain algorithm's for each of radix, bucket, bitonic.
. "$(dirname "$0")/lib/common.sh"
exp_begin tab3_transactions "Table 3: global load and store transactions, |V| = 2^30, k = 2^7 (UD)"
plot_one() {
    if ! exp_has_table ncu_measurements; then
        exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
            "hardware counters are not stored yet: needs ncu runs on the GPU machine into a table ncu_measurements"
        return 0
    fi
    TABLE_ROWS=0
    exp_table tab3_transactions.sql "no ncu rows on this machine"
    [ "$TABLE_ROWS" -gt 0 ] || return 0
    v=$(awk 'NR > 1 { l[$1] = $2; s[$1] = $3 } END { c = 0; held = 1
            for (a in l) if (("dr-" a) in l) { ++c; if (l["dr-" a] >= l[a] || s["dr-" a] >= s[a]) held = 0 }
            print c ? (held ? "held" : "not held") : "not measured" }' "$EXP_DATA/${EXP_ID}-$M_SLUG.txt")
    exp_record "$M_SLUG" "$M_NAME" "$TABLE_ROWS" ok "$TABLE_ROWS algorithms (see the table)" "$v"
}
exp_for_machines plot_one
exp_end
