"""Smoke test of benchmarks/bench_warp.py's sarek half: every kernel of its sarek source compiles to CUDA (the Warp
half needs `warp-lang`, which only the benchmark's environment installs: benchmarks/requirements.txt)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_warp.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_bench_warp_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.bench
def test_every_sarek_kernel_of_the_warp_comparison_compiles(tmp_path: Path) -> None:
    bench = _load()
    sarek_path, warp_path = bench._write(tmp_path)
    assert warp_path.read_text() == bench.WARP_SRC
    compile_one = bench.sarek_compiler(sarek_path)
    for name in bench.KERNELS:
        src = compile_one(name)
        assert "__global__" in src, name
        assert compile_one(name) == src, f"{name}: a second compile differs (a cache cleared wrongly)"
    assert len(bench.KERNELS) >= 8 and all(f"\ndef {k}(" in bench.WARP_SRC for k in bench.KERNELS)
