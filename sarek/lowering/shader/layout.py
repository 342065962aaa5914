"""Element layouts of vector elements and by-value parameters: host (aligned C, §4.9) and device offsets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
)
from xdsl.ir import Attribute



# ------------------------------------------------------------------------------------------------ layouts


@dataclass
class Leaf:
    host: int
    dev: int
    size: int
    kind: str  # numpy kind code: i4 i8 f4 f8 b4


@dataclass
class ElemLayout:
    """Host (aligned C, §4.9) and device layout of a vector element type."""

    host_size: int
    dev_size: int
    leaves: list[Leaf] = field(default_factory=list[Leaf])
    # variants: per constructor, its payload leaves (tag is leaves[0])
    ctors: list[list[Leaf]] | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"host_size": self.host_size, "dev_size": self.dev_size,
                             "leaves": [[x.host, x.dev, x.size, x.kind] for x in self.leaves]}
        if self.ctors is not None:
            d["ctors"] = [[[x.host, x.dev, x.size, x.kind] for x in c] for c in self.ctors]
        return d


def scalar_kind(t: Attribute) -> str:
    if isinstance(t, IntegerType):
        w = t.bitwidth
        return {1: "b4", 32: "i4", 64: "i8"}.get(w, "u1")
    if isinstance(t, Float32Type):
        return "f4"
    if isinstance(t, Float64Type):
        return "f8"
    if isinstance(t, Float16Type):
        return "f2"
    raise ValueError(t)


def int_width(t: Attribute) -> int:
    """The bit width of an integer type; 0 for any other type."""
    return t.bitwidth if isinstance(t, IntegerType) else 0


def scalar_size(t: Attribute) -> int:
    k = scalar_kind(t)
    return int(k[1:])



def round_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a
