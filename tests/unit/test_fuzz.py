"""The differential fuzzer (sarek.testing): CI's fixed seed set on every CPU device with every validator,
and the generator, comparison, shrinking, blame and reproducer machinery on their own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sarek.testing import fuzz
from sarek.testing.gen import generate
from sarek.testing.shrink import shrink

ROOT = Path(__file__).parents[2]
#: CI's seed set: kernels 0..CI_COUNT-1, sources of every CI_VALIDATE_EVERY-th one through all 7 validators
#: (the cost is measured in BENCHMARKS.md, "Fuzzing")
CI_COUNT = 40
CI_VALIDATE_EVERY = 2
CPU_DEVICES = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0"]


def test_ci_seed_set(tmp_path: Path):
    """Every generated kernel compiles, validates on all 7 targets and agrees on every CPU device."""
    out = tmp_path / "fuzz"
    r = subprocess.run([sys.executable, "-m", "sarek.testing.fuzz", "--count", str(CI_COUNT), "--devices",
                        ",".join(CPU_DEVICES), "--targets", ",".join(fuzz.TARGETS), "--validate-every",
                        str(CI_VALIDATE_EVERY), "--out", str(out),
                        "--shrink-seconds", "60"], capture_output=True, text=True, cwd=ROOT)
    summary = json.loads((out / "summary.json").read_text())
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    assert summary["kernels"] == CI_COUNT
    for d in CPU_DEVICES:  # a device that never ran (missing driver ...) fails the test
        assert summary["ran"].get(d, 0) >= CI_COUNT // 4, (d, summary["ran"])
    for t in fuzz.TARGETS:
        assert summary["validated"].get(t, 0) >= 1, (t, summary["validated"])  # WGSL refuses i64/f64 kernels
    assert summary["agreements"] >= CI_COUNT // 2
    assert sum(len(v) for v in summary["known"].values()) <= 2, summary["known"]  # known bugs stay rare


def test_generator_is_deterministic_and_covers_the_language():
    a, b = generate(7), generate(7)
    assert a.source == b.source and a.case == b.case
    text = "\n".join(generate(s).source for s in range(60))
    for construct in ("@record", "@variant", "match ", "@device", "shared(", "barrier()", "atomic_", "warp_shuffle",
                      "local_array(", "for ", "while ", "elif ", " if ", "sm.", "i64(", "f64(", " // ", " % ",
                      " >> ", " << ", " & ", " ^ ", "abs(", "min(", "-f32("):
        assert construct in text, construct


def test_compare_ints_exact_floats_within_tolerance():
    case: dict[str, Any] = {"lowprec": True}
    assert fuzz.compare({"oi": [1, -2]}, {"oi": [1, -2]}, case, "opencl:0") is None
    assert "oi[1]" in str(fuzz.compare({"oi": [1, -2]}, {"oi": [1, -3]}, case, "opencl:0"))
    assert fuzz.compare({"of": [1.0]}, {"of": [1.0 + 5e-5]}, case, "opencl:0") is None
    assert fuzz.compare({"of": [100.0]}, {"of": [100.1]}, case, "opencl:0") is not None
    # lavapipe's low-precision asin/acos/atan/atan2/sinh: 2e-3 relative on the Vulkan devices only
    assert fuzz.compare({"of": [100.0]}, {"of": [100.1]}, case, "vulkan:0") is None
    assert fuzz.compare({"of": [100.0]}, {"of": [100.1]}, {"lowprec": False}, "vulkan:0") is not None
    assert fuzz.compare({"of": [float("nan")]}, {"of": [0.0]}, case, "vulkan:0") is not None


def test_shrink_keeps_the_failure_and_drops_the_rest():
    src = generate(3).source
    marker = next(ln for ln in src.splitlines() if ln.strip().startswith("oi["))
    small = shrink(src, lambda s: marker in s and "def fz3(" in s, 30)
    assert marker in small and len(small.splitlines()) < len(src.splitlines())
    assert "@device" not in small and "@record" not in small


def test_blame_names_the_pass_that_changes_the_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A pass that turns `+` into `-` is named; with the real pipeline the IR stays right."""
    from dataclasses import dataclass

    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass

    import sarek.passes.pipeline as pl
    from sarek.dialect import sarek as s
    from sarek.testing import blame

    path = tmp_path / "fz1.py"
    path.write_text(_adding_kernel())
    assert blame.blame(path, "opencl:0").startswith("lowering/printer")

    @dataclass(frozen=True)
    class AddToSub(ModulePass):
        name = "test-add-to-sub"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            for o in op.walk():
                if isinstance(o, s.BinOp) and o.op == s.BinOpKind.ADD:
                    o.kind = s.BinOpKindAttr(s.BinOpKind.SUB)

    real = pl.pipeline_passes
    monkeypatch.setattr(pl, "pipeline_passes", lambda t, **kw: [real(t, **kw)[0], AddToSub(), *real(t, **kw)[1:]])
    assert blame.blame(path, "opencl:0").startswith("test-add-to-sub: changes the result")


def _adding_kernel() -> str:
    return ('from sarek import Vec, i32, f32, kernel\nfrom sarek.gpu import global_thread_id\n\n\n@kernel\n'
            'def fz1(ai: Vec[i32], af: Vec[f32], oi: Vec[i32], acc: Vec[i32], n: i32):\n'
            '    i = global_thread_id\n    if i < n:\n        oi[i] = ai[i] + 3\n\n\n'
            "CASE = {'seed': 1, 'grid': 1, 'block': 32, 'n': 32, 'outputs': {'oi': 1}, 'features': []}\n")


def test_a_failure_writes_a_shrunk_reproducer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    prog = generate(5)
    camp = fuzz.Campaign(["interp"], [], tmp_path)
    monkeypatch.setattr(camp, "same_failure", lambda src, f: "def fz5(" in src)
    camp.kernels = 1
    camp.record(prog, tmp_path / "x.py", [fuzz.Failure(5, "validator", "cuda", "nvcc says no")], {})
    fdir = tmp_path / "failures" / "fz5"
    report = json.loads((fdir / "report.json").read_text())
    assert report["failures"][0]["kind"] == "validator" and "--replay" in report["replay"]
    assert (fdir / "kernel.py").read_text() == prog.source
    assert len((fdir / "kernel_min.py").read_text()) < len(prog.source)


def test_worker_reports_crash_and_hang(tmp_path: Path):
    """A device process that dies is a crash, one that does not answer in time is a hang; both restart."""
    crash = tmp_path / "crash.py"
    crash.write_text("import os\nos._exit(3)\n")
    hang = tmp_path / "hang.py"
    hang.write_text("import time\ntime.sleep(60)\n")
    w = fuzz.Worker("interp", timeout=5)
    try:
        assert "crash" in w.ask(crash)
        assert "hang" in w.ask(hang)
        ok = tmp_path / "fz1.py"
        ok.write_text(_adding_kernel())
        res = w.ask(ok)
        ai = fuzz.make_args(fuzz.load_kernel(ok)[0], fuzz.load_kernel(ok)[1])[0]
        assert res["outputs"]["oi"] == [int(x) + 3 for x in ai]
    finally:
        w.stop()
