/*
 * topk.cpp -- a user's C++ program against the installed drtopk
 * (tests/bats/install.bats links it with the static archive and the flags of
 * `pkg-config --static --libs drtopk`): the 5 smallest of 1000 distinct
 * floats on the CPU backend, best first, checked against the known answer.
 * Exit 0 and "ok" when right.
 */
#include <drtopk.h>

#include <cstdio>
#include <vector>

namespace {
constexpr uint64_t n = 1000, k = 5;
constexpr uint64_t stride = 7919;   // prime to n: i * stride mod n visits every value once
}

int main()
{
    std::vector<float> v(n), out(k);
    std::vector<uint64_t> idx(k);
    for (uint64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * stride) % n) - 500.0f;
    drtopk_problem p{};
    p.backend = DRTOPK_BACKEND_CPU;
    p.dtype = DRTOPK_F32;
    p.order = DRTOPK_SMALLEST;
    p.n = n;
    p.k = k;
    p.values = v.data();
    drtopk_plan plan;
    size_t bytes = 0;
    drtopk_status st = drtopk_plan_auto(&plan, &p, nullptr);
    plan.flags |= DRTOPK_SORTED;
    if (st == DRTOPK_OK) st = drtopk_select_workspace(&p, &plan, &bytes);
    std::vector<unsigned char> ws(bytes);
    if (st == DRTOPK_OK) st = drtopk_select(&p, &plan, ws.data(), bytes, out.data(), idx.data(), nullptr, nullptr);
    if (st != DRTOPK_OK) {
        std::fprintf(stderr, "drtopk: %s: %s\n", drtopk_status_string(st), drtopk_last_error());
        return 1;
    }
    for (uint64_t i = 0; i < k; ++i) {
        if (out[i] != static_cast<float>(i) - 500.0f || v[idx[i]] != out[i]) {
            std::fprintf(stderr, "wrong answer at %llu: value %g\n", static_cast<unsigned long long>(i), out[i]);
            return 1;
        }
    }
    std::printf("ok: drtopk %d.%d, top %llu of %llu from C++\n", DRTOPK_VERSION_MAJOR, DRTOPK_VERSION_MINOR,
                static_cast<unsigned long long>(k), static_cast<unsigned long long>(n));
    return 0;
}
