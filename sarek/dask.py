"""`sarek.dask`: sarek kernels over Dask arrays, one launch per chunk on each worker's device.

    map_blocks(kernel, *args, out=, threads=, grid=, block=, device=)   a Dask array (a tuple for several outputs)
    map_overlap(kernel, *args, depth=, boundary=, out=, ...)            stencils: halos by Dask's own map_overlap
    like(p), Out(shape, dtype)                                          output descriptions
    size, dim(axis), per_chunk(fn)                                      scalars computed from each chunk's shape
    chunk_xyz                                                           threads for n-D kernels
    launch_counts()                                                     launches per device in this process

The kernel's parameters are filled in order by `args`, except the outputs that `out` names: each task
allocates its outputs (zeroed, with the array module of its chunks: numpy or CuPy), launches the kernel once
over its chunks on the worker's device (`device=`, else the worker's `$SAREK_DEVICE`, else interp) and returns
the outputs as that block of the result. Dask arrays are chunks of the call; plain arrays and scalars are
passed whole to every task. A kernel travels to workers as its located IR text and name (`Kernel.__reduce__`
-> `kernel_from_ir`), never its Python function; a process keeps one kernel per text, so a worker compiles a
kernel once (the disk cache serves a restarted one) however many tasks launch it. Errors raised on a worker
(`CompileError`, `LaunchError`, any `SarekError`) pickle with their message and location and reach the client
as they were raised.

dask and distributed are an optional extra (`pip install -e ".[dask]"`); this module imports them only when
a Dask array is built, so unpickling a kernel needs neither.
"""

from __future__ import annotations

import math
import operator
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from sarek.frontend.wire import kernel_from_ir as kernel_from_ir
from sarek.frontend.wire import kernel_ir_text as kernel_ir_text
from sarek.runtime.core import LaunchError, kernel_spec

if TYPE_CHECKING:
    from sarek.frontend.api import Kernel
    from sarek.runtime.core import Param

__all__ = ["Out", "ChunkValue", "chunk_xyz", "dim", "kernel_from_ir", "kernel_ir_text", "launch_counts", "like", "map_blocks",
           "map_overlap", "per_chunk", "size"]

Shape = tuple[int, ...]

# the wire format of a kernel (`Kernel.__reduce__`: `kernel_ir_text` -> `kernel_from_ir`) is in sarek.frontend.api

# ------------------------------------------------------------------------------------------------ descriptions


@dataclass(frozen=True)
class Out:
    """An output per chunk: `shape` (a tuple, or a function of the chunk's shape) and `dtype` (None: the
    kernel parameter's element dtype, records included)."""

    shape: Shape | Callable[[Shape], Any]
    dtype: Any = None


@dataclass(frozen=True)
class _Like:
    param: int | str


def like(param: int | str) -> _Like:
    """An output shaped like the chunk of kernel parameter `param` (its index or name, a Dask-array input), of
    the output parameter's own element dtype."""
    return _Like(param)


@dataclass(frozen=True)
class ChunkValue:
    """A scalar argument computed on the worker from the chunk's shape (that of the first Dask-array
    argument's chunk, halo included under `map_overlap`)."""

    fn: Callable[[Shape], Any]
    what: str = "per_chunk(...)"

    def __call__(self, shape: Shape) -> Any:
        return self.fn(shape)

    def __repr__(self) -> str:
        return self.what


def per_chunk(fn: Callable[[Shape], Any]) -> ChunkValue:
    """A scalar argument `fn(chunk shape)`."""
    return ChunkValue(fn)


def _size(shape: Shape) -> int:
    return math.prod(shape)


#: the chunk's number of elements
size = ChunkValue(_size, "size")


@dataclass(frozen=True)
class _Dim:
    axis: int

    def __call__(self, shape: Shape) -> int:
        return shape[self.axis]


def dim(axis: int) -> ChunkValue:
    """The chunk's length along `axis`."""
    return ChunkValue(_Dim(axis), f"dim({axis})")


def _xyz(shape: Shape) -> Shape:
    return tuple(reversed(shape))


