#!/usr/bin/env python3
"""py_overhead.py -- where the host time of one small drtopk.topk call from
Python goes (the per-call overhead of the Python binding, python/drtopk;
beyond the paper): the whole call beside its parts, timed on the host alone
(time.perf_counter around back-to-back calls, the best of --reps spans), so
the binding's own share is the whole call minus the library call.

  NumPy (CPU backend), where NumPy is installed: drtopk.topk on a 1 x 64 float32 row, k 4, and
  the library call alone (drtopk_batch_topk with its plan, pointers and
  workspace made once), and np.argpartition for scale.
  torch CPU tensors, where torch is installed: the same beside torch.topk.
  torch CUDA tensors, with a GPU: drtopk.topk on 1 x 4096, k 16 (the shape
  whose overhead decides whether we beat torch.topk) and its parts -- the
  library call alone (host work and kernel launch), one torch.empty, the
  current raw stream, the capture check, the direct-path checks -- and
  torch.topk; the GPU is synchronised between spans only, and a span holds at
  most GPU_SPAN_CALLS calls, so the launch queue never fills (the host time
  is what is timed, never the GPU's).
  CuPy arrays, with CuPy and a GPU: the same row, drtopk.topk beside the
  library call alone and one cupy.empty.

Prints a Markdown table, microseconds per call; timings are reported, never
checked.

  PYTHONPATH=python python3 experiments/py_overhead.py [--calls 2000] [--reps 5]
"""
import argparse
import ctypes
import sys
import time

import drtopk

ROW, K = 64, 4                  # the NumPy/CPU row: small, so the library's own work is tiny
GPU_ROW, GPU_K = 4096, 16       # the decode-time shape of experiments/py_bench.py
GPU_SPAN_CALLS = 128            # calls per timed span on the GPU: their launches (torch.topk makes
                                # several a call) stay under the CUDA launch queue's depth (about a
                                # thousand), so the host never waits for the GPU


def per_call_us(fn, calls, reps, sync=None):
    """Best of reps spans of `calls` back-to-back calls of fn, in microseconds per call."""
    best = float("inf")
    fn()                                        # warm: plans and workspaces cached
    for _ in range(reps):
        if sync:
            sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, time.perf_counter() - t0)
    if sync:
        sync()
    return best / calls * 1e6


def library_call(x_ptr, backend, code, rows, cols, k, alloc, ptr, stream):
    """drtopk_batch_topk with everything made once: a function of no arguments."""
    lib = drtopk._library()
    p = drtopk._Problem(backend, code, drtopk._LARGEST, rows, cols, None, k, None, x_ptr, 0)
    plan, nbytes = drtopk._Plan(), ctypes.c_size_t()
    st = drtopk._run_c(p, plan, drtopk._SORTED, None, nbytes, None, None, None)
    if st != 0:
        sys.exit("py_overhead: planning failed: %s" % lib.drtopk_last_error().decode())
    ws, values, indices = alloc(nbytes.value, "ws"), alloc(rows * k, "values"), alloc(rows * k, "indices")
    run = drtopk._run_c
    ws_p, v_p, i_p = ptr(ws), ptr(values), ptr(indices)
    return lambda: run(p, plan, 0, ws_p, nbytes, v_p, i_p, stream)


def numpy_rows(np, calls, reps):
    x = np.random.default_rng(1).standard_normal((1, ROW)).astype(np.float32)
    kinds = {"ws": np.uint8, "values": np.float32, "indices": np.int64}
    lib = library_call(x.ctypes.data, drtopk._BACKEND_CPU, drtopk._DTYPES["float32"], 1, ROW, K,
                       lambda n, what: np.empty(n, dtype=kinds[what]), lambda a: a.ctypes.data, None)
    whole = per_call_us(lambda: drtopk.topk(x, K), calls, reps)
    alone = per_call_us(lib, calls, reps)
    return [("numpy 1 x %d, k %d" % (ROW, K), "drtopk.topk", whole),
            ("", "library call alone", alone),
            ("", "binding's share (drtopk.topk - library)", whole - alone),
            ("", "np.argpartition (for scale)", per_call_us(lambda: np.argpartition(x, -K, axis=1), calls, reps))]


