"""The launch plan of a CUDA or PTX kernel: how its arguments are packed for `cuLaunchKernel` under the
C-family convention (a vector is its device pointer then an `int` length per dimension; bool a C `int`; f16 and
bf16 their 16 bits; a record its aligned layout bytes), computed once per (kernel, device)."""

from __future__ import annotations

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

    def pack(self, bound: list[Any]) -> int:
        vals: list[Any] = []
        for c, a in zip(self.conv, bound):
            if c == "vec":
                vals.append(int(a[0]))
                vals += a[1:]
            elif c == "record":
                vals.append(np.ascontiguousarray(a).tobytes())
            elif c == "bool":
                vals.append(1 if a else 0)
            elif c == "bits16":
                vals.append(int(np.asarray(a).reshape(()).view(np.uint16)))
            else:
                vals.append(a)
        if self.counter_at is not None:  # the grid barrier's counter: its address is written at the launch
            vals.append(0)
        self.struct.pack_into(self.view, 0, *vals)
        return self.params
