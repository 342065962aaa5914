"""Cooperative matrices (tensor cores) in kernels: `from sarek import coop`.

```python
a = coop.fragment("a", f16, 16, 16)      # use "a" | "b" | "acc", element type, rows, cols
coop.fill(acc, 0.0)                      # every element
coop.load(a, A, i, j)                    # rows i.., columns j.. of a 2-D array or 2-D shared array
coop.load(a, v, offset, stride)          # from a Vec / 1-D array, row-major, the row stride in elements
coop.store(acc, C, i, j)                 # the same ways; col_major=True on load/store: transposed layout
coop.mma(d, a, b, c)                     # d = a @ b + c
```

A fragment is owned by one warp: every lane executes each call with the same arguments (warp-uniform values
such as `sarek.gpu.warp_id` and block indices). Portable shapes: f16/bf16 inputs with f32 or f16 accumulators
at 16x16x16; u8/i8 inputs with i32 accumulators at 16x16x32. These names are recognised by the front end in a
kernel's source; calling them in Python raises.
"""

from __future__ import annotations

from typing import Any

#: the fragment uses `coop.fragment` accepts
USES = ("a", "b", "acc")


class CoopFunction:
    """A cooperative-matrix call of a kernel (`coop.fragment`, `coop.fill`, `coop.load`, `coop.store`,
    `coop.mma`)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"sarek.coop.{self.name}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"sarek.coop.{self.name}() can only be used inside a @sarek.kernel or @sarek.device function")


fragment = CoopFunction("fragment")
fill = CoopFunction("fill")
load = CoopFunction("load")
store = CoopFunction("store")
mma = CoopFunction("mma")

__all__ = ["fragment", "fill", "load", "store", "mma", "CoopFunction", "USES"]
