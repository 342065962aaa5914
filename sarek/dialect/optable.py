"""Per-op dispatch tables: one entry per op type, stated on the code that handles the op (xDSL's `@impl(Op)`
interpreter functions), which a lowering or an executor looks up by the op's exact type instead of walking an
`isinstance` chain (a dictionary lookup, whatever the number of ops)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from xdsl.ir import Operation

F = TypeVar("F", bound=Callable[..., object])


class OpTable(Generic[F]):
    """op type -> the function handling it; `@table(OpA, OpB)` on a function registers it for both."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.entries: dict[type[Operation], F] = {}

    def __call__(self, *types: type[Operation]) -> Callable[[F], F]:
        def register(f: F) -> F:
            for t in types:
                if t in self.entries:
                    raise AssertionError(f"{self.what}: {t.__name__} has two entries")
            self.entries.update(dict.fromkeys(types, f))
            return f
        return register


__all__ = ["OpTable"]
