"""_torch.py -- drtopk's PyTorch operators: drtopk::topk and drtopk::segmented_topk,
registered with torch.library (define + CPU and CUDA kernels, a fake kernel
for torch.compile's tracing, and the gradient of torch.topk: the values'
gradient scattered to the indices; for segmented_topk to the indices within
each segment).  Imported by drtopk when torch
already is, else on the first torch tensor it is given: `import drtopk`
never imports torch itself.

The kernels run the batched top-k of the C library (drtopk_batch_topk) on
the tensor's device: CPU tensors on the CPU backend, CUDA tensors on the GPU
one, enqueued on the current stream with outputs and workspace from torch's
caching allocator (so a call can be captured in a CUDA graph).  The outputs
are laid out as the fake kernel says: contiguous with k along the last axis,
moved to `dim` (a view) when dim is not the last.

An eager call that needs no tracing, gradient or dispatch mode skips the
dispatcher (drtopk.topk's direct path, `topk` below), and a CUDA call's
workspace comes from a per-(device, stream) cache (`_cuda_workspace`):
launches on one stream run in order, so the workspace of an earlier call is
free again when the next call on that stream starts.  A call made while the
stream is being captured into a CUDA graph never touches the cache: the graph
gets a workspace of its own from its private pool, because its replays run
on whatever stream replays them, unordered with eager calls.
"""
from threading import get_ident as _get_ident

import torch

from . import (_BACKEND_CPU, _BACKEND_CUDA, _LARGEST, _SMALLEST, _PLAN_CACHE_MAX, DrtopkError, TopkResult,
               _DTYPES, _Problem, _check_axis, _flag, _flags, _integer, _plan_for, _run)

_MIN_TORCH = (2, 4)                      # torch.library.register_fake and register_autograd

if not (hasattr(torch.library, "register_fake") and hasattr(torch.library, "register_autograd")):
    raise DrtopkError("drtopk on torch tensors needs torch >= %d.%d (torch.library.register_fake and "
                      "register_autograd); this is torch %s: upgrade it, or pass x.numpy()"
                      % (_MIN_TORCH + (torch.__version__,)))

# drtopk_dtype by torch dtype (torch.uint32 and uint64 exist from torch 2.3 on)
_CODES = {getattr(torch, name): code for name, code in _DTYPES.items() if hasattr(torch, name)}
# the raw cudaStream_t of a device's current stream, without building a torch.cuda.Stream
_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (
    lambda index: torch.cuda.current_stream(index).cuda_stream)
# the current CUDA device and whether its current stream is capturing, without torch.cuda's
# Python wrappers (only called for CUDA tensors: CUDA is initialised then)
_current_device = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
_capturing = getattr(torch._C, "_cuda_isCurrentStreamCapturing", None) or torch.cuda.is_current_stream_capturing
_empty = torch.empty
_U8, _I64 = torch.uint8, torch.int64

_topk_entries = {}                       # (shape, dtype, device, k, dim, largest, sorted, deterministic) -> _TopkEntry

# The CUDA workspace cache: (device index, raw stream) -> (uint8 tensor, its bytes).  A workspace is
# only ever used by launches on its own stream, so each launch finds the last one's work done; one
# that grows is replaced and the old block goes back to torch's caching allocator, which hands it
# out again only on that stream, after the launches already queued there.
_WS_CACHE_MAX_BYTES = 64 << 20           # larger workspaces are allocated per call: their GPU time
                                         # dwarfs an allocation, and the cache should not pin them
_WS_CACHE_STREAMS = 64                   # cached streams before the cache starts over (external
                                         # streams, torch.cuda.ExternalStream, are unbounded)
_workspaces = {}


def _cuda_workspace(nbytes, index, device, stream):
    """A uint8 CUDA tensor of at least nbytes for one launch on `stream`, the current stream of
    device `index`, which is the current device: the cached one of (index, stream), grown on
    demand; a fresh one while the stream is capturing a CUDA graph (from the graph's pool, never
    cached) or when it is over _WS_CACHE_MAX_BYTES.  The caller keeps the tensor referenced until
    its launch is enqueued."""
    if nbytes > _WS_CACHE_MAX_BYTES or _capturing():
        return _empty(nbytes, dtype=_U8, device=device)
    key = (index, stream)
    hit = _workspaces.get(key)
    if hit is not None and hit[1] >= nbytes:
        return hit[0]
    if hit is None and len(_workspaces) >= _WS_CACHE_STREAMS:
        _workspaces.clear()
    ws = _empty(nbytes, dtype=_U8, device=device)
    _workspaces[key] = (ws, nbytes)
    return ws


