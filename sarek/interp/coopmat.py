"""What the cooperative-matrix ops compute, defined once for both executors (numpy).

The seed's model: a fragment is the whole matrix, held by every invocation of the warp that owns it (on a
device each lane holds a few elements; the ops' operands are warp-uniform, so the results are the same); a
store writes once per warp (the reference executor runs a warp's lanes one after another: a lane's load must
not see a store of an earlier lane of its warp, so only the first lane stores). A
fragment is a (rows, cols) numpy array: float32 for f16 / bf16 / f32 elements (f16 and bf16 values exactly), int64
for integer ones.

- load / store: element (r, c) is `buf[index + r * stride + c]` (`buf[index + c * stride + r]` col-major); an
  element outside the buffer is an error naming the op. A `core` load (a core-layout shared array:
  sarek.analysis.core_layout) reads `buf[index + core_offset(r, c, stride, W)]`, index a multiple of 8 W (the
  fragment starts at a row and a column multiple of 8 and W; an error otherwise).
- a warpgroup fragment is the whole matrix too, held by every warp of its group (each warp stores the same
  values).
- mma `d = a @ b + c`: float inputs are multiplied exactly (an f16 or bf16 product is exact in f32) and summed
  into an f32 accumulator started at c, in k order (k = 0, 1, ...), one f32 rounding per step; an f16
  accumulator is rounded to f16 once, at the end. 8-bit integer inputs: exact products summed in i32, wrapping
  like C (two's complement). A device sums in its own order (tree, blocked, fused): docs/KERNELS.md gives the
  tolerance.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

import numpy as np

from sarek.interp.common import Fault

INTS = ("i8", "u8", "i32")


class CoopError(Exception):
    """A cooperative-matrix op the executor cannot perform (out of bounds, read before written); the executors
    turn it into their located error."""


def run(opid: int, fn: Any, *args: Any) -> Any:
    """`fn(*args)` with a CoopError located at op `opid` (the reference executor's generated code calls this)."""
    try:
        return fn(*args)
    except CoopError as e:
        raise Fault(opid, str(e)) from None


def need(opid: int, frag: np.ndarray | None, name: str) -> np.ndarray:
    """A fragment's value; one nothing wrote yet is an error located at op `opid`."""
    if frag is None:
        raise Fault(opid, f"fragment '{name}' is read before anything wrote it (a coop fill, load or mma first)")
    return frag


def fill(value: Any, rows: int, cols: int, kind: str) -> np.ndarray:
    dt = np.int64 if kind in INTS else np.float32
    return np.full((rows, cols), value, dtype=dt)


def _spans(index: int, stride: int, rows: int, cols: int, col_major: bool, n: int) -> list[int]:
    """The start of each contiguous run (a row, or a column when col-major) after checking every element is
    inside a buffer of `n` elements."""
    runs, length = (cols, rows) if col_major else (rows, cols)
    starts = [index + k * stride for k in range(runs)]
    for st in starts:
        if st < 0 or st + length > n:
            bad = st if st < 0 else st + length - 1
            raise CoopError(f"element {bad} is outside the buffer of {n} elements (index {index}, stride {stride})")
    return starts


def core_positions(index: int, stride: int, rows: int, cols: int, width: int, n: int) -> np.ndarray:
    """The (rows, cols) flat positions of a core-layout fragment at `index` (checked: aligned, inside `n`)."""
    if index % (8 * width) or index < 0:
        raise CoopError(f"a core-layout fragment starts at a row and a column multiple of 8 and {width} (element "
                        f"index {index} is not a multiple of {8 * width})")
    r, c = np.arange(rows)[:, None], np.arange(cols)[None, :]
    pos = index + ((r // 8) * (stride // width) + c // width) * (8 * width) + (r % 8) * width + c % width
    if pos.max() >= n:
        raise CoopError(f"element {int(pos.max())} is outside the buffer of {n} elements (index {index}, "
                        f"{stride} columns)")
    return pos


def core_of(op: Any) -> int:
    """Elements per core-matrix row of a `core` load's array (0 for a row-major load)."""
    from sarek.analysis.core_layout import core_width
    from sarek.analysis.layout import scalar_layout
    from sarek.dialect import sarek as S

    if getattr(op, "core", None) is None:
        return 0
    lay = scalar_layout(S.fragment_decl(op, op.frag.data).element_type)
    assert lay is not None
    return core_width(lay.size)


def load(buf: MutableSequence[Any], index: int, stride: int, rows: int, cols: int, col_major: bool,
         kind: str, core: int = 0) -> np.ndarray:
    """The fragment read from a flat buffer (a list of scalars or a 1-D numpy array); `core`: the elements per
    core-matrix row of a core-layout array (0: row-major)."""
    dt = np.int64 if kind in INTS else np.float32
    if core:
        pos = core_positions(index, stride, rows, cols, core, len(buf))
        return np.asarray([buf[int(p)] for p in pos.ravel()], dtype=dt).reshape(rows, cols)
    length = rows if col_major else cols
    starts = _spans(index, stride, rows, cols, col_major, len(buf))
    m = np.array([np.asarray(buf[st:st + length], dtype=dt) for st in starts], dtype=dt).reshape(-1, length)
    return m.T.copy() if col_major else m


def store(frag: np.ndarray, buf: MutableSequence[Any], index: int, stride: int, col_major: bool, kind: str) -> None:
    """Write the fragment into a flat buffer; list storage receives the reference executor's scalars."""
    rows, cols = frag.shape
    m = frag.T if col_major else frag
    starts = _spans(index, stride, rows, cols, col_major, len(buf))
    length = m.shape[1]
    for k, st in enumerate(starts):
        row = m[k]
        if isinstance(buf, np.ndarray):
            buf[st:st + length] = row
        elif kind in INTS:
            buf[st:st + length] = [int(x) for x in row]
        else:
            buf[st:st + length] = list(row.astype(np.float32))


def wrap_i32(x: np.ndarray) -> np.ndarray:
    return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def mma(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_kind: str) -> np.ndarray:
    """d = a @ b + c with the model's arithmetic (exact products, k-ordered f32 sum / wrapping i32 sum)."""
    if acc_kind in INTS:
        return wrap_i32(c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64))
    acc = c.astype(np.float32)
    for k in range(a.shape[1]):
        acc = acc + np.outer(a[:, k], b[k, :]).astype(np.float32)
    if acc_kind == "f16":
        acc = acc.astype(np.float16).astype(np.float32)
    return acc


def mma_batched(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_kind: str) -> np.ndarray:
    """`mma` over a leading axis of warps: (w, M, K) @ (w, K, N) + (w, M, N)."""
    if acc_kind in INTS:
        return wrap_i32(c.astype(np.int64) + np.einsum("wmk,wkn->wmn", a.astype(np.int64), b.astype(np.int64)))
    acc = c.astype(np.float32)
    for k in range(a.shape[2]):
        acc = acc + (a[:, :, k, None] * b[:, None, k, :]).astype(np.float32)
    if acc_kind == "f16":
        acc = acc.astype(np.float16).astype(np.float32)
    return acc
