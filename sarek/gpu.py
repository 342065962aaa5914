"""GPU intrinsics usable in kernels (`from sarek.gpu import global_thread_id, barrier, shared`).

These names are recognised by the front end in a kernel's source; they are never evaluated on a device by
Python. On the host, index values are symbolic objects and the functions raise.
"""

from __future__ import annotations

from typing import Any


class GpuValue:
    """A thread/block/grid index or warp value (`thread_idx_x`, `global_thread_id`, `lane_id`, ...)."""

    def __init__(self, name: str, intrinsic: str):
        self.name = name
        self.intrinsic = intrinsic

    def __repr__(self) -> str:
        return f"sarek.gpu.{self.name}"

    def _host(self, *_: Any) -> Any:
        raise TypeError(f"sarek.gpu.{self.name} only has a value inside a kernel")

    __int__ = __index__ = __add__ = __radd__ = __sub__ = __mul__ = __lt__ = __gt__ = _host


class GpuFunction:
    """A GPU intrinsic call (`barrier()`, `atomic_add(v, i, x)`, `warp_shuffle(x, lane)`, `shared(f32, 256)`)."""

    def __init__(self, name: str, kind: str, arity: int | None = None):
        self.name = name
        self.kind = kind          # "stmt" | "intrinsic" | "alloc" | "context" | "cast" | "block_vote" | "copy"
        self.arity = arity

    def __repr__(self) -> str:
        return f"sarek.gpu.{self.name}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"sarek.gpu.{self.name}() can only be used inside a @sarek.kernel or @sarek.device function")


__all__: list[str] = []


def _value(name: str, intrinsic: str | None = None) -> GpuValue:
    v = GpuValue(name, intrinsic or name)
    globals()[name] = v
    __all__.append(name)
    return v


def _fn(name: str, kind: str, arity: int | None = None) -> GpuFunction:
    f = GpuFunction(name, kind, arity)
    globals()[name] = f
    __all__.append(name)
    return f


for _d in "xyz":
    for _base in ("thread_idx", "block_idx", "block_dim", "grid_dim", "global_idx", "global_size"):
        _value(f"{_base}_{_d}")
    _value(f"thread_id_{_d}", f"thread_idx_{_d}")
    _value(f"block_id_{_d}", f"block_idx_{_d}")
_value("global_thread_id")
_value("global_size")
_value("lane_id")
_value("warp_size")
_value("warp_id")  # linear thread index in the block // warp_size: uniform within a warp

barrier = _fn("barrier", "stmt", 0)
block_barrier = _fn("block_barrier", "stmt", 0)
warp_barrier = _fn("warp_barrier", "stmt", 0)
mem_fence = _fn("mem_fence", "stmt", 0)
grid_barrier = _fn("grid_barrier", "stmt", 0)  # CUDA and PTX (a cooperative launch); refused elsewhere
shared = _fn("shared", "alloc", 2)
local_array = _fn("local_array", "alloc", 2)
for _n in ("atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_exch", "atomic_and", "atomic_or",
           "atomic_xor"):
    _fn(_n, "intrinsic", 3)
atomic_cas = _fn("atomic_cas", "intrinsic", 4)
bitcast = _fn("bitcast", "cast", 2)  # bitcast(x, T): x's bits as T (same width); also `sarek.bitcast`
atomic_inc = _fn("atomic_inc", "intrinsic", 2)
atomic_dec = _fn("atomic_dec", "intrinsic", 2)
for _n in ("warp_shuffle", "warp_shuffle_up", "warp_shuffle_down", "warp_shuffle_xor"):
    _fn(_n, "intrinsic", 2)
for _n in ("warp_any", "warp_all", "warp_ballot", "warp_ballot64"):
    _fn(_n, "intrinsic", 1)
for _n in ("barrier_count", "barrier_and", "barrier_or"):  # CUDA's __syncthreads_count / _and / _or
    _fn(_n, "block_vote", 1)
# asynchronous global -> shared copies: `copy_async(sa[r, c], A[i, k], 8)`, `copy_async_commit()`,
# `copy_async_wait(n)` (cp.async on CUDA/PTX; a plain copy and no-op waits elsewhere)
copy_async = _fn("copy_async", "copy", 3)
copy_async_commit = _fn("copy_async_commit", "copy", 0)
copy_async_wait = _fn("copy_async_wait", "copy", 1)
# statement forms: `with pragma("unroll"): ...`, `with superstep(): ...` (a block followed by a barrier)
pragma = _fn("pragma", "context")
superstep = _fn("superstep", "context")
# `native(cuda="...", opencl="...")`: verbatim per-target source (a target without text refuses the kernel)
native = _fn("native", "stmt")
