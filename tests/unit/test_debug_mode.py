"""Debug mode (`launch(debug=True)`, SAREK_DEBUG=1, sarek-check-bounds): located LaunchErrors for
out-of-bounds accesses, division by zero and asserts on every local device, without corrupting host memory;
release builds unchanged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sarek
from sarek import Array, Vec, f32, i32, i64
from sarek.passes.debug_buffer import DEBUG_PARAM
from sarek.runtime.debug import launch_plan
from sarek.gpu import global_thread_id

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "unit" / "debug_kernels" / "oob.py"
DEVICES = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0"]
WRITE_LINE = next(i for i, ln in enumerate(SCRIPT.read_text().splitlines(), 1) if "c[at] = 2.0" in ln)
UDIV_LINE = next(i for i, ln in enumerate(SCRIPT.read_text().splitlines(), 1) if "# <udiv>" in ln)


def sweep(devices: list[str]) -> list[dict[str, Any]]:
    """Runs the cases in a child process (a crash there fails the test instead of killing pytest)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    r = subprocess.run([sys.executable, str(SCRIPT), *devices], capture_output=True, text=True, env=env,
                       timeout=900)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-3000:]}"
    return [json.loads(ln) for ln in r.stdout.splitlines() if ln.startswith("{")]


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    return sweep(DEVICES)


def gpu_devices() -> list[str]:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from gpu_names import gpu_devices as names  # pyright: ignore[reportMissingImports]
    finally:
        sys.path.pop(0)
    return names()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("at", [100, -1, 1000])
def test_oob_write_is_reported_located_without_damage(results: list[dict[str, Any]], device: str, at: int) -> None:
    check_write(results, device, at)


def check_write(results: list[dict[str, Any]], device: str, at: int) -> None:
    case = next(c for c in results if c["device"] == device and c["case"] == f"write{at}")
    assert case["error"] is not None
    assert case["error"].startswith(f"{SCRIPT}:{WRITE_LINE}:9: error: out-of-bounds write to 'c': index {at} ")
    assert "(extent 100)" in case["error"] and "c[at] = 2.0" in case["error"]
    assert (case["thread"], case["block"], case["index"], case["extent"]) == ([6, 0, 0], [1, 0, 0], at, 100)
    assert case["inside"] == [1.0]  # every in-bounds write happened, the faulting one was skipped
    assert case["outside"] == [7.0]  # the memory around the array is untouched


@pytest.mark.parametrize("device", DEVICES)
def test_helper_division_and_shared_checks(results: list[dict[str, Any]], device: str) -> None:
    check_others(results, device)


@pytest.mark.gpu
def test_debug_mode_on_the_gpu() -> None:
    devices = gpu_devices()
    results = sweep(devices)
    for d in devices:
        for at in (100, -1, 1000):
            check_write(results, d, at)
        check_others(results, d)


def check_others(results: list[dict[str, Any]], device: str) -> None:
    got = {c["case"]: c["error"] for c in results if c["device"] == device}
    assert ":26:5: error: out-of-bounds update of 'v': index 8 is outside 0..7 (extent 8), in thread (5, 0, 0)" \
        in got["helper"]
    assert ":39:16: error: integer division by zero, in thread (3, 0, 0) of block (0, 0, 0)" in got["div"]
    assert "1 more failed check(s)" in got["div"]  # the modulo on the next line failed too
    assert ":50:16: error: out-of-bounds read of 's': index 32 is outside 0..31 (extent 32)" in got["shared"]
    # u32 (and u64) divisions are checked like signed ones
    assert f":{UDIV_LINE}:16: error: integer division by zero, in thread (3, 0, 0) of block (0, 0, 0)" in got["udiv"]
    assert "1 more failed check(s)" in got["udiv"]


def _kernels() -> Any:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import oob  # pyright: ignore[reportMissingImports]
    finally:
        sys.path.pop(0)
    return oob


