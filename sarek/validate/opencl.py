"""OpenCL C on pocl (pyopencl): `check(source)` builds the program; `run(...)` builds it and launches a
kernel, so tests can compare with numpy. The pocl platform is picked explicitly by name; a missing
pyopencl or pocl raises `ValidationError` (tests then fail, never skip).

The run harness follows sarek's kernel ABI: a vector argument (a numpy array) is passed as its buffer
followed by its int32 length (`sarek_<v>_length`); scalars are numpy scalars (their dtype is the C type);
arrays are copied back in place after the launch. The runtime (sarek/runtime) may reuse `pocl_context`
and `run`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from sarek.types import is_ndarray
from sarek.validate import ValidationError
from sarek.validate import numbered

POCL_PLATFORM = "Portable Computing Language"


@lru_cache(maxsize=1)
def pocl_context() -> tuple[Any, Any]:
    """(context, queue) on the first pocl device."""
    try:
        import pyopencl as cl
    except ImportError as e:  # pragma: no cover - the environment lacks pyopencl
        raise ValidationError(f"pyopencl is not installed (needed to build OpenCL on pocl): {e}")
    try:
        platforms = cl.get_platforms()
    except Exception as e:  # noqa: BLE001 - the ICD loader reports a missing platform as an error
        raise ValidationError(f"no OpenCL platform (install pocl-opencl-icd): {e}")
    pocl = [p for p in platforms if p.name == POCL_PLATFORM]
    if not pocl or not pocl[0].get_devices():
        raise ValidationError(f"no pocl OpenCL platform among {[p.name for p in platforms]} "
                              "(apt-get install pocl-opencl-icd)")
    ctx = cl.Context(pocl[0].get_devices()[:1])
    return ctx, cl.CommandQueue(ctx)


def build(source: str, options: str = "") -> Any:
    import pyopencl as cl

    ctx, _ = pocl_context()
    try:
        return cl.Program(ctx, source).build(options=options)
    except cl.Error as e:
        raise ValidationError(f"OpenCL build on pocl failed:\n{e}\n--- source ---\n{numbered(source)}")


def check(source: str) -> None:
    """Raise ValidationError unless `source` builds on pocl."""
    build(source)


def run(source: str, kernel: str, args: Sequence[Any], grid: Sequence[int], block: Sequence[int]) -> None:
    """Build `source`, launch `kernel` over `grid` blocks of `block` work-items (CUDA-style counts, up to 3D)
    with `args`, and copy every array argument back in place."""
    import pyopencl as cl

    ctx, queue = pocl_context()
    prg = build(source)
    k = getattr(prg, kernel)
    mf = cl.mem_flags
    cl_args: list[Any] = []
    copies: list[tuple[Any, np.ndarray[Any, np.dtype[Any]]]] = []
    for a in args:
        if is_ndarray(a):
            buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.ascontiguousarray(a)) if a.nbytes \
                else cl.Buffer(ctx, mf.READ_WRITE, 16)
            cl_args += [buf, np.int32(a.shape[0])]
            copies.append((buf, a))
        elif isinstance(a, np.generic):
            cl_args.append(a)
        else:
            raise ValidationError(f"opencl.run: argument {a!r} is neither a numpy array nor a numpy scalar")
    grid = list(grid) + [1] * (3 - len(grid))
    block = list(block) + [1] * (3 - len(block))
    global_size = tuple(g * b for g, b in zip(grid, block))
    k(queue, global_size, tuple(block), *cl_args)
    for buf, a in copies:
        if a.nbytes:
            cl.enqueue_copy(queue, a, buf)
    queue.finish()
