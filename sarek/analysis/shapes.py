"""Shapes of N-dimensional arrays (`!sarek.vec<T, N>`, `!sarek.array<T, space, N>`) for the lowerings.

An access `a[i, j, k]` reaches element `(i * n1 + j) * n2 + k` of a row-major array of extents
`(n0, n1, n2)`. Every lowering (C family, shaders, PTX) and both interpreter executors compute that offset
with `row_major` in their own values; extents come from the hidden shape parameters passed with a vector,
or from an alloc's constant sizes (`constant_extents`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.ir import SSAValue

from sarek.dialect.sarek import AllocArrayOp

V = TypeVar("V")


def row_major(indices: Sequence[V], extents: Sequence[V], mul: Callable[[V, V], V], add: Callable[[V, V], V]) -> V:
    """The row-major element offset of `indices` in an array of `extents` (extent 0 is not needed)."""
    flat = indices[0]
    for i, n in zip(indices[1:], extents[1:]):
        flat = add(mul(flat, n), i)
    return flat


def constant_extents(arr: SSAValue) -> list[int] | None:
    """The constant extents of a shared or local array (None for a vector or a non-constant size)."""
    return arr.owner.shape if isinstance(arr.owner, AllocArrayOp) else None


def hidden_names(name: str, rank: int) -> list[str]:
    """The hidden parameters passed with vector `name`: its length, or its N extents."""
    return [f"sarek_{name}_length"] if rank == 1 else [f"sarek_{name}_dim{k}" for k in range(rank)]
