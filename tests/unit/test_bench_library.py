"""Smoke test of benchmarks/bench_library.py on pocl: every job runs and its first launch agrees with numpy (the
benchmark's own check), so the library kernels and the benchmark keep working; times are never asserted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_library.py"


@pytest.mark.bench
def test_bench_library_rows_run_and_check_on_pocl() -> None:
    spec = importlib.util.spec_from_file_location("_bench_library_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    rows = mod.run(["opencl:0"], 1 << 12, 16, 128, batch_s=0.0)
    assert [r["job"] for r in rows] == ["sum", "row_argmax", "softmax", "layer_norm", "sum4", "row_argmax4", "softmax4",
                                        "layer_norm4", "layer_norm_bf16", "sgemm", "sgemm_kt", "sgemm_kt4", "stencil5",
                                        "histogram"]
    for r in rows:
        assert r.get("opencl:0_check") == "ok", r
        assert r["opencl:0_ms"] > 0