def test_release_build_carries_no_checks() -> None:
    k = _kernels().oob_write
    before = {t: k.source(t) for t in ("cuda", "hip", "opencl", "metal", "glsl", "wgsl", "ptx")}
    assert launch_plan(k.module, k.name, False) is None
    plan = launch_plan(k.module, k.name, True)
    assert plan is not None and launch_plan(k.module, k.name, True) is plan  # compiled once
    assert not any(DEBUG_PARAM in src or "check_failed" in src for src in before.values())
    c = np.zeros(100, np.float32)
    k.launch(c, 100, 70, 5, grid=2, block=64, debug=True)  # in bounds: no error
    assert c[5] == 2.0
    assert {t: k.source(t) for t in before} == before
    from sarek.targets import emit_source

    assert DEBUG_PARAM in emit_source(plan.module, "cuda")


def test_env_turns_debug_mode_on(monkeypatch: pytest.MonkeyPatch) -> None:
    k = _kernels().oob_write
    c = np.zeros(100, np.float32)
    monkeypatch.setenv("SAREK_DEBUG", "1")
    with pytest.raises(sarek.LaunchError, match="out-of-bounds write to 'c': index 100 "):
        k.launch(c, 100, 70, 100, grid=2, block=64, device="interp")
    with pytest.raises(sarek.LaunchError, match="index 100 "):  # a second launch (no fast path in debug mode)
        k.launch(c, 100, 70, 100, grid=2, block=64, device="interp")
    monkeypatch.setenv("SAREK_DEBUG", "0")
    k.launch(c, 100, 70, 99, grid=2, block=64, device="interp", debug=False)
    assert c[99] == 2.0


@sarek.kernel
def far(c: Vec[f32], at: i64):
    if global_thread_id == 0:
        c[at] = 1.0


def test_i64_index_is_reported_whole() -> None:
    with pytest.raises(sarek.LaunchError) as ei:
        far.launch(np.zeros(4, np.float32), 5_000_000_000, grid=1, block=1, debug=True)
    assert ei.value.__dict__["index"] == 5_000_000_000
    assert "index 5000000000 is outside 0..3" in str(ei.value)


def _corpus() -> list[Any]:
    from sarek.frontend.corpus import all_cases

    return [pytest.param(c, id=f"{m}:{c.name}") for m, c in all_cases()]


@pytest.mark.parametrize("case", _corpus())
def test_corpus_runs_clean_in_debug_mode(case: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every corpus kernel is in bounds: debug mode reports nothing and computes the same results (supersteps,
    shared memory, records, variants, helpers and atomics all pass the checks)."""
    monkeypatch.setenv("SAREK_DEBUG", "1")
    case.check("interp")


@sarek.kernel
def shaped(a: Array[f32, 2], n: i32, s: i32):
    i = global_thread_id
    assert i < 3, "i too big"
    for j in range(0, n, s):
        pass
    if i == 1:
        a[i, n] = 1.0


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl:0"])
def test_shaped_arrays_asserts_and_zero_steps(device: str) -> None:
    a = np.zeros((4, 5), np.float32)
    with pytest.raises(sarek.LaunchError, match=r"out-of-bounds write to 'a' \(dimension 1\): index 5 is outside "
                                                r"0\.\.4 \(extent 5\), in thread \(1, 0, 0\)"):
        shaped.launch(a, 5, 1, grid=1, block=2, device=device, debug=True)
    with pytest.raises(sarek.LaunchError, match="assertion failed: range\\(\\) step must not be zero"):
        shaped.launch(a, 2, 0, grid=1, block=2, device=device, debug=True)
    with pytest.raises(sarek.LaunchError, match="assertion failed: i too big, in thread \\(3, 0, 0\\)"):
        shaped.launch(a, 2, 1, grid=1, block=4, device=device, debug=True)
    shaped.launch(a, 2, 0, grid=1, block=4, device=device)  # release: asserts stripped, no checks
    assert a[1, 2] == 1.0
