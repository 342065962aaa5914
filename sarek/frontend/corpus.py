"""The example corpus convention (examples/*.py; see examples/README.md).

Every example module defines `CASES: list[Case]`. A Case says how to build fresh launch arguments for a
problem size, how to launch, and what numpy computes for the outputs:

    Case(name, kernel, make_args, reference, n=..., grid=..., block=..., rtol=..., atol=..., features=...)

- `make_args(n) -> tuple`: fresh launch arguments (numpy arrays and Python scalars), deterministic.
- `reference(args) -> {arg_index: expected_array}`: computed with numpy from a copy of the inputs.
- `grid`, `block`: int or tuple, or a callable of n giving one; `grid=None` (the default) launches enough
  1-D blocks to cover n threads.
- `launch(kernel, args, device)`: optional, for cases that launch several times (e.g. sorting steps).
- `features`: what the kernel needs ("f64", "i64", "f16", "atomics", "warp", "shared", "records",
  "variants") so a runner can expect a target's refusal instead of a result.

`case.run(device)` launches and returns (args after launch, expected); `case.check(device)` asserts.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sarek.types import is_ndarray

Dims = int | tuple[int, ...]


@dataclass
class Case:
    name: str
    kernel: Any
    make_args: Callable[[int], tuple[Any, ...]]
    reference: Callable[[tuple[Any, ...]], dict[int, Any]]
    n: int = 1024
    grid: Dims | Callable[[int], Dims] | None = None
    block: Dims | Callable[[int], Dims] = 256
    rtol: float = 1e-5
    atol: float = 1e-6
    features: frozenset[str] = field(default_factory=frozenset)
    launch: Callable[[Any, tuple[Any, ...], Any], None] | None = None

    def dims(self, n: int) -> tuple[Dims, Dims]:
        b = self.block(n) if callable(self.block) else self.block
        if self.grid is None:   # enough 1-D blocks to cover n threads
            bx = b if isinstance(b, int) else b[0]
            return blocks(n, bx), b
        g = self.grid(n) if callable(self.grid) else self.grid
        return g, b

    def run(self, device: Any = None, n: int | None = None) -> tuple[tuple[Any, ...], dict[int, Any]]:
        n = self.n if n is None else n
        args = self.make_args(n)
        expected = self.reference(copy.deepcopy(args))
        if self.launch is not None:
            self.launch(self.kernel, args, device)
        else:
            g, b = self.dims(n)
            self.kernel.launch(*args, grid=g, block=b, device=device)
        return args, expected

    def check(self, device: Any = None, n: int | None = None) -> None:
        args, expected = self.run(device, n)
        for i, want in expected.items():
            got = args[i]
            if is_ndarray(got) and got.dtype.names:
                assert type(self).same_structured(got, want, self.rtol, self.atol), f"{self.name}: argument {i}"
            else:
                np.testing.assert_allclose(got, want, rtol=self.rtol, atol=self.atol,
                                           err_msg=f"{self.name}: argument {i}")

    @staticmethod
    def same_structured(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> bool:
        for name in got.dtype.names or ():
            g, w = got[name], want[name]
            if g.dtype.names:
                if not Case.same_structured(g, w, rtol, atol):
                    return False
            elif not np.allclose(g, w, rtol=rtol, atol=atol):
                return False
        return True


def example_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "examples"


def load_examples(directory: Path | None = None) -> dict[str, Any]:
    """Import every examples/*.py (not starting with '_') as a module; name -> module."""
    directory = directory or example_dir()
    out: dict[str, Any] = {}
    for p in sorted(directory.glob("*.py")):
        if p.name.startswith("_"):
            continue
        name = f"sarek_examples.{p.stem}"
        mod = sys.modules.get(name)
        if mod is None:
            spec = importlib.util.spec_from_file_location(name, p)
            assert spec is not None and spec.loader is not None
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod
            spec.loader.exec_module(mod)
        out[p.stem] = mod
    return out


def all_cases(directory: Path | None = None) -> list[tuple[str, Case]]:
    """(module name, Case) for every case of every example."""
    return [(m, c) for m, mod in load_examples(directory).items() for c in getattr(mod, "CASES", [])]


def blocks(n: int, block: int = 256) -> int:
    """Blocks of `block` threads covering n."""
    return (n + block - 1) // block
