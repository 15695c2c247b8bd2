/*
 * pipeline_spec.h -- the one specification of the Dr. Top-k pipeline (paper
 * sections 4.1-4.3, 5.1 and 5.2): subrange geometry, the buffer capacities, the
 * radix digit and the skip-last-digit decision, and Rules 1-4, each a function
 * named after it.  It compiles as C11 host code and as CUDA device code
 * (hd.h), so the CUDA kernels (kernels/pipeline.cu, concat_filter.cu,
 * radix_topk.cu), the CPU reference (cpu_ref.c), the planner (plan.c and
 * batch_dr_spec.h: Rule 4) and the BMW workload counter (src/harness/bmw.c)
 * decide every rule with the same lines.
 *
 * Terms.  V holds n elements.  Subrange s is V[s 2^alpha, min(n, (s+1) 2^alpha));
 * its nd(s) = min(beta, |S|) best elements are its delegates and D is all of
 * them.  The first top-k selects the k best delegates (with skip-last-digit
 * possibly more); c(s) counts the selected delegates of s.  t is the copy
 * threshold; the concatenated vector C collects, per subrange, what Rule 3
 * says; the second top-k runs on C.
 *
 * Why the result is exact.  Let v_k be the k-th largest key of V.  The
 * classification below guarantees, for every rule and every mutant:
 *   (a) every selected delegate reaches C (its subrange's scan copies it, or
 *       it is copied as is: drtopk_rule2_tied_delegate);
 *   (b) a subrange all of whose delegates are selected is scanned;
 *   (c) t is at most the key of every selected delegate (the k-th selected one's
 *       key, with skip-last-digit rounded down to its 8-bit digit, or 0).
 * The selection holds at least k delegates, k distinct elements of V with keys
 * >= t, so t <= v_k.  Take x in V but not in C.  If its subrange was scanned,
 * key(x) <= t <= v_k (a scan copies every key above t).  Otherwise, by (b), the subrange has an unselected
 * delegate d with key(d) >= key(x) (d = x when x is a delegate, by (a); else
 * x lost to every delegate), and at least k selected delegates have keys >=
 * key(d): by (a) they are in C with keys >= key(x), so key(x) <= v_k.  Hence
 * every element above v_k is in C, and C holds at least k elements >= v_k (all
 * of V's if none is missing, else those k delegates): the top-k of C is a
 * top-k of V.  When k >= |D| every delegate is selected and t = 0, so C = V.
 *
 * Capacities (why the pipeline's buffers are large enough):
 *  - the first top-k keeps cap1 = k delegates, with skip-last-digit
 *    max(k, min(DRTOPK_SKIP_CAPACITY_FACTOR k, |D| / 2)): stopping one digit early keeps
 *    every delegate that shares the k-th one's upper 24 bits, a few more than
 *    k on spread-out data; when more than cap1 would come out the top-k
 *    resolves the last digit after all, so cap1 bounds the selection either way;
 *  - a scanned subrange has at least m(s) selected delegates, m(s) the fewest
 *    Rule 3 scans with (nd(s) normally), so at most cap1 / m_full full
 *    subranges are scanned, plus the tail when its m is smaller:
 *    scan_cap = min(nsub, cap1 / m_full + [m(tail) < m_full]) (nsub when
 *    Rule 1 is off: then m = 0);
 *  - C holds at most 2^alpha elements per scanned subrange plus the copied
 *    delegates of the others (<= cap1), and never more than V:
 *    c_cap = min(n, scan_cap 2^alpha + cap1).
 *
 * Mutation switches (the mutation test of the GPU suite).  Compiled with
 * -DDRTOPK_MUTATE_RULE1, _RULE2, _RULE3 or _SKIP_LAST_DIGIT, the code that
 * includes this header switches that rule off; the answer stays exact (the
 * proof above holds for each) and the capacities follow, but the workload
 * counters (first_selected, scanned_subranges, concat_len) change:
 *   Rule 1 off: every subrange is scanned, as if each qualified whole;
 *   Rule 2 off: t = 0, scanned subranges are copied whole;
 *   Rule 3 off: a subrange with any selected delegate is scanned;
 *   skip-last-digit off: the first top-k never stops a digit early.
 */
#ifndef DRTOPK_PIPELINE_SPEC_H
#define DRTOPK_PIPELINE_SPEC_H
#include <stdint.h>
#include "hd.h"

