"""Smoke test of benchmarks/bench_launch.py: `--quick` on pocl, checking the report's structure (never its
times), so that the benchmark keeps working as the runtime changes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_launch.py"


@pytest.mark.bench
def test_bench_launch_quick_on_pocl(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("_bench_launch_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    assert mod.main(["--quick", "--devices", "opencl,cuda", "--out", str(tmp_path)]) == 0
    rows = json.loads((tmp_path / "bench_launch.json").read_text())
    got = {(r["section"], r["device"]) for r in rows if "ratio" in r}
    assert got == {("launch + sync", "opencl:0"), ("async launch", "opencl:0")}
    assert [r for r in rows if r["device"] == "cuda:0"] == [{"section": "launch + sync", "device": "cuda:0",
                                                              "absent": True}]
    for r in rows:
        if "ratio" in r:
            assert r["sarek_us"] > 0 and r["ref_us"] > 0 and r["ref"] == "pyopencl kernel call"