_LIB = torch.library.Library("drtopk", "DEF")
_LIB.define("topk(Tensor x, SymInt k, int dim=-1, bool largest=True, bool sorted=True, bool deterministic=False) "
            "-> (Tensor values, Tensor indices)")
_LIB.define("segmented_topk(Tensor x, Tensor offsets, SymInt k, Tensor? ks=None, bool largest=True, "
            "bool sorted=True, bool deterministic=False) -> (Tensor values, Tensor indices)")


def _code(dtype, name, fn):
    code = _CODES.get(dtype)
    if code is None:
        raise TypeError("%s: %s has key type %s, which drtopk does not support (%s)"
                        % (fn, name, dtype, " ".join(_DTYPES)))
    return code


def _check_topk(x, k, dim):
    """dim in 0..ndim-1 and the length of that axis, after the checks torch.topk makes."""
    fn = "drtopk.topk"
    dim, cols = _check_axis(x.dim(), x.shape, k, dim, fn)
    _code(x.dtype, "x", fn)
    return dim, cols


def _device(x, fn, name):
    """(backend, device index or -1) of tensor x."""
    t = x.device.type
    if t == "cuda":
        return _BACKEND_CUDA, x.device.index
    if t == "cpu":
        return _BACKEND_CPU, -1
    raise TypeError("%s: %s is on device %s; drtopk runs on CPU and CUDA tensors" % (fn, name, x.device))


def _launch(p, key, flags, device, backend, values, indices, fn):
    """Plan (cached), allocate the workspace and run problem p on the tensors' device."""
    if backend == _BACKEND_CPU:
        entry = _plan_for(key, p, flags, fn)
        ws = torch.empty(entry[1].value, dtype=torch.uint8)
        _run(p, entry, ws.data_ptr(), values.data_ptr(), indices.data_ptr(), None, fn)
        return
    if device != _current_device():              # the library plans and runs on the current device
        with torch.cuda.device(device):
            return _launch(p, key, flags, device, backend, values, indices, fn)
    entry = _plan_for(key, p, flags, fn)
    stream = _raw_stream(device)
    ws = _cuda_workspace(entry[1].value, device, values.device, stream)
    _run(p, entry, ws.data_ptr(), values.data_ptr(), indices.data_ptr(), stream, fn)


@torch.library.impl(_LIB, "topk", "CPU")
def _topk_cpu(x, k, dim=-1, largest=True, sorted=True, deterministic=False):
    return _topk_kernel(x, k, dim, largest, sorted, deterministic)


@torch.library.impl(_LIB, "topk", "CUDA")
def _topk_cuda(x, k, dim=-1, largest=True, sorted=True, deterministic=False):
    return _topk_kernel(x, k, dim, largest, sorted, deterministic)


class _TopkEntry:
    """What a top-k of one (shape, dtype, device, k, dim, largest, sorted, deterministic) needs besides the data:
    its arguments checked, its output shape, and its problem planned and sized, once.  template is
    None when there is nothing to run (no rows, or k = 0): the outputs are empty."""
    __slots__ = ("dim", "last", "out_shape", "dtype", "device", "index", "backend", "template", "flags", "plan",
                 "nbytes", "problems")


