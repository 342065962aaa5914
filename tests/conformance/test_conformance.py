"""Every example kernel on every executor available here, against its numpy reference.

Both interpreter executors, OpenCL on pocl and Vulkan on lavapipe (WGSL and GLSL) MUST be present on the CPU
machine (their absence fails the run). Every device present must pass every case or refuse it with the reason
the case allows (capability table); a failure on any device is a test failure. GPU devices (cuda, ptx, NVIDIA
OpenCL, Vulkan on the H200) run when the machine has them (scripts/gpu_check.py on the H200); cuda and ptx
run under both floating-point policies (`fp="default"`, and `fp="exact"`: ids `ptx:0:exact`).
The table of results is printed at the end of the session (`-s` or the terminal summary).
"""

from __future__ import annotations

import pytest

import sarek.runtime as rt
from sarek.runtime.conformance import Result, corpus, format_table, run_case

CASES, LOAD_ERRORS = corpus()
DEVICES = rt.devices()
DEVICES += [d.with_fp("exact") for d in list(DEVICES) if d.kind in d.FP_KINDS]
REQUIRED = ["interp", "interp-ref", "opencl (pocl)", "vulkan:0", "vulkan-glsl:0"]
RESULTS: list[Result] = []


def _has(req: str) -> bool:
    if req == "opencl (pocl)":
        return any(d.kind == "opencl" and getattr(d, "is_pocl", False) for d in DEVICES)
    return any(d.name == req for d in DEVICES)


@pytest.mark.parametrize("req", REQUIRED)
def test_required_device_present(req):
    assert _has(req), f"required device {req} missing; unavailable: {rt.unavailable}"


def test_corpus_loads():
    assert not LOAD_ERRORS, "\n".join(LOAD_ERRORS)
    assert len(CASES) >= 5


@pytest.mark.parametrize("device", DEVICES, ids=lambda d: d.fp_key)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_conformance(case, device):
    r = run_case(case, device)
    RESULTS.append(r)
    assert not r.skipped, f"{case.name} is not run on {device.name}: {r.message}"
    assert r.ok, f"{case.name} on {device.name} ({case.origin}): {r.message} (max error {r.max_error:g}, " \
                 f"tolerance atol={case.atol:g} rtol={case.rtol:g})"


def teardown_module(module):
    if RESULTS:
        print("\n" + format_table(RESULTS, list(dict.fromkeys(d.name for d in DEVICES))))
    print("devices:", ", ".join(d.name for d in DEVICES), "| unavailable:", dict(rt.unavailable))
