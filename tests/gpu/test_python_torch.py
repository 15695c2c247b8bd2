"""test_python_torch.py -- drtopk.topk and drtopk.segmented_topk (python/drtopk)
on torch CUDA tensors and, when installed, CuPy arrays: the GPU backend of
build/libdrtopk.so through the operators drtopk::topk and
drtopk::segmented_topk.  Against torch.topk's values, with the indices
pointing at them: 1-D to 3-D shapes, every dim, strided slices, every torch
key type, both orders, sorted and not, and batched workloads scaled down
(token sampling, MoE routing, ANN re-ranking, long rows); no copy of a
contiguous input; torch.compile(fullgraph=True) (inductor) of a function
calling drtopk.topk, with its gradient; capture and replay in a CUDA graph;
gradcheck of both operators; torch.library.opcheck; the per-stream
workspace cache under two streams at once and under graph capture on a
cached stream; the direct eager path against the operator; ragged segments
with per-segment k; deterministic=True on rows full of ties against
torch.sort's stable order; a tensor on another device than the current one
(with 2 GPUs).  Prints
gpu_test.h's lines and closes with "N passed, N failed".  Run by
tests/gpu/run.sh's `py` step:
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


def guarded(name, fn):
    """Run check-producing fn; an exception is a failure named by `name`."""
    try:
        fn()
    except Exception as e:                       # noqa: BLE001 -- reported as a failure
        check(False, name, repr(e))


TYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int64]
WORKLOADS = [((256, 4096), 50), ((1024, 256), 8), ((100, 10000), 100), ((2, 300000), 64), ((1, 65536), 16)]
SHAPES = [(5000,), (37, 700), (3, 50, 70)]


def rand(shape, t, g):
    if t.is_floating_point:
        return torch.randn(shape, device="cuda", generator=g).to(t)
    return torch.randint(-1000, 1000, shape, device="cuda", generator=g).to(t)


def case(x, k, dim, largest, sorted_):
    name = "%s %s k=%d dim=%d largest=%s sorted=%s" % (x.dtype, tuple(x.shape), k, dim, largest, sorted_)

    def run():
        r = drtopk.topk(x, k, dim=dim, largest=largest, sorted=sorted_)
        want = torch.topk(x, k, dim=dim, largest=largest, sorted=True).values
        got = r.values if sorted_ else torch.sort(r.values, dim=dim, descending=largest).values
        ok = (torch.equal(torch.gather(x, dim, r.indices), r.values) and torch.equal(got, want)
              and r.indices.dtype == torch.int64 and isinstance(r, drtopk.TopkResult))
        check(ok, name, "values differ from torch.topk or from x at the indices")
    guarded(name, run)


def against_torch(g):
    for t in TYPES:
        for shape, k in WORKLOADS:
            x = rand(shape, t, g)
            for largest in (True, False):
                for sorted_ in (True, False):
                    case(x, k, -1, largest, sorted_)
        for shape in SHAPES:
            x = rand(shape, t, g)
            for dim in range(len(shape)):
                for largest in (True, False):
                    for sorted_ in (True, False):
                        case(x, min(9, shape[dim]), dim, largest, sorted_)
        x = rand((64, 3000), t, g)
        case(x[:, ::3], 20, -1, True, True)            # strided rows
        case(x[5:40, 100:2100], 50, 1, False, False)   # a window
        case(x.t(), 7, 0, True, True)                  # transposed: dim 0 contiguous
    case(torch.arange(10, device="cuda"), 3, 0, True, True)


def in_place():
    x = torch.randn(64, 1000, device="cuda")
    before = x.data_ptr()
    v, i = drtopk.topk(x, 10)
    check(x.data_ptr() == before and torch.equal(torch.gather(x, 1, i), v), "contiguous torch input read in place")


def compiled(g):
    def f(t):
        v, i = drtopk.topk(t, 16)
        return (v * 2).sum(), i

    cf = torch.compile(f, fullgraph=True)
    x = torch.randn(128, 4096, device="cuda", generator=g, requires_grad=True)
    s, i = cf(x)
    s.backward()
    want = torch.topk(x.detach(), 16)
    ok = torch.equal(torch.gather(x.detach(), 1, i), want.values) and torch.allclose(s, want.values.sum() * 2)
    ok = ok and torch.equal(x.grad, torch.zeros_like(x).scatter(1, i, 2.0))
    check(ok, "torch.compile(fullgraph=True) of a function calling drtopk.topk, with its gradient")


def graph_capture(g):
    x = torch.randn(256, 8192, device="cuda", generator=g)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):                     # warm up: plan and workspace size cached
        drtopk.topk(x, 50)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        v, i = drtopk.topk(x, 50)
    ok = True
    for _ in range(3):
        x.copy_(torch.randn(256, 8192, device="cuda", generator=g))
        graph.replay()
        torch.cuda.synchronize()
        ok = ok and torch.equal(v, torch.topk(x, 50).values) and torch.equal(torch.gather(x, 1, i), v)
    check(ok, "drtopk.topk captured in a CUDA graph and replayed on new data")


def gradients(g):
    x = torch.randn(6, 40, device="cuda", dtype=torch.float64, generator=g, requires_grad=True)
    ok = all(torch.autograd.gradcheck(lambda t: drtopk.topk(t, 5, dim=d).values, (x,)) for d in (0, 1))
    check(ok, "gradcheck of drtopk.topk on CUDA (dims 0 and 1)")
    flat = x.detach().flatten().requires_grad_()
    offs = torch.tensor([0, 0, 100, 101, 240], device="cuda")
    ks = torch.tensor([3, 7, 1, 5], device="cuda")
    ok = all(torch.autograd.gradcheck(lambda t: drtopk.segmented_topk(t, offs, 6, ks=per).values, (flat,))
             for per in (None, ks))
    check(ok, "gradcheck of drtopk.segmented_topk on CUDA (with and without per-segment k)")
    from torch.library import opcheck
    y = x.detach()
    opcheck(torch.ops.drtopk.topk.default, (y, 4, 1, True, True))
    opcheck(torch.ops.drtopk.topk.default, (y, 3, 0, False, False))
    offs = torch.tensor([0, 100, 100, 240], device="cuda")
    opcheck(torch.ops.drtopk.segmented_topk.default, (y.flatten(), offs, 8, None, True, True))
    check(True, "torch.library.opcheck of drtopk::topk and drtopk::segmented_topk on CUDA")


def workspace_streams(g):
    """Calls on two streams at once, each with its own cached workspace, one of them growing its
    workspace in the middle, every call queued before anything is read: every result as
    torch.topk's.  A workspace shared across the streams, or one freed while a queued call still
    used it, would mix rows of the problems."""
    from drtopk import _torch as dt
    xs = [torch.randn(256, 65536, device="cuda", generator=g), torch.randn(512, 32768, device="cuda", generator=g),
          torch.randn(64, 300000, device="cuda", generator=g)]
    for x in xs:                                     # plans and workspace sizes cached
        drtopk.topk(x, 64)
    dev = torch.cuda.current_device()
    need = [dt._topk_entries[(x.shape, x.dtype, x.device, 64, -1, True, True, False)].nbytes for x in xs]
    order = sorted(range(3), key=need.__getitem__)   # stream 1: the smallest workspace, then the largest
    plan = [[xs[order[1]]] * 6, [xs[order[0]]] * 3 + [xs[order[2]]] * 3]
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    for s in streams:
        s.wait_stream(torch.cuda.current_stream())
    out = []
    for rep in range(6):
        for s, todo in zip(streams, plan):
            with torch.cuda.stream(s):
                out.append((todo[rep], drtopk.topk(todo[rep], 64)))
    for s in streams:
        torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    ok = all(torch.equal(r.values, torch.topk(x, 64).values) and torch.equal(torch.gather(x, 1, r.indices), r.values)
             for x, r in out)
    cached = [dt._workspaces.get((dev, s.cuda_stream)) for s in streams]
    ok = ok and None not in cached and cached[0][0].data_ptr() != cached[1][0].data_ptr()
    ok = ok and cached[1][1] == need[order[2]]       # grown to the largest
    check(ok, "workspace cache: calls on two streams at once, one growing its workspace (%d to %d bytes), "
              "results intact" % (need[order[0]], need[order[2]]),
          "a result differs from torch.topk, or the streams' cached workspaces are %s (cache limit %d bytes)"
          % ([None if c is None else (c[0].data_ptr(), c[1]) for c in cached], dt._WS_CACHE_MAX_BYTES))


def workspace_capture(g):
    """A graph captured on a stream whose workspace is cached gets a workspace of its own: the
    cache is untouched by the capture, and replays on one stream while eager calls on the
    captured stream run beside them both stay right."""
    from drtopk import _torch as dt
    x = torch.randn(256, 65536, device="cuda", generator=g)
    y = torch.randn(256, 65536, device="cuda", generator=g)
    s, other = torch.cuda.Stream(), torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):                       # warm up on s: s's workspace cached
        drtopk.topk(x, 50)
    key = (torch.cuda.current_device(), s.cuda_stream)
    before = {k: (v[0].data_ptr(), v[1]) for k, v in dt._workspaces.items()}
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=s):
        gv, gi = drtopk.topk(x, 50)
    after = {k: (v[0].data_ptr(), v[1]) for k, v in dt._workspaces.items()}
    ok = key in before and before == after
    eager = []
    other.wait_stream(torch.cuda.current_stream())
    for _ in range(4):
        with torch.cuda.stream(other):
            graph.replay()
        with torch.cuda.stream(s):
            eager.append(drtopk.topk(y, 50))
    torch.cuda.synchronize()
    want_x, want_y = torch.topk(x, 50).values, torch.topk(y, 50).values
    ok = ok and torch.equal(gv, want_x) and torch.equal(torch.gather(x, 1, gi), gv)
    ok = ok and all(torch.equal(r.values, want_y) and torch.equal(torch.gather(y, 1, r.indices), r.values)
                    for r in eager)
    check(ok, "workspace cache: a graph captured on a cached stream gets its own workspace; "
              "replays beside eager calls on that stream stay right",
          "cache before the capture %s, after %s, or a result differs from torch.topk" % (before, after))


def direct_path(g):
    """The eager call that skips the dispatcher gives what the operator gives, and the operator
    is still taken under autograd and no_grad flips back to the direct path."""
    x = torch.randn(3, 9000, device="cuda", generator=g)
    ok = True
    for _ in range(2):                               # the second call takes the cached entry
        r = drtopk.topk(x, 33, largest=False, sorted=True)
        v, i = torch.ops.drtopk.topk.default(x, 33, -1, False, True)
        ok = ok and torch.equal(r.values, v) and torch.equal(r.indices, i)
    xg = x.clone().requires_grad_()
    ok = ok and drtopk.topk(xg, 33).values.grad_fn is not None
    with torch.no_grad():
        ok = ok and drtopk.topk(xg, 33).values.grad_fn is None
    check(ok, "direct eager path matches torch.ops.drtopk.topk; autograd still recorded when wanted")


def segmented(g):
    lens = [0, 1, 100, 5000, 33, 70000, 7]
    offs = torch.tensor([0] + torch.tensor(lens).cumsum(0).tolist(), device="cuda")
    for t in TYPES:
        x = rand((int(offs[-1]),), t, g)
        ks = torch.tensor([3, 1, 50, 64, 0, 10, 64], device="cuda")
        for per_row in (None, ks):
            for largest in (True, False):
                name = "segmented %s ks=%s largest=%s" % (t, per_row is not None, largest)

                def run():
                    v, i = drtopk.segmented_topk(x, offs, 64, ks=per_row, largest=largest)
                    ok = tuple(v.shape) == (len(lens), 64)
                    for s, n in enumerate(lens):
                        k_s = min(64, n, 64 if per_row is None else int(ks[s]))
                        seg = x[offs[s]:offs[s + 1]]
                        ok = ok and torch.equal(v[s, :k_s], torch.topk(seg, k_s, largest=largest).values)
                        ok = ok and torch.equal(seg[i[s, :k_s]], v[s, :k_s]) and bool((i[s, k_s:] == -1).all())
                    check(ok, name, "a segment differs from torch.topk of it")
                guarded(name, run)


def deterministic(g):
    """deterministic=True on CUDA tensors full of ties: the indices are torch.sort's stable order
    (ties by position) cut at k -- that order when sorted, that set when not -- on rows of every
    batched engine's length and on one long row; segmented likewise; a second call, the same bits
    (unsorted: the same set)."""
    for t in (torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64):
        for rows, cols, k in ((64, 256, 8), (32, 4096, 100), (8, 1 << 17, 1000), (1, 1 << 22, 5000)):
            x = torch.randint(0, 7, (rows, cols), device="cuda", generator=g).to(t)
            for largest in (True, False):
                for sorted_ in (True, False):
                    name = "deterministic %s (%d, %d) k=%d largest=%s sorted=%s" % (t, rows, cols, k, largest,
                                                                                   sorted_)

                    def run():
                        want = torch.sort(x, dim=-1, descending=largest, stable=True).indices[:, :k]
                        v, i = drtopk.topk(x, k, largest=largest, sorted=sorted_, deterministic=True)
                        v2, i2 = drtopk.topk(x, k, largest=largest, sorted=sorted_, deterministic=True)
                        # unsorted: the same set, in an order that may differ between calls
                        got, got2 = (i, i2) if sorted_ else (torch.sort(i, dim=-1).values, torch.sort(i2, dim=-1).values)
                        ok = torch.equal(got, want if sorted_ else torch.sort(want, dim=-1).values)
                        ok = ok and torch.equal(torch.gather(x, 1, i), v) and torch.equal(got, got2)
                        ok = ok and (not sorted_ or torch.equal(v, v2))
                        check(ok, name, "not torch.sort's stable order cut at k, or a second call differs")
                    guarded(name, run)
    lens = [0, 1, 100, 5000, 33, 70000, 7]
    offs = torch.tensor([0] + torch.tensor(lens).cumsum(0).tolist(), device="cuda")
    x = torch.randint(0, 5, (int(offs[-1]),), device="cuda", generator=g).to(torch.float32)
    for sorted_ in (True, False):
        name = "deterministic segmented sorted=%s" % sorted_

        def run():
            v, i = drtopk.segmented_topk(x, offs, 64, sorted=sorted_, deterministic=True)
            ok = True
            for s, n in enumerate(lens):
                k_s = min(64, n)
                want = torch.sort(x[offs[s]:offs[s + 1]], descending=True, stable=True).indices[:k_s]
                got = i[s, :k_s] if sorted_ else torch.sort(i[s, :k_s]).values
                ok = ok and torch.equal(got, want if sorted_ else torch.sort(want).values)
            check(ok, name, "a segment is not torch.sort's stable order cut at k")
        guarded(name, run)


def other_device(g):
    if torch.cuda.device_count() < 2:
        print("ok %d tensor on a non-current GPU # SKIP one GPU" % (passed + failed + 1))
        return
    x = torch.randn(32, 5000, device="cuda:1")
    v, i = drtopk.topk(x, 10)
    check(v.device == x.device and torch.equal(v, torch.topk(x, 10).values), "tensor on cuda:1 while cuda:0 is current")


def cpu_tensor():
    x = torch.randn(8, 300)
    r = drtopk.topk(x, 5)
    check(r.values.device.type == "cpu" and torch.equal(r.values, torch.topk(x, 5).values), "torch CPU tensor")


def cupy_arrays():
    try:
        import cupy
    except ImportError:
        print("ok %d cupy # SKIP cupy not installed" % (passed + failed + 1))
        return
    cx = cupy.random.standard_normal((128, 5000), dtype=cupy.float32)
    v, i = drtopk.topk(cx, 20)
    want = -cupy.sort(-cx, axis=1)[:, :20]
    check(bool(cupy.array_equal(v, want)) and bool(cupy.array_equal(cupy.take_along_axis(cx, i, 1), v)),
          "cupy float32 (128, 5000) k=20")
    # a repeated shape takes the cached path: new data, a stream of its own, a non-contiguous view
    for trial in range(2):
        cy = cupy.random.standard_normal((128, 5000), dtype=cupy.float32)
        v, i = drtopk.topk(cy, 20)
        check(bool(cupy.array_equal(v, -cupy.sort(-cy, axis=1)[:, :20])) and
              bool(cupy.array_equal(cupy.take_along_axis(cy, i, 1), v)), "cupy repeated shape, call %d" % (trial + 2))
    with cupy.cuda.Stream() as st:
        v, i = drtopk.topk(cx, 20)
        st.synchronize()
    check(bool(cupy.array_equal(v, want)), "cupy repeated shape on another stream")
    v, _ = drtopk.topk(cx.T, 20, dim=0)
    check(bool(cupy.array_equal(v, -cupy.sort(-cx.T, axis=0)[:20])), "cupy along dim 0 of a transposed view")
    offs = cupy.array([0, 10, 10, 5000], dtype=cupy.int64)
    flat = cx.ravel()
    v, i = drtopk.segmented_topk(flat, offs, 5)
    check(bool(cupy.array_equal(v[2], -cupy.sort(-flat[10:5000])[:5])) and int(i[1, 0]) == -1,
          "cupy segmented_topk")


def main():
    if not torch.cuda.is_available():
        print("# no CUDA device\n0 passed, 0 failed")
        return 77
    g = torch.Generator(device="cuda").manual_seed(16)
    against_torch(g)
    for name, fn in (("in place", in_place), ("compile", lambda: compiled(g)),
                     ("graph capture", lambda: graph_capture(g)), ("gradients", lambda: gradients(g)),
                     ("workspace streams", lambda: workspace_streams(g)),
                     ("workspace capture", lambda: workspace_capture(g)), ("direct path", lambda: direct_path(g)),
                     ("segmented", lambda: segmented(g)), ("deterministic", lambda: deterministic(g)),
                     ("other device", lambda: other_device(g)),
                     ("cpu tensor", cpu_tensor), ("cupy", cupy_arrays)):
        guarded(name, fn)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