def _topk_entry(key, x, k, dim, largest, sorted, deterministic):
    dim, cols = _check_topk(x, k, dim)
    e = _TopkEntry()
    e.dim, e.last = dim, dim == x.dim() - 1
    # plain ints, passed one by one: torch.empty(*ints) parses faster than a torch.Size (4.5 against
    # 8.3 us for a (1, 16) CUDA tensor, torch 2.11 on an H200), and a call allocates two
    e.out_shape = tuple(int(d) for d in x.shape[:dim] + x.shape[dim + 1:]) + (k,)
    e.dtype, e.device = x.dtype, x.device
    e.backend, e.index = _device(x, "drtopk.topk", "x")
    e.problems = {}                      # thread id -> its _Problem: only values changes per call
    rows = x.numel() // cols if cols else 0
    e.template = None
    if rows > 0 and k > 0:               # else nothing to run: empty outputs
        code, order = _CODES[x.dtype], _LARGEST if largest else _SMALLEST
        e.flags = _flags(sorted, deterministic)
        e.template = (e.backend, code, order, rows, cols, None, k, None, None, 0)
        if e.backend == _BACKEND_CUDA and e.index != _current_device():
            with torch.cuda.device(e.index):         # the library plans for the current device
                e.plan = _plan_for(e.template + (e.index, e.flags), _Problem(*e.template), e.flags, "drtopk.topk")
        else:
            e.plan = _plan_for(e.template + (e.index, e.flags), _Problem(*e.template), e.flags, "drtopk.topk")
        e.nbytes = e.plan[1].value
    if len(_topk_entries) >= _PLAN_CACHE_MAX:
        _topk_entries.clear()
    _topk_entries[key] = e
    return e


def _topk_kernel(x, k, dim, largest, sorted, deterministic):
    """The top-k of a CPU or CUDA tensor x, any layout: (values, indices) laid out as the fake kernel's."""
    key = (x.shape, x.dtype, x.device, k, dim, largest, sorted, deterministic)
    e = _topk_entries.get(key)
    if e is None:
        e = _topk_entry(key, x, k, dim, largest, sorted, deterministic)
    if e.index >= 0 and e.index != _current_device():
        with torch.cuda.device(e.index):             # the library runs on the current device
            return _topk_kernel(x, k, dim, largest, sorted, deterministic)
    moved = x if e.last and x.is_contiguous() else x.movedim(e.dim, -1).contiguous()
    values, indices = _topk_fill(e, moved)
    if e.last:
        return values, indices
    return values.movedim(-1, e.dim), indices.movedim(-1, e.dim)


def _topk_fill(e, src):
    """(values, indices) of entry e for the contiguous rows of src, k along the last axis: run on
    the current device (e's) and, for CUDA, its current stream.  The problem struct is per thread:
    the library call releases the GIL, and another thread may be filling in its own data pointer
    meanwhile."""
    values = _empty(*e.out_shape, dtype=e.dtype, device=e.device)
    indices = _empty(*e.out_shape, dtype=_I64, device=e.device)
    if e.template is None:
        return values, indices
    tid = _get_ident()
    p = e.problems.get(tid)
    if p is None:
        p = e.problems[tid] = _Problem(*e.template)
    p.values = src.data_ptr()
    if e.index >= 0:
        stream = _raw_stream(e.index)
        ws = _cuda_workspace(e.nbytes, e.index, e.device, stream)
    else:
        stream, ws = None, _empty(e.nbytes, dtype=_U8)
    _run(p, e.plan, ws.data_ptr(), values.data_ptr(), indices.data_ptr(), stream, "drtopk.topk")
    return values, indices


@torch.library.register_fake("drtopk::topk")
def _topk_fake(x, k, dim=-1, largest=True, sorted=True, deterministic=False):
    dim, _ = _check_topk(x, k, dim)
    shape = x.shape[:dim] + x.shape[dim + 1:] + (k,)
    values, indices = x.new_empty(shape), x.new_empty(shape, dtype=torch.int64)
    if dim == x.dim() - 1:
        return values, indices
    return values.movedim(-1, dim), indices.movedim(-1, dim)


def _topk_setup(ctx, inputs, output):
    x = inputs[0]
    ctx.x_shape = x.shape
    ctx.dim = inputs[2] if len(inputs) > 2 else -1
    ctx.save_for_backward(output[1])


def _topk_backward(ctx, grad_values, grad_indices):
    (indices,) = ctx.saved_tensors
    grad = grad_values.new_zeros(ctx.x_shape).scatter(ctx.dim, indices, grad_values)
    return grad, None, None, None, None, None


torch.library.register_autograd("drtopk::topk", _topk_backward, setup_context=_topk_setup)