#: the chunk's shape as thread counts, x along the last (fastest-varying) axis: `threads=chunk_xyz` for n-D kernels
chunk_xyz = ChunkValue(_xyz, "chunk_xyz")


# ------------------------------------------------------------------------------------------------ the task


_COUNTS: Counter[str] = Counter()


def launch_counts() -> dict[str, int]:
    """Chunk launches per device name in this process (`client.run(sarek.dask.launch_counts)` asks workers)."""
    return dict(_COUNTS)


def _array_module(chunk: Any) -> Any:
    """numpy, or the module of a foreign chunk type (cupy) for allocating outputs like it."""
    if isinstance(chunk, np.ndarray):
        return np
    return sys.modules.get(type(chunk).__module__.split(".")[0], np)


Dims = int | Sequence[int] | Callable[[Shape], Any]


def _dims(v: Any, shape: Shape, what: str) -> tuple[int, ...]:
    """`v` (an int, a sequence of ints, or a function of the chunk's shape giving one) as ints, checked: a
    LaunchError naming `what` (threads=, Out(...)'s shape ...) for anything else or a negative count."""
    got: Any = v(shape) if callable(v) else v
    is_int = isinstance(got, int | np.integer) and not isinstance(got, bool | np.bool_)
    items: list[Any] = [got] if is_int else list(cast("list[Any]", got)) if isinstance(got, tuple | list) else [got]
    for x in items:
        if not isinstance(x, int | np.integer) or isinstance(x, bool | np.bool_) or x < 0:
            on = f" for a chunk of shape {shape}" if callable(v) else ""
            raise LaunchError(f"sarek.dask: {what} is {got!r}{on}; expected a non-negative int or a tuple of "
                              "them" + (" (a function must return one)" if callable(v) else ""))
    return tuple(int(x) for x in items)


@dataclass
class _ChunkLaunch:
    """One block of the result: the kernel launched over one set of chunks (pickled into every task)."""

    kernel: Any
    #: per kernel parameter: ("array", j) the j-th Dask array's chunk, ("value", x) as given, ("chunk", f) f(shape),
    #: ("out", m) the m-th output
    slots: list[tuple[str, Any]]
    #: per output: (("like", j) or ("shape", s), dtype)
    outs: list[tuple[tuple[str, Any], np.dtype[Any]]]
    written: frozenset[int]
    threads: Any
    grid: Any
    block: Any
    device: Any
    token: str

    def __dask_tokenize__(self) -> str:
        return self.token

    def out_shape(self, m: int, shapes: Sequence[Shape]) -> Shape:
        (how, what), _ = self.outs[m]
        if how == "like":
            return shapes[cast(int, what)]
        return _dims(what, shapes[0], f"output #{m + 1}'s Out shape")

    def __call__(self, *chunks: Any) -> Any:
        from sarek.runtime import get_device

        xp = _array_module(chunks[0])
        shapes = [tuple(c.shape) for c in chunks]
        outs = [xp.zeros(self.out_shape(m, shapes), dtype) for m, (_, dtype) in enumerate(self.outs)]
        values: list[Any] = []
        for i, (how, what) in enumerate(self.slots):
            if how == "array":
                c = chunks[what]
                c = c.copy() if i in self.written else _array_module(c).ascontiguousarray(c)
                values.append(c)
            elif how == "chunk":
                values.append(what(shapes[0]))
            elif how == "out":
                values.append(outs[what])
            elif i in self.written and hasattr(what, "copy"):  # a plain array the kernel writes: its own copy
                values.append(what.copy())
            else:
                values.append(what)
        dims: dict[str, tuple[int, ...]] = {}
        if self.block is not None:
            dims["block"] = _dims(self.block, shapes[0], "block=")
        if self.grid is not None:
            dims["grid"] = _dims(self.grid, shapes[0], "grid=")
        else:
            dims["threads"] = (_dims(self.threads, shapes[0], "threads=") if self.threads is not None else
                               (_size(shapes[0]),))
        if all(x > 0 for x in dims.get("grid", dims.get("threads", ()))):  # an empty chunk launches nothing
            dev = get_device(self.device)
            self.kernel.launch(*values, device=dev, **dims)
            if xp is not np:  # foreign (CuPy) memory: the result must be complete before Dask hands it on
                dev.synchronize()
            _COUNTS[dev.name] += 1
        return outs[0] if len(outs) == 1 else tuple(outs)


