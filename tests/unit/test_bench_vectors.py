"""Smoke test of benchmarks/bench_vectors.py on pocl: the f32, f32x4 and lane-by-lane saxpy rows run and agree
with numpy (the benchmark's own check); times are never asserted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_vectors.py"


@pytest.mark.bench
def test_bench_vectors_rows_run_and_check_on_pocl() -> None:
    spec = importlib.util.spec_from_file_location("_bench_vectors_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    rows = mod.run(["opencl:0"], 1 << 12, 1)
    assert [r["kernel"] for r in rows] == ["f32", "f32x4", "f32x4 lane by lane"]
    for r in rows:
        assert r.get("check") is True and r["ms"] > 0, r