/* ---- mutation switches: 1 = the rule is on (the library always) --------- */
#ifdef DRTOPK_MUTATE_RULE1
#define DRTOPK_RULE1_ON 0
#else
#define DRTOPK_RULE1_ON 1
#endif
#ifdef DRTOPK_MUTATE_RULE2
#define DRTOPK_RULE2_ON 0
#else
#define DRTOPK_RULE2_ON 1
#endif
#ifdef DRTOPK_MUTATE_RULE3
#define DRTOPK_RULE3_ON 0
#else
#define DRTOPK_RULE3_ON 1
#endif
#ifdef DRTOPK_MUTATE_SKIP_LAST_DIGIT
#define DRTOPK_SKIP_LAST_DIGIT_ON 0
#else
#define DRTOPK_SKIP_LAST_DIGIT_ON 1
#endif

/* ---- the digit ---------------------------------------------------------- */
/* Keys are ordered keys (keyorder.h) of 16, 32 or 64 bits, passed here in a
 * uint64_t whatever their width (a 32-bit caller's values convert exactly and
 * its comparisons stay 32-bit once inlined). */
#define DRTOPK_DIGIT_BITS 8          /* radix digit: 32-bit keys in 4 passes (paper 5.1),
                                        16-bit in 2, 64-bit in 8 */
#define DRTOPK_DIGIT_MASK ((1u << DRTOPK_DIGIT_BITS) - 1u)
/* With skip-last-digit (paper 4.3) the first top-k may keep more than k
 * delegates; every backend caps that at this many times k (and at |D|) and
 * resolves the last digit when more would come out, which bounds the buffers
 * behind the concatenation and keeps the backends' workloads equal. */
#define DRTOPK_SKIP_CAPACITY_FACTOR 2
/* ... and at |D| / 2^DRTOPK_SKIP_DELEGATE_SHARE_LOG2: a selection stopped a
 * digit early has the digit floor as its threshold, so on keys tied within
 * one digit (ND = N(10^8, 10) as u32 spans less than one 8-bit digit) it
 * selects every delegate and scans every subrange with no filter at all --
 * 26 ms instead of 2 at 2^30, k = 2^22, alpha 8, beta 2 (H100).  Keeping at
 * least half of D out bounds what the early stop can cost. */
#define DRTOPK_SKIP_DELEGATE_SHARE_LOG2 1