# ------------------------------------------------------------------------------------------------ planning


def _da() -> Any:
    """dask.array (with .core and .utils), imported when a Dask array is built; untyped, so Any."""
    import importlib

    da = importlib.import_module("dask.array")
    importlib.import_module("dask.array.utils")
    return da


def _is_dask_array(x: Any) -> bool:
    mod = sys.modules.get("dask.array")
    return mod is not None and isinstance(x, mod.Array)


def _param(params: Sequence[Param], key: Any, what: str, kname: str) -> Param:
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(params):
        return params[key]
    if isinstance(key, str):
        for p in params:
            if p.name == key:
                return p
    names = ", ".join(p.name for p in params)
    raise LaunchError(f"sarek.dask: {what} {key!r} is not a parameter of kernel {kname}({names})")


def _kernel_of(kernel: Any) -> Kernel:
    from sarek.frontend.api import Kernel

    if not isinstance(kernel, Kernel):
        raise LaunchError(f"sarek.dask: expected a @sarek.kernel, got {type(kernel).__name__} {kernel!r}"[:160])
    if kernel.__dict__.get("fn") is not None and kernel.type_params:
        # generic: its first instance, for the parameters (every instance has the same); _plan then takes the one
        # the arrays' dtypes pick
        return kernel.instance(kernel.bindings()[0]).compile()
    return kernel.compile()  # front-end errors are raised here, on the client


def _generic_instance(kernel: Kernel, n: int, inputs: Sequence[Any], args: Sequence[Any], out_params: Sequence[Any],
                      out_map: Mapping[Any, Any]) -> Kernel:
    from sarek.frontend.wire import pick_instance

    given: list[Any] = [None] * n  # what each parameter will get: an array (its dtype), a value, or unknown
    for p, a in zip(inputs, args):
        given[p.index] = a
    for p, spec in zip(out_params, out_map.values()):
        if isinstance(spec, Out) and spec.dtype is not None:
            given[p.index] = np.empty(0, spec.dtype)
    return pick_instance(kernel.name, [kernel.instance(b) for b in kernel.bindings()], tuple(given))


