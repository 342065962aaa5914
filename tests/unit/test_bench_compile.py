"""Smoke test of benchmarks/bench_compile.py: `--quick` on one kernel, checking the report's structure (never
its times), so that the benchmark keeps working as the compiler changes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_compile.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_bench_compile_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.bench
def test_bench_compile_quick_one_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load()
    out = tmp_path / "r.json"
    assert bench.main(["--quick", "--only", "vector_add.mlir", "--per-kernel", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    for head in ("stage", "roundtrip", "x roundtrip", "target", "pipeline ms", "emit x rt", "per kernel"):
        assert head in text, head
    rows = {ln.split()[0] for ln in text.splitlines() if ln.strip()}
    assert set(bench.TARGETS) <= rows and {"parse", "verify", "print", "roundtrip"} <= rows
    data = json.loads(out.read_text())
    assert data["repeat"] == 1
    (k,) = data["kernels"]
    assert k["name"] == "vector_add.mlir" and k["ops"] > 0 and not k["refused"]
    assert "frontend" not in k["times"]  # .mlir files do not go through the front end
    for stage in ("parse", "verify", "print", "roundtrip"):
        assert k["times"][stage] > 0
    s = data["summary"]
    assert abs(s["roundtrip"]["ratio"] - 1.0) < 1e-9
    for t in bench.TARGETS:
        for stage in bench.TARGET_STAGES:
            assert k["times"][f"{t}/{stage}"] > 0
            assert s[t][stage]["ratio"] > 0 and s[t][stage]["us_per_op"] > 0


@pytest.mark.bench
def test_bench_compile_scale_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--scale prints one row per size and a growth row (never checks a time)."""
    bench = _load()
    out = tmp_path / "s.json"
    assert bench.main(["--scale", "5,10", "--targets", "cuda,wgsl", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "growth 10/5" in text and "cuda CPU ms" in text
    data = json.loads(out.read_text())["scale"]
    assert set(data) == {"5", "10"} and set(data["5"]) == {"frontend", "cuda", "wgsl"}
    assert "t8 = x + y" in bench.straight_line_kernel(9) and "t9" not in bench.straight_line_kernel(9)


def test_first_launch_runs_from_bytecode() -> None:
    """--first-launch compiles sarek (and the packages a launch imports) to .pyc before timing: a checkout run
    without bytecode would time Python's compiler on every module the warm path imports."""
    mod = _load()
    pyc = Path(importlib.util.cache_from_source(str(BENCH.parents[1] / "sarek" / "runtime" / "warm.py")))
    pyc.unlink(missing_ok=True)
    mod._bytecode()  # pyright: ignore[reportPrivateUsage]
    assert pyc.is_file()
