"""test_topk_torch.py -- drtopk.topk and drtopk.segmented_topk (python/drtopk) on
torch CPU tensors, the CPU backend through the operators drtopk::topk and
drtopk::segmented_topk: against torch.topk for 1-D to 3-D shapes, every dim,
strided slices, every torch key type drtopk has, both orders, sorted and not;
the named result; the gradient (gradcheck) and its scatter to the indices;
torch.library.opcheck of both operators (schema, fake kernel, autograd
registration); torch.compile(fullgraph=True) of a function calling drtopk.topk
(the aot_eager backend: fake-tensor tracing and autograd, no C++ compiler),
static and dynamic shapes; ragged segments; deterministic=True against
torch.sort's stable order; strict arguments.  Skipped, with
the reason, where torch >= 2.4 is not installed.  Run by tests/bats/python.bats
with PYTHONPATH=python."""
import unittest

try:
    import torch
    from torch.library import opcheck
    HAVE = hasattr(torch.library, "register_fake") and hasattr(torch.library, "register_autograd")
    WHY = "torch %s is older than 2.4 (torch.library.register_fake)" % torch.__version__
except ImportError:
    HAVE, WHY = False, "torch is not installed"

import drtopk

TYPES = ["float32", "float64", "float16", "bfloat16", "int32", "int64"]
SHAPES = [(300,), (7, 129), (3, 5, 40)]


def data(shape, dtype, gen):
    t = getattr(torch, dtype)
    if t.is_floating_point:
        return torch.randn(shape, generator=gen, dtype=torch.float64).to(t)
    return torch.randint(-1000, 1000, shape, generator=gen).to(t)