_TOPK = torch.ops.drtopk.topk.default
_DIRECT_DEVICES = ("cpu", "cuda")          # the devices of the operator's kernels
_SEGMENTED = torch.ops.drtopk.segmented_topk.default


_Tensor = torch.Tensor
_is_compiling = torch.compiler.is_compiling
_dispatch_modes = torch._C._len_torch_dispatch_stack
_grad_enabled = torch.is_grad_enabled
_functorch_active = getattr(torch._C, "_are_functorch_transforms_active", lambda: False)
_forward_ad = torch.autograd.forward_ad      # _current_level >= 0 inside a dual_level: tangents to carry


def _direct(x):
    """Whether an eager call on x may skip the dispatcher: nothing traces it (torch.compile), no
    gradient or tangent is to be recorded, no subclass, dispatch mode or functorch transform
    wants to see the operator."""
    return (not _is_compiling() and type(x) is _Tensor and not (x.requires_grad and _grad_enabled())
            and _dispatch_modes() == 0 and not _functorch_active() and getattr(_forward_ad, "_current_level", -1) < 0)


def topk(x, k, dim, largest, sorted, deterministic):
    """drtopk.topk of a torch tensor: the operator drtopk::topk after the argument checks.

    A call that _direct allows on a CPU or CUDA tensor runs the operator's
    kernel itself: the dispatcher's Python round trip (autograd wrapper,
    redispatch) costs more than the kernel on small inputs.  Its quickest
    form, for a repeated (shape, dtype, device, k, dim, order, sortedness, determinism)
    with plain int and bool arguments (the cache key cannot tell True from 1)
    and a contiguous x reduced along its last axis, is two allocations and one
    library call.  Everything else -- torch.compile's tracing, fake tensors,
    autograd, subclasses, dispatch modes -- goes through torch.ops.drtopk.topk."""
    if (type(k) is int and type(dim) is int and type(largest) is bool and type(sorted) is bool
            and type(deterministic) is bool and _direct(x)):
        e = _topk_entries.get((x.shape, x.dtype, x.device, k, dim, largest, sorted, deterministic))
        if e is not None and e.last and x.is_contiguous() and (e.index < 0 or e.index == _current_device()):
            return TopkResult(*_topk_fill(e, x))
        if x.device.type in _DIRECT_DEVICES:     # checked, planned and cached there
            return TopkResult(*_topk_kernel(x, k, dim, largest, sorted, deterministic))
    fn = "drtopk.topk"
    k, dim = _integer(k, "k", fn), _integer(dim, "dim", fn)
    largest, sorted = _flag(largest, "largest", fn), _flag(sorted, "sorted", fn)
    deterministic = _flag(deterministic, "deterministic", fn)
    if x.device.type in _DIRECT_DEVICES and _direct(x):
        return TopkResult(*_topk_kernel(x, k, dim, largest, sorted, deterministic))
    return TopkResult(*_TOPK(x, k, dim, largest, sorted, deterministic))


# ---- segmented ---------------------------------------------------------------

def _check_segmented(x, offsets, k, ks):
    """The number of segments, after checking the arguments' shapes and types."""
    fn = "drtopk.segmented_topk"
    if x.dim() != 1:
        raise ValueError("%s: x must be 1-D (the segments one after another), not of shape %s" % (fn, tuple(x.shape)))
    _code(x.dtype, "x", fn)
    if offsets.dim() != 1 or offsets.shape[0] < 1:
        raise ValueError("%s: offsets must be 1-D with segments + 1 >= 1 entries, not of shape %s"
                         % (fn, tuple(offsets.shape)))
    for name, a in (("offsets", offsets), ("ks", ks)):
        if a is None:
            continue
        if a.dtype.is_floating_point or a.dtype.is_complex or a.dtype == torch.bool:
            raise TypeError("%s: %s must hold integers, not %s" % (fn, name, a.dtype))
        if a.device != x.device:
            raise ValueError("%s: %s is on %s but x on %s" % (fn, name, a.device, x.device))
    segments = offsets.shape[0] - 1
    if ks is not None and tuple(ks.shape) != (segments,):
        raise ValueError("%s: ks must be 1-D with one k per segment (%d), not of shape %s"
                         % (fn, segments, tuple(ks.shape)))
    if k < 0:
        raise ValueError("%s: k = %d must not be negative" % (fn, k))
    return segments


