"""The launch plan of a CUDA or PTX kernel: how its arguments are packed for `cuLaunchKernel` under the
C-family convention (a vector is its device pointer then an `int` length per dimension; bool a C `int`; f16 and
bf16 their 16 bits; a record its aligned layout bytes), computed once per (kernel, device)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sarek.runtime.core import KernelSpec


def pack_args(spec: KernelSpec, bound: list[Any]) -> list[np.ndarray[Any, Any]]:
    """One host array per kernel parameter, in order: a vector is (pointer, i32 length), bool is a C `int`,
    f16 its 16 bits, a record its layout bytes (the PTX device shares this)."""
    storage: list[np.ndarray[Any, Any]] = []
    for p, a in zip(spec.params, bound):
        if p.kind == "vec":
            buf, *lens = a  # its length, or the extents of an N-dimensional one
            storage.append(np.array([int(buf)], dtype=np.uint64))
            storage += [np.array([n], dtype=np.int32) for n in lens]
        elif p.kind == "record":
            storage.append(np.ascontiguousarray(a).view(np.uint8).copy())
        elif p.dtype.kind == "b":
            storage.append(np.array([1 if a else 0], dtype=np.int32))
        elif p.dtype == np.float16:
            storage.append(np.array([a], dtype=np.float16).view(np.uint16))
        elif p.dtype.kind == "V":  # bf16 (ml_dtypes): `a` is already its bits
            storage.append(np.array([a], dtype=np.uint16))
        else:
            storage.append(np.array([a], dtype=p.dtype))
    return storage


class Plan:
    """How one kernel's arguments are packed for `cuLaunchKernel` (CUDA and PTX share the C convention):
    one reused byte buffer holding every value at its aligned offset and the array of pointers into it."""

    def __init__(self, spec: KernelSpec, fn: Any, fmax: int, counter: bool = False):
        """`counter`: the entry takes one more parameter, a u64 pointer after the others (the PTX grid
        barrier's counter, sarek.lowering.ptx.kernel.GRID_COUNTER), written at `counter_at` before each launch."""
        import struct

        self.fn, self.fmax = fn, fmax
        self.shared = 0  # bytes of dynamic shared memory per launch (sarek.analysis.shared_window)
        self.resident: dict[int, tuple[int, int]] = {}  # threads per block -> (blocks per SM, SMs): grid barriers
        fmt = "<"  # struct format (with padding)
        offsets: list[int] = []  # each value's offset
        conv: list[str] = []  # per parameter: how its bound value is packed
        size = 0

        def field(code: str, nbytes: int, align: int) -> None:
            nonlocal fmt, size
            pad = (-size) % align
            fmt += "x" * pad + code
            size += pad
            offsets.append(size)
            size += nbytes

        for p in spec.params:
            if p.kind == "vec":
                field("Q", 8, 8)
                for _ in range(p.rank):  # its length, or the extents of an N-dimensional one
                    field("i", 4, 4)
                conv.append("vec")
            elif p.kind == "record":
                n = p.dtype.itemsize
                field(f"{n}s", n, max(1, min(16, p.dtype.alignment)))
                conv.append("record")
            elif p.dtype.kind == "b":
                field("i", 4, 4)
                conv.append("bool")
            elif p.dtype.kind == "V" and p.dtype.itemsize == 2:  # bf16 (ml_dtypes.bfloat16): its 16 bits
                field("H", 2, 2)
                conv.append("bits16")
            else:
                code = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I", "i8": "q", "u8": "Q",
                        "f2": "e", "f4": "f", "f8": "d"}[f"{p.dtype.kind}{p.dtype.itemsize}"]
                field(code, p.dtype.itemsize, p.dtype.itemsize)
                conv.append("scalar")
        self.counter_at: int | None = None
        self.counters: dict[int, Any] = {}  # stream handle -> its grid-barrier counter (4 device bytes)
        if counter:
            field("Q", 8, 8)
            self.counter_at = offsets[-1]
        self.struct = struct.Struct(fmt)
        self.buf = np.zeros(max(size, 8), np.uint8)
        self.view = self.buf.data
        base = self.buf.ctypes.data
        self.ptrs = np.array([base + o for o in offsets], dtype=np.uint64)
        self.params = self.ptrs.ctypes.data
        self.conv = conv
        self.pack: Callable[[list[Any]], int] = _packer(spec, conv, self.struct.pack_into, self.view, self.params,
                                                        self.counter_at is not None)


def _record_bytes(a: Any) -> bytes:
    return np.ascontiguousarray(a).tobytes()


def _bits16(a: Any) -> int:
    return int(np.asarray(a).reshape(()).view(np.uint16))


def _packer(spec: KernelSpec, conv: list[str], into: Any, view: Any, params: int,
            counter: bool = False) -> Callable[[list[Any]], int]:
    """`pack(bound)`: writes the bound values into the plan's buffer and returns the kernel-parameter array's
    address. Generated once per plan as one flat `pack_into` call (a vector: `int(b[i][0]), b[i][1]..`; a scalar
    `b[i]` ...): the per-parameter loop and its kind tests were a sixth of a warm launch. The source is built
    from the parameter kinds and ranks only (no name of the user's)."""
    exprs: list[str] = []
    for i, (p, c) in enumerate(zip(spec.params, conv)):
        if c == "vec":
            exprs += [f"int(b[{i}][0])", *(f"b[{i}][{j + 1}]" for j in range(p.rank))]
        elif c == "record":
            exprs.append(f"_record_bytes(b[{i}])")
        elif c == "bool":
            exprs.append(f"(1 if b[{i}] else 0)")
        elif c == "bits16":
            exprs.append(f"_bits16(b[{i}])")
        else:
            exprs.append(f"b[{i}]")
    if counter:  # the grid barrier's counter slot: its address is written at the launch
        exprs.append("0")
    ns: dict[str, Any] = {"_into": into, "_view": view, "_params": params, "_record_bytes": _record_bytes,
                          "_bits16": _bits16}
    exec(f"def pack(b):\n    _into(_view, 0, {', '.join(exprs)})\n    return _params\n", ns)  # noqa: S102
    return ns["pack"]