@unittest.skipUnless(HAVE, WHY)
class TopkTorchCpu(unittest.TestCase):
    def check(self, x, k, dim, largest, sorted_):
        name = "%s %s k=%d dim=%d largest=%s sorted=%s" % (x.dtype, tuple(x.shape), k, dim, largest, sorted_)
        r = drtopk.topk(x, k, dim=dim, largest=largest, sorted=sorted_)
        want = torch.topk(x, k, dim=dim, largest=largest, sorted=True)
        self.assertEqual(r.values.shape, want.values.shape, name)
        self.assertEqual(r.indices.dtype, torch.int64, name)
        self.assertTrue(torch.equal(torch.gather(x, dim, r.indices), r.values), name)
        got = r.values if sorted_ else torch.sort(r.values, dim=dim, descending=largest).values
        self.assertTrue(torch.equal(got, want.values), name)

    def test_against_torch_topk(self):
        g = torch.Generator().manual_seed(36)
        for t in TYPES:
            for shape in SHAPES:
                x = data(shape, t, g)
                for dim in range(-1, len(shape)):
                    k = min(5, x.shape[dim])
                    for largest in (True, False):
                        for sorted_ in (True, False):
                            self.check(x, k, dim, largest, sorted_)

    def test_slices_and_edges(self):
        g = torch.Generator().manual_seed(37)
        x = data((20, 64), "float32", g)
        self.check(x[:, ::3], 4, -1, True, True)          # strided rows
        self.check(x.t(), 6, 0, False, True)               # transposed: dim 0 is contiguous
        self.check(x[2:9, 10:40], 30, 1, True, False)       # k = the row length
        self.assertEqual(drtopk.topk(x, 0).values.shape, (20, 0))
        self.assertEqual(drtopk.topk(x[:0], 3).values.shape, (0, 3))

    def test_named_result_and_defaults(self):
        r = drtopk.topk(torch.arange(10), 3)
        self.assertIsInstance(r, drtopk.TopkResult)
        self.assertEqual(r.values.tolist(), [9, 8, 7])      # sorted=True by default
        self.assertEqual(r.indices.tolist(), [9, 8, 7])
        self.assertEqual(drtopk.topk(torch.arange(10), torch.tensor(2)).values.tolist(), [9, 8])

    def test_gradient(self):
        g = torch.Generator().manual_seed(38)
        x = torch.randn(4, 30, dtype=torch.float64, generator=g, requires_grad=True)
        for dim in (0, 1):
            self.assertTrue(torch.autograd.gradcheck(lambda t: drtopk.topk(t, 3, dim=dim).values, (x,)))
        v, i = drtopk.topk(x, 3)
        v.sum().backward()
        want = torch.zeros_like(x).scatter(1, i, 1.0)
        self.assertTrue(torch.equal(x.grad, want))          # the gradient lands on the selected elements
        self.assertIsNone(i.grad_fn)

    def test_segmented_gradient(self):
        g = torch.Generator().manual_seed(42)
        offs = torch.tensor([0, 0, 12, 13, 40])
        x = torch.randn(40, dtype=torch.float64, generator=g, requires_grad=True)
        ks = torch.tensor([3, 5, 1, 4])
        for per_row in (None, ks):
            self.assertTrue(torch.autograd.gradcheck(
                lambda t: drtopk.segmented_topk(t, offs, 5, ks=per_row).values, (x,)))
        x.grad = None
        v, i = drtopk.segmented_topk(x, offs, 5, ks=ks)
        (v * torch.arange(1.0, 6.0, dtype=torch.float64)).sum().backward()
        want = torch.zeros_like(x)
        for s in range(4):
            for j in range(5):
                if i[s, j] >= 0:
                    want[offs[s] + i[s, j]] = j + 1.0      # slot j's weight at its element
        self.assertTrue(torch.equal(x.grad, want))
        self.assertEqual(int((x.grad != 0).sum()), 0 + 5 + 1 + 4)  # min(k, length, ks) of each segment

    def test_direct_path(self):
        # an eager call without gradient skips the dispatcher: the same results, the argument
        # checks still strict once the shape is cached, and autograd still seen when it is wanted
        g = torch.Generator().manual_seed(43)
        x = torch.randn(5, 64, generator=g)
        for _ in range(2):                                  # the second call takes the cached entry
            r = drtopk.topk(x, 6)
            want = torch.ops.drtopk.topk.default(x, 6, -1, True, True)
            self.assertTrue(torch.equal(r.values, want[0]) and torch.equal(r.indices, want[1]))
            self.assertIsInstance(r, drtopk.TopkResult)
        drtopk.topk(x, 1)
        with self.assertRaisesRegex(TypeError, "k must be an integer, not a bool"):
            drtopk.topk(x, True)
        with self.assertRaisesRegex(TypeError, "largest must be True or False"):
            drtopk.topk(x, 1, largest=1)
        y = x.clone().requires_grad_()
        self.assertIsNotNone(drtopk.topk(y, 6).values.grad_fn)
        with torch.no_grad():
            self.assertIsNone(drtopk.topk(y, 6).values.grad_fn)
        t = torch.randn(64, 5, generator=g).t()             # the cached shape (5, 64), other strides
        self.assertFalse(t.is_contiguous())
        self.assertTrue(torch.equal(drtopk.topk(t, 6).values, torch.topk(t, 6).values))

    def test_opcheck(self):
        g = torch.Generator().manual_seed(39)
        x = torch.randn(6, 50, dtype=torch.float64, generator=g)
        for args in ((x, 4, 1, True, True), (x, 3, 0, False, False), (x[:, ::2], 2, -1, True, True)):
            opcheck(torch.ops.drtopk.topk.default, args)
        y, offs = torch.randn(100, generator=g), torch.tensor([0, 0, 30, 31, 100])
        opcheck(torch.ops.drtopk.segmented_topk.default, (y, offs, 5, None, True, True))
        opcheck(torch.ops.drtopk.segmented_topk.default, (y, offs, 5, torch.tensor([1, 2, 3, 9]), False, True))
        opcheck(torch.ops.drtopk.topk.default, (x, 4, 1, True, False, True))
        opcheck(torch.ops.drtopk.segmented_topk.default, (y, offs, 5, None, True, True, True))

    def test_deterministic(self):
        # ties by position: torch.sort's stable order cut at k (sorted), that set (unsorted)
        g = torch.Generator().manual_seed(42)
        x = torch.randint(0, 4, (5, 300), generator=g).to(torch.float32)
        for largest in (True, False):
            want = torch.sort(x, dim=-1, descending=largest, stable=True).indices[:, :37]
            for sorted_ in (True, False):
                v, i = drtopk.topk(x, 37, largest=largest, sorted=sorted_, deterministic=True)
                got = i if sorted_ else torch.sort(i, dim=-1).values
                self.assertTrue(torch.equal(got, want if sorted_ else torch.sort(want, dim=-1).values))
                v2, i2 = torch.ops.drtopk.topk(x, 37, -1, largest, sorted_, True)
                self.assertTrue(torch.equal(i, i2) and torch.equal(v, v2))

    def test_compile_fullgraph(self):
        def f(t):
            v, i = drtopk.topk(t, 4, dim=-1)
            return v * 2, i

        g = torch.Generator().manual_seed(40)
        for dynamic in (False, True):
            torch._dynamo.reset()
            cf = torch.compile(f, fullgraph=True, backend="aot_eager", dynamic=dynamic)
            for rows in (3, 5):
                x = torch.randn(rows, 33, generator=g, requires_grad=True)
                v, i = cf(x)
                want = torch.topk(x, 4)
                self.assertTrue(torch.equal(v, want.values * 2) and torch.equal(i, want.indices))
                v.sum().backward()
                self.assertTrue(torch.equal(x.grad, torch.zeros_like(x).scatter(1, i, 2.0)))

    def test_segmented(self):
        g = torch.Generator().manual_seed(41)
        lens = [0, 3, 17, 1, 90]
        offs = torch.tensor([0] + torch.tensor(lens).cumsum(0).tolist())
        x = torch.randn(int(offs[-1]), generator=g)
        ks = torch.tensor([2, 5, 4, 0, 7])
        for per_row in (None, ks):
            for largest in (True, False):
                v, i = drtopk.segmented_topk(x, offs, 6, ks=per_row, largest=largest)
                self.assertEqual(tuple(v.shape), (len(lens), 6))
                for s, n in enumerate(lens):
                    k_s = min(6, n, 6 if per_row is None else int(ks[s]))
                    seg = x[offs[s]:offs[s + 1]]
                    want = torch.topk(seg, k_s, largest=largest).values
                    self.assertTrue(torch.equal(v[s, :k_s], want), "segment %d" % s)
                    self.assertTrue(torch.equal(seg[i[s, :k_s]], v[s, :k_s]))
                    self.assertTrue(bool((i[s, k_s:] == -1).all()))

    def test_errors(self):
        x = torch.zeros(2, 3)
        for bad in (2.7, "3", True, torch.tensor(True), torch.tensor(2.0), None):
            with self.assertRaisesRegex(TypeError, "k must be an integer"):
                drtopk.topk(x, bad)
        with self.assertRaisesRegex(ValueError, "k = 4 is out of range"):
            drtopk.topk(x, 4)
        with self.assertRaisesRegex(IndexError, "dim = 2"):
            drtopk.topk(x, 1, dim=2)
        with self.assertRaisesRegex(TypeError, "sorted must be True or False"):
            drtopk.topk(x, 1, sorted=None)
        with self.assertRaisesRegex(TypeError, "x has key type torch.bool"):
            drtopk.topk(torch.zeros(3, dtype=torch.bool), 1)
        with self.assertRaisesRegex(TypeError, "x has key type torch.complex64"):
            drtopk.topk(torch.zeros(3, dtype=torch.complex64), 1)
        with self.assertRaisesRegex(TypeError, "offsets must hold integers"):
            drtopk.segmented_topk(torch.zeros(4), torch.tensor([0.0, 4.0]), 1)
        with self.assertRaisesRegex(ValueError, "offsets run outside x"):
            drtopk.segmented_topk(torch.zeros(4), torch.tensor([0, 5]), 1)
        with self.assertRaisesRegex(TypeError, "offsets must be a NumPy array, a torch tensor"):
            drtopk.segmented_topk(torch.zeros(4), [0, 4], 1)
        with self.assertRaisesRegex(TypeError, "x, offsets and ks must be arrays of one kind"):
            drtopk.segmented_topk(torch.zeros(4), torch.tensor([0, 4]), 1, ks=x.numpy())


if __name__ == "__main__":
    unittest.main()
