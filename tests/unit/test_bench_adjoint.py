"""Smoke test of benchmarks/bench_adjoint.py: `--quick` on pocl, checking the report's structure (never its
times), so that the benchmark keeps working as the adjoint pass changes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_adjoint.py"


@pytest.mark.bench
def test_bench_adjoint_quick_on_pocl(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("_bench_adjoint_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    assert mod.main(["--quick", "--device", "opencl:0", "--out", str(tmp_path)]) == 0
    rows = json.loads((tmp_path / "bench_adjoint.json").read_text())
    assert [r["kernel"] for r in rows] == ["saxpy", "stencil", "softmax", "particle", "block_sum"]
    for r in rows:
        assert r["device"] == "opencl:0" and r["forward_s"] > 0 and r["adjoint_s"] > 0
        assert r["ratio"] == pytest.approx(r["adjoint_s"] / r["forward_s"])