DRTOPK_HD uint64_t drtopk_spec_min(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ---- subrange geometry (paper 4.1, 4.3) --------------------------------- */
DRTOPK_HD uint64_t drtopk_subrange_len(int alpha) { return 1ull << alpha; }

/* ceil(n / 2^alpha): the last one (the tail) may be shorter. */
DRTOPK_HD uint64_t drtopk_subrange_count(uint64_t n, int alpha)
{
    return (n >> alpha) + ((n & (drtopk_subrange_len(alpha) - 1)) != 0);
}

/* Delegates of a full subrange: min(beta, 2^alpha). */
DRTOPK_HD uint64_t drtopk_nd_full(int alpha, int beta)
{
    return drtopk_spec_min((uint64_t)beta, drtopk_subrange_len(alpha));
}

/* nd(s) = min(beta, |S|): nd_full but for a tail shorter than beta. */
DRTOPK_HD uint64_t drtopk_nd(uint64_t n, int alpha, int beta, uint64_t s)
{
    const uint64_t lo = s << alpha;
    return drtopk_spec_min((uint64_t)beta, drtopk_spec_min(drtopk_subrange_len(alpha), n - lo));
}

/* |D| = sum over the subranges of nd(s). */
DRTOPK_HD uint64_t drtopk_delegate_len(uint64_t n, int alpha, int beta)
{
    const uint64_t nsub = drtopk_subrange_count(n, alpha);
    if (nsub == 0) return 0;
    return (nsub - 1) * drtopk_nd_full(alpha, beta) + drtopk_nd(n, alpha, beta, nsub - 1);
}

/* The first top-k only runs when it leaves out at least half of D (|D| >=
 * 2k); otherwise every delegate counts as selected, t = 0 and C = V: the
 * second top-k runs on V directly.  Beyond the paper: with fewer
 * delegates to drop the concatenation copies most of V and the second top-k
 * reads it again.  Measured on the H100 and H200 (tuner sweeps, u32/i32/f32 x
 * UD/ND/CD): plans with k < |D| < 2k ran 1.0-3.6x slower than the second
 * top-k on V, and the step at |D| = k made one plan 2.4x slower at n = 2^28 + 3
 * (|D| = k + 2) than at 2^28 (|D| = k).  The paper's worked examples (Figures
 * 5, 7, 8: |D| >= 2k) are unchanged. */
#define DRTOPK_DELEGATES_PER_K_MIN 2
DRTOPK_HD int drtopk_first_topk_needed(uint64_t k, uint64_t dlen) { return k <= dlen / DRTOPK_DELEGATES_PER_K_MIN; }

/* ---- skip-last-digit (paper 4.3) ---------------------------------------- */
/* Whether the plan's DRTOPK_SKIP_LAST_DIGIT takes effect (never in the
 * skip-last-digit mutant). */
DRTOPK_HD int drtopk_skip_last_digit_on(int plan_skip) { return DRTOPK_SKIP_LAST_DIGIT_ON && plan_skip; }

/* The decision of a top-k that has resolved every digit but the last:
 * `count` elements (those above the resolved prefix plus those matching it)
 * would come out; stop there when skipping is on and they fit `capacity`. */
DRTOPK_HD int drtopk_skip_last_digit_stops(int skip, uint64_t count, uint64_t capacity)
{
    return drtopk_skip_last_digit_on(skip) && count <= capacity;
}

/* The threshold of a selection that stopped a digit early: the k-th key with
 * its last digit cleared; every key >= it is selected. */
DRTOPK_HD uint64_t drtopk_skip_last_digit_floor(uint64_t key) { return key & ~(uint64_t)DRTOPK_DIGIT_MASK; }

/* The first top-k's capacity cap1 (header comment), when it runs (k < |D|):
 * k, or with skip-last-digit what an early stop may select. */
DRTOPK_HD uint64_t drtopk_first_capacity(uint64_t k, uint64_t dlen, int plan_skip)
{
    const uint64_t early = drtopk_spec_min(DRTOPK_SKIP_CAPACITY_FACTOR * k, dlen >> DRTOPK_SKIP_DELEGATE_SHARE_LOG2);
    return drtopk_skip_last_digit_on(plan_skip) && early > k ? early : k;
}

/* ---- Rules 1-3 ---------------------------------------------------------- */
/* Rule 1 (paper 4.1, maximum delegate): a subrange none of whose delegates
 * is among the first top-k's selection holds no element of the top-k and is
 * left out whole.  Off (mutant): every subrange qualifies. */
DRTOPK_HD int drtopk_rule1_qualifies(uint64_t c) { return !DRTOPK_RULE1_ON || c > 0; }

/* Rule 2 (paper 4.2, delegate top-k enabled filtering): the copy threshold t
 * of the scanned subranges is the first top-k's threshold -- the k-th selected
 * delegate's key, rounded down by drtopk_skip_last_digit_floor when the
 * selection stopped a digit early -- because no smaller element can reach the
 * top-k; 0 (copy whole subranges) without DRTOPK_FILTER or with Rule 2 off. */
DRTOPK_HD uint64_t drtopk_rule2_threshold(uint64_t first_threshold, int filter)
{
    return DRTOPK_RULE2_ON && filter ? first_threshold : 0u;
}

/* What the scan of a subrange copies: with filtering, keys strictly above t.
 * Copies of t itself are not needed: the selected delegates, all in C (see
 * drtopk_rule2_tied_delegate), already give k elements >= t, and v_k >= t, so
 * the top-k of C is exact without the other ties.  On data with heavy ties
 * at t (ND = N(10^8, 10) as u32 holds ~100 values, each ~10^7 times in 2^30)
 * copying keys >= t put millions of copies of the k-th value into C.
 * Without filtering (or Rule 2 off) every element. */
DRTOPK_HD int drtopk_rule2_scan_copies(uint64_t key, uint64_t t, int filter)
{
    return DRTOPK_RULE2_ON && filter ? key > t : 1;
}

/* A selected delegate of a scanned subrange that its scan does not copy (a
 * tie at t) goes to C as it is, like those of a partly selected subrange. */
DRTOPK_HD int drtopk_rule2_tied_delegate(uint64_t key, uint64_t t, int filter)
{
    return !drtopk_rule2_scan_copies(key, t, filter);
}

/* What the concatenation takes from a subrange. */
typedef enum {
    DRTOPK_SUBRANGE_LEFT_OUT = 0,   /* nothing (Rule 1)                        */
    DRTOPK_SUBRANGE_COPY_SELECTED,  /* its selected delegates as they are       */
    DRTOPK_SUBRANGE_SCAN            /* every element with key > t, and its
                                       selected delegates at t (Rule 2)         */
} drtopk_subrange_class;

/* Rule 3 (paper 4.3, beta delegates): a subrange with c of its nd delegates
 * selected is scanned only when all of them are (c == nd); with fewer, its
 * unselected delegates stand above the rest of it, so only the selected
 * ones can reach the top-k and they go to C as they are.  With Rule 1 off
 * every subrange is scanned (copying the selected delegates of an
 * unqualified one would leave it out after all); with Rule 3 off every
 * subrange that Rule 1 lets through is scanned. */
DRTOPK_HD drtopk_subrange_class drtopk_rule3_classify(uint64_t c, uint64_t nd)
{
    if (!drtopk_rule1_qualifies(c)) return DRTOPK_SUBRANGE_LEFT_OUT;
    if (!DRTOPK_RULE1_ON || !DRTOPK_RULE3_ON || c >= nd) return DRTOPK_SUBRANGE_SCAN;
    return DRTOPK_SUBRANGE_COPY_SELECTED;
}

/* Whether every scanned subrange has all of its delegates selected (Rules 1
 * and 3 on), so that a kernel can list it once, by its best delegate, from
 * the selection alone; otherwise it must visit every subrange. */
#define DRTOPK_SCAN_NEEDS_ALL_DELEGATES (DRTOPK_RULE1_ON && DRTOPK_RULE3_ON)

/* The fewest selected delegates with which Rule 3 scans a subrange of nd
 * delegates: nd, 1 with Rule 3 off, 0 with Rule 1 off. */
DRTOPK_HD uint64_t drtopk_rule3_scan_minimum(uint64_t nd)
{
    uint64_t c = 0;
    while (drtopk_rule3_classify(c, nd) != DRTOPK_SUBRANGE_SCAN) ++c;
    return c;
}

/* ---- Rule 4 (paper 5.2, the subrange size) ----------------------------- */
/* floor(log2 x) in six steps; -1 for x = 0. */
DRTOPK_HD int drtopk_spec_log2_floor(uint64_t x)
{
    int r = x ? 0 : -1;
    for (int s = 32; s > 0; s >>= 1)
        if (x >> s) {
            x >>= s;
            r += s;
        }
    return r;
}

/* Rule 4: alpha = round(0.5 (c + log2 n - log2 k)), for an integer const c
 * and n >= k >= 1, in integers and unclamped (the caller clamps): with L =
 * log2(n / k) and c + L >= 0, rounding half away from zero is floor((c + 1 +
 * L) / 2), and for the integer c + 1 that is floor((c + 1 + floor(L)) / 2),
 * floor(L) = floor(log2(floor(n / k))).  Exact where the rounding is a tie
 * (n / k a power of two, c + log2(n / k) odd), which log2 in floating point
 * gets wrong for about one such (n, k) in thirteen, and the same on the host
 * and the device, so a bound the host derives holds for the alpha a kernel
 * derives.  Below 0 (c + 1 + floor(L) < 0) it returns -1: every caller's
 * least alpha is above it. */
DRTOPK_HD int drtopk_rule4_alpha_int(uint64_t n, uint64_t k, int c)
{
    const int s = c + 1 + drtopk_spec_log2_floor(n / k);
    return s < 0 ? -1 : s / 2;
}

/* ---- capacities (header comment) ---------------------------------------- */
/* Subranges the concatenation may scan when the first top-k keeps <= cap1. */
DRTOPK_HD uint64_t drtopk_scan_capacity(uint64_t n, int alpha, int beta, uint64_t cap1)
{
    const uint64_t nsub = drtopk_subrange_count(n, alpha);
    const uint64_t m_full = drtopk_rule3_scan_minimum(drtopk_nd_full(alpha, beta));
    const uint64_t m_tail = drtopk_rule3_scan_minimum(drtopk_nd(n, alpha, beta, nsub - 1));
    if (m_full == 0) return nsub;
    return drtopk_spec_min(nsub, cap1 / m_full + (m_tail < m_full ? 1 : 0));
}

/* |C| capacity: whole scanned subranges plus copied delegates, at most n. */
DRTOPK_HD uint64_t drtopk_concat_capacity(uint64_t n, int alpha, uint64_t scan_cap, uint64_t cap1)
{
    return drtopk_spec_min(n, scan_cap * drtopk_subrange_len(alpha) + cap1);
}

#endif
