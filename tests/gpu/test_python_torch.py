"""test_python_torch.py -- drtopk.topk (python/drtopk) on torch CUDA tensors
and, when installed, CuPy arrays: the GPU backend of build/libdrtopk.so against
torch.topk's values (every torch key type, both orders, several dims and the
shapes of the batched benchmark's workloads scaled down), indices pointing at the values,
and no copy of a contiguous input.  Prints gpu_test.h's lines and closes with
"N passed, N failed".  Run by tests/gpu/run.sh's `python` step:
    PYTHONPATH=python DRTOPK_LIBRARY=build/libdrtopk.so python3 tests/gpu/test_python_torch.py"""
import sys

import torch

import drtopk

passed = failed = 0


def check(ok, name, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok %d %s" % (passed + failed, name))
    else:
        failed += 1
        print("not ok %d %s: %s" % (passed + failed, name, why))


TYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int64]
SHAPES = [((256, 4096), 50), ((1024, 256), 8), ((100, 10000), 100), ((3, 5, 700), 7), ((2, 300000), 64)]


def case(x, k, dim, largest, sorted_):
    name = "%s %s k=%d dim=%d largest=%s sorted=%s" % (x.dtype, tuple(x.shape), k, dim, largest, sorted_)
    try:
        v, i = drtopk.topk(x, k, dim=dim, largest=largest, sorted=sorted_)
        torch.cuda.synchronize()
    except Exception as e:                       # noqa: BLE001 -- reported as a failure
        check(False, name, repr(e))
        return
    want, _ = torch.topk(x, k, dim=dim, largest=largest, sorted=True)
    got = v if sorted_ else torch.sort(v, dim=dim, descending=largest).values
    at = torch.gather(x, dim, i)
    ok = torch.equal(at, v) and torch.equal(got, want) and i.dtype == torch.int64
    check(ok, name, "values differ from torch.topk or from x at the indices")


def main():
    if not torch.cuda.is_available():
        print("# no CUDA device\n0 passed, 0 failed")
        return 77
    g = torch.Generator(device="cuda").manual_seed(16)
    for t in TYPES:
        for shape, k in SHAPES:
            if t.is_floating_point:
                x = torch.randn(shape, device="cuda", generator=g).to(t)
            else:
                x = torch.randint(-1000, 1000, shape, device="cuda", generator=g).to(t)
            for largest in (True, False):
                for sorted_ in (True, False):
                    case(x, k, -1, largest, sorted_)
            case(x, 1, 0, True, True)
    x = torch.randn(64, 1000, device="cuda")
    before = x.data_ptr()
    v, i = drtopk.topk(x, 10)
    check(x.data_ptr() == before and torch.equal(torch.gather(x, 1, i), v), "contiguous torch input read in place")
    try:
        import cupy
        cx = cupy.random.standard_normal((128, 5000), dtype=cupy.float32)
        v, i = drtopk.topk(cx, 20, sorted=True)
        want = -cupy.sort(-cx, axis=1)[:, :20]
        check(bool(cupy.array_equal(v, want)) and bool(cupy.array_equal(cupy.take_along_axis(cx, i, 1), v)),
              "cupy float32 (128, 5000) k=20 sorted")
    except ImportError:
        print("ok %d cupy # SKIP cupy not installed" % (passed + failed + 1))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