def torch_rows(torch, calls, reps):
    from drtopk import _torch as dt
    rows = []
    x = torch.randn(1, ROW, generator=torch.Generator().manual_seed(1))
    whole = per_call_us(lambda: drtopk.topk(x, K), calls, reps)
    rows += [("torch CPU 1 x %d, k %d" % (ROW, K), "drtopk.topk", whole),
             ("", "torch.topk", per_call_us(lambda: torch.topk(x, K), calls, reps))]
    if not torch.cuda.is_available():
        return rows
    dev = torch.cuda.current_device()
    sync = torch.cuda.synchronize
    calls = min(calls, GPU_SPAN_CALLS)
    g = torch.randn(1, GPU_ROW, device="cuda", generator=torch.Generator(device="cuda").manual_seed(1))
    sizes = {"ws": torch.uint8, "values": torch.float32, "indices": torch.int64}
    lib = library_call(g.data_ptr(), drtopk._BACKEND_CUDA, drtopk._DTYPES["float32"], 1, GPU_ROW, GPU_K,
                       lambda n, what: torch.empty(n, dtype=sizes[what], device="cuda"), lambda t: t.data_ptr(),
                       dt._raw_stream(dev))
    whole = per_call_us(lambda: drtopk.topk(g, GPU_K), calls, reps, sync)
    alone = per_call_us(lib, calls, reps, sync)
    shape = (1, GPU_K)
    rows += [("torch CUDA 1 x %d, k %d (spans of %d calls)" % (GPU_ROW, GPU_K, calls), "drtopk.topk", whole),
             ("", "library call alone (host work + launch)", alone),
             ("", "binding's share (drtopk.topk - library)", whole - alone),
             ("", "  torch.empty((1, k), device=cuda)",
              per_call_us(lambda: torch.empty(shape, dtype=torch.float32, device=g.device), calls, reps, sync)),
             ("", "  current raw stream", per_call_us(lambda: dt._raw_stream(dev), calls, reps)),
             ("", "  capture check", per_call_us(dt._capturing, calls, reps)),
             ("", "  direct-path checks", per_call_us(lambda: dt._direct(g), calls, reps)),
             ("", "torch.topk", per_call_us(lambda: torch.topk(g, GPU_K), calls, reps, sync))]
    return rows


def cupy_rows(cupy, calls, reps):
    """The CuPy call on the GPU row of the torch rows: drtopk.topk against the library call alone."""
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception:               # cupy installed without a usable GPU
        return []
    sync = cupy.cuda.Device().synchronize
    calls = min(calls, GPU_SPAN_CALLS)
    g = cupy.random.default_rng(1).standard_normal((1, GPU_ROW), dtype=cupy.float32)
    sizes = {"ws": cupy.uint8, "values": cupy.float32, "indices": cupy.int64}
    lib = library_call(g.data.ptr, drtopk._BACKEND_CUDA, drtopk._DTYPES["float32"], 1, GPU_ROW, GPU_K,
                       lambda n, what: cupy.empty(n, dtype=sizes[what]), lambda a: a.data.ptr,
                       cupy.cuda.get_current_stream().ptr)
    whole = per_call_us(lambda: drtopk.topk(g, GPU_K), calls, reps, sync)
    alone = per_call_us(lib, calls, reps, sync)
    return [("cupy 1 x %d, k %d (spans of %d calls)" % (GPU_ROW, GPU_K, calls), "drtopk.topk", whole),
            ("", "library call alone (host work + launch)", alone),
            ("", "binding's share (drtopk.topk - library)", whole - alone),
            ("", "  cupy.empty((1, k))", per_call_us(lambda: cupy.empty((1, GPU_K), dtype=cupy.float32), calls, reps,
                                                      sync))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=2000, help="calls per timed span")
    ap.add_argument("--reps", type=int, default=5, help="timed spans; the best is reported")
    a = ap.parse_args()
    if a.calls < 1 or a.reps < 1:
        ap.error("--calls and --reps must be at least 1 (got %d and %d)" % (a.calls, a.reps))
    rows, missing = [], []
    for name, part in (("numpy", numpy_rows), ("torch", torch_rows), ("cupy", cupy_rows)):
        try:
            mod = __import__(name)
        except ImportError:
            missing.append(name)
            continue
        rows += part(mod, a.calls, a.reps)
    if not rows:
        sys.exit("py_overhead: none of NumPy, torch and CuPy is installed: nothing to time")
    print("py_overhead: host us per call, best of %d spans of %d calls%s" % (
        a.reps, a.calls, "".join(" (%s not installed)" % m for m in missing)))
    print("| input | what | us per call |")
    print("| --- | --- | ---: |")
    for inp, what, us in rows:
        print("| %s | %s | %.2f |" % (inp, what, us))
    return 0


if __name__ == "__main__":
    sys.exit(main())