def _plan(kernel: Any, args: Sequence[Any], out: Any, threads: Any, grid: Any, block: Any,
          device: Any) -> tuple[_ChunkLaunch, list[Any]]:
    """The task and the Dask arrays it takes, after checking what the client can check."""
    k = _kernel_of(kernel)
    params = kernel_spec(k.module, k.name).params
    sig = f"{k.name}({', '.join(p.name for p in params)})"
    if out is None:
        raise LaunchError(f"sarek.dask: kernel {sig}: say which parameters are outputs with out= "
                          "({parameter: like(p) or Out(shape, dtype)})")
    if not isinstance(out, Mapping):
        cand = [p for p in params if p.is_vec and p.written]
        if len(cand) != 1:
            raise LaunchError(f"sarek.dask: kernel {sig} writes {len(cand)} vector parameters "
                              f"({', '.join(p.name for p in cand) or 'none'}); name the outputs: out={{name: ...}}")
        out = {cand[0].index: out}
    out_map = cast("Mapping[Any, Any]", out)
    out_params = [_param(params, key, "output", sig) for key in out_map]
    if len({p.index for p in out_params}) != len(out_params):
        raise LaunchError(f"sarek.dask: kernel {sig}: an output is named twice in out=")
    for p in out_params:
        if not p.is_vec:
            raise LaunchError(f"sarek.dask: kernel {sig}: output '{p.name}' is not a vector parameter")
    out_of = {p.index: m for m, p in enumerate(out_params)}
    inputs = [p for p in params if p.index not in out_of]
    if len(args) != len(inputs):
        raise LaunchError(f"sarek.dask: kernel {sig} with outputs {', '.join(p.name for p in out_params)} takes "
                          f"{len(inputs)} argument(s) ({', '.join(p.name for p in inputs)}), {len(args)} given")
    if k is not kernel:  # a generic kernel: the instance the arrays' (and Out's) dtypes pick
        k = _generic_instance(cast("Kernel", kernel), len(params), inputs, args, out_params, out_map)
        params = kernel_spec(k.module, k.name).params
        out_params = [_param(params, key, "output", sig) for key in out_map]
        inputs = [p for p in params if p.index not in out_of]
    slots: list[tuple[str, Any]] = [("", None)] * len(params)
    arrays: list[Any] = []
    array_of: dict[int, int] = {}
    for p, a in zip(inputs, args):
        if _is_dask_array(a):
            if not p.is_vec:
                raise LaunchError(f"sarek.dask: kernel {sig}: argument '{p.name}' is a scalar parameter, got a Dask "
                                  "array")
            array_of[p.index] = len(arrays)
            slots[p.index] = ("array", len(arrays))
            arrays.append(a)
        elif isinstance(a, ChunkValue):
            slots[p.index] = ("chunk", a)
        else:
            slots[p.index] = ("value", a)
    if not arrays:
        raise LaunchError(f"sarek.dask: kernel {sig}: no argument is a Dask array (there is nothing to map over)")
    outs: list[tuple[tuple[str, Any], np.dtype[Any]]] = []
    for p, spec in zip(out_params, out_map.values()):
        slots[p.index] = ("out", out_of[p.index])
        if isinstance(spec, _Like):
            src = _param(params, spec.param, "like()", sig)
            if src.index not in array_of:
                raise LaunchError(f"sarek.dask: kernel {sig}: output '{p.name}' is like '{src.name}', which is not a "
                                  "Dask-array argument")
            outs.append((("like", array_of[src.index]), p.dtype))
        elif isinstance(spec, Out):
            outs.append((("shape", spec.shape), p.dtype if spec.dtype is None else np.dtype(spec.dtype)))
        else:
            raise LaunchError(f"sarek.dask: kernel {sig}: output '{p.name}' must be like(p) or Out(shape, dtype), "
                              f"got {spec!r}")
    if threads is not None and grid is not None:
        raise LaunchError(f"sarek.dask: kernel {sig}: give threads= or grid=, not both")
    written = frozenset(p.index for p in params if p.written and p.index not in out_of)
    task = _ChunkLaunch(k, slots, outs, written, threads, grid, block, device, f"sarek-{k.name}-{uuid.uuid4().hex}")
    return task, arrays


def _aligned(arrays: list[Any]) -> list[Any]:
    """Arrays of one shape get common chunks (Dask's unify_chunks); otherwise block i of each goes to task i."""
    ndim = arrays[0].ndim
    if any(a.ndim != ndim for a in arrays):
        raise LaunchError(f"sarek.dask: the Dask-array arguments have different dimensions "
                          f"({', '.join(str(a.ndim) for a in arrays)})")
    if all(a.shape == arrays[0].shape for a in arrays) and len(arrays) > 1:
        inds = tuple(range(ndim))
        unified: Any = _da().core.unify_chunks(*[x for a in arrays for x in (a, inds)], warn=False)[1]
        return list(unified)
    if any(a.numblocks != arrays[0].numblocks for a in arrays):
        raise LaunchError(f"sarek.dask: Dask-array arguments of different shapes must have as many blocks "
                          f"({', '.join(str(a.numblocks) for a in arrays)})")
    return arrays