def _as_u64(a):
    """a's integers in 8-byte words (int64: the library reads them as uint64; negative ones are refused first)."""
    return a.to(torch.int64).contiguous()


@torch.library.impl(_LIB, "segmented_topk", "CPU")
def _segmented_cpu(x, offsets, k, ks=None, largest=True, sorted=True, deterministic=False):
    fn = "drtopk.segmented_topk"
    if offsets.numel() > 0 and (int(offsets[-1]) > x.numel() or bool((offsets < 0).any())):
        raise ValueError("%s: offsets run outside x (0..%d)" % (fn, x.numel()))
    if ks is not None and bool((ks < 0).any()):
        raise ValueError("%s: ks must not be negative" % fn)
    return _segmented_kernel(x, offsets, k, ks, largest, sorted, deterministic)


@torch.library.impl(_LIB, "segmented_topk", "CUDA")
def _segmented_cuda(x, offsets, k, ks=None, largest=True, sorted=True, deterministic=False):
    return _segmented_kernel(x, offsets, k, ks, largest, sorted, deterministic)


def _segmented_kernel(x, offsets, k, ks, largest, sorted, deterministic):
    segments = _check_segmented(x, offsets, k, ks)
    x = x.contiguous()
    offs = _as_u64(offsets)
    kss = _as_u64(ks) if ks is not None else None
    values = torch.empty((segments, k), dtype=x.dtype, device=x.device)
    indices = torch.empty((segments, k), dtype=torch.int64, device=x.device)
    if segments > 0 and k > 0:
        backend, device = _device(x, "drtopk.segmented_topk", "x")
        code, order, flags = _CODES[x.dtype], _LARGEST if largest else _SMALLEST, _flags(sorted, deterministic)
        p = _Problem(backend, code, order, segments, 0, offs.data_ptr(), k,
                     kss.data_ptr() if kss is not None else None, x.data_ptr(), x.numel())
        _launch(p, (backend, device, code, order, flags, -segments, x.numel(), k), flags, device, backend,
                values, indices, "drtopk.segmented_topk")
    return values, indices


@torch.library.register_fake("drtopk::segmented_topk")
def _segmented_fake(x, offsets, k, ks=None, largest=True, sorted=True, deterministic=False):
    segments = _check_segmented(x, offsets, k, ks)
    return x.new_empty((segments, k)), x.new_empty((segments, k), dtype=torch.int64)


def _segmented_setup(ctx, inputs, output):
    x, offsets = inputs[0], inputs[1]
    ctx.x_numel = x.numel()
    ctx.save_for_backward(offsets, output[1])


def _segmented_backward(ctx, grad_values, grad_indices):
    """x's gradient: slot (s, j) of grad_values added at x[offsets[s] + indices[s, j]]; a padded
    slot (index -1) lands in a spare element past x's end, cut off.  No data-dependent shape (no
    mask indexing), so the backward traces under torch.compile and captures in a CUDA graph."""
    offsets, indices = ctx.saved_tensors
    spare = ctx.x_numel
    where = torch.where(indices >= 0, offsets[:-1].to(torch.int64).unsqueeze(1) + indices, spare)
    x_grad = grad_values.new_zeros(spare + 1).scatter_add(0, where.flatten(), grad_values.flatten())
    return x_grad[:spare], None, None, None, None, None, None


torch.library.register_autograd("drtopk::segmented_topk", _segmented_backward, setup_context=_segmented_setup)


def segmented_topk(x, offsets, k, ks, largest, sorted, deterministic):
    """drtopk.segmented_topk of torch tensors: the operator drtopk::segmented_topk after the argument checks."""
    fn = "drtopk.segmented_topk"
    v, i = _SEGMENTED(x, offsets, _integer(k, "k", fn), ks, _flag(largest, "largest", fn),
                      _flag(sorted, "sorted", fn), _flag(deterministic, "deterministic", fn))
    return TopkResult(v, i)