def _out_chunks(task: _ChunkLaunch, m: int, arrays: list[Any]) -> tuple[tuple[int, ...], ...]:
    """Output m's chunks: its shape on every block, which must form a grid."""
    (how, what), _ = task.outs[m]
    if how == "like":
        return arrays[what].chunks
    grid = arrays[0].numblocks
    per_dim: list[dict[int, int]] = [{} for _ in grid]
    for idx in np.ndindex(*grid):
        s = task.out_shape(m, [tuple(a.chunks[d][idx[d]] for d in range(len(grid))) for a in arrays])
        if len(s) != len(grid):
            raise LaunchError(f"sarek.dask: kernel {task.kernel.name}: output #{m + 1} has shape {s} per chunk; it "
                              f"needs {len(grid)} dimension(s), like the block grid {grid}")
        for d, x in enumerate(s):
            if per_dim[d].setdefault(idx[d], x) != x:
                raise LaunchError(f"sarek.dask: kernel {task.kernel.name}: output #{m + 1}'s per-chunk shapes do "
                                  "not form a grid (one block row gives two lengths)")
    return tuple(tuple(pd[i] for i in range(n)) for pd, n in zip(per_dim, grid))


def _meta(arrays: list[Any], ndim: int, dtype: np.dtype[Any]) -> Any:
    return _da().utils.meta_from_array(arrays[0]._meta, ndim, dtype)


def map_blocks(kernel: Any, *args: Any, out: Any = None, threads: Dims | None = None, grid: Dims | None = None,
               block: Dims | None = None, device: Any = None) -> Any:
    """Launch `kernel` once per block of its Dask-array arguments; the outputs named by `out` (a mapping
    parameter -> `like(p)` / `Out(shape, dtype)`, or one description when the kernel writes one vector)
    are the result, a Dask array (a tuple of them for several outputs, in `out`'s order).

    `threads` (default: the chunk's element count) or `grid`, and `block` (default: the kernel's declared
    block, else the runtime's) are an int, a tuple, or a function of the chunk's shape; the grid covers
    `threads` with whole blocks."""
    da = _da()
    task, arrays = _plan(kernel, args, out, threads, grid, block, device)
    arrays = _aligned(arrays)
    chunks = [_out_chunks(task, m, arrays) for m in range(len(task.outs))]
    metas = [_meta(arrays, len(c), dt) for c, (_, dt) in zip(chunks, task.outs)]
    name = f"sarek-{task.kernel.name}"
    if len(chunks) == 1:
        return da.map_blocks(task, *arrays, chunks=chunks[0], meta=metas[0], token=name)
    both = da.map_blocks(task, *arrays, chunks=chunks[0], meta=metas[0], token=name)
    return tuple(both.map_blocks(operator.itemgetter(m), chunks=c, meta=mt, token=f"{name}-out{m}")
                 for m, (c, mt) in enumerate(zip(chunks, metas)))


def map_overlap(kernel: Any, *args: Any, depth: Any, boundary: Any = "none", out: Any = None,
                threads: Dims | None = None, grid: Dims | None = None, block: Dims | None = None,
                device: Any = None) -> Any:
    """`map_blocks` over chunks extended by `depth` halo elements, with Dask's `map_overlap` (its `depth` and
    `boundary`: "none", "reflect", "periodic", "nearest" or a constant) and the halo trimmed off the result.
    The kernel sees the extended chunk; it has one output, shaped like a Dask-array argument."""
    da = _da()
    task, arrays = _plan(kernel, args, out, threads, grid, block, device)
    if len(task.outs) != 1 or task.outs[0][0][0] != "like":
        raise LaunchError(f"sarek.dask.map_overlap: kernel {task.kernel.name} needs exactly one output, like(p) of a "
                          "Dask-array argument (the halo is trimmed from it)")
    arrays = _aligned(arrays)
    like_j = task.outs[0][0][1]
    if arrays[like_j].shape != arrays[0].shape:
        raise LaunchError(f"sarek.dask.map_overlap: kernel {task.kernel.name}: the output must be shaped like the "
                          "first Dask-array argument")
    meta = _meta(arrays, arrays[0].ndim, task.outs[0][1])
    return da.map_overlap(task, *arrays, depth=depth, boundary=boundary, trim=True, align_arrays=False, meta=meta,
                          token=f"sarek-{task.kernel.name}")
