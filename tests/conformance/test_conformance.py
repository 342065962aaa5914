"""Every example kernel on every executor available here, against its numpy reference.

Both interpreter executors and OpenCL on pocl MUST be present (their absence fails the run) and must pass
every case. Other devices (vulkan on lavapipe, cuda, ptx, NVIDIA OpenCL) run when this machine has them; a
failure there is reported as an xfail with its message (`-rx`), or fails with SAREK_CONFORMANCE_STRICT=1.
The table of results is printed at the end of the session (`-s` or the terminal summary).
"""

from __future__ import annotations

import os

import pytest

import sarek.runtime as rt
from sarek.runtime.conformance import Result, corpus, format_table, run_case

CASES, LOAD_ERRORS = corpus()
DEVICES = rt.devices()
REQUIRED = ["interp", "interp-ref", "opencl (pocl)"]
RESULTS: list[Result] = []


def _has(req: str) -> bool:
    if req == "opencl (pocl)":
        return any(d.kind == "opencl" and getattr(d, "is_pocl", False) for d in DEVICES)
    return any(d.name == req for d in DEVICES)


def _required(d) -> bool:
    return d.kind == "interp" or (d.kind == "opencl" and getattr(d, "is_pocl", False))


@pytest.mark.parametrize("req", REQUIRED)
def test_required_device_present(req):
    assert _has(req), f"required device {req} missing; unavailable: {rt.unavailable}"


def test_corpus_loads():
    assert not LOAD_ERRORS, "\n".join(LOAD_ERRORS)
    assert len(CASES) >= 5


def test_report_unavailable_devices():
    """Not a check: records which optional devices this machine lacks (shown with -rA)."""
    missing = {k: v for k, v in rt.unavailable.items()}
    print("devices:", ", ".join(d.name for d in DEVICES), "| unavailable:", missing)


@pytest.mark.parametrize("device", DEVICES, ids=lambda d: d.name)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_conformance(case, device):
    r = run_case(case, device)
    RESULTS.append(r)
    if r.skipped:
        pytest.skip(r.message)
    if not r.ok and not _required(device) and os.environ.get("SAREK_CONFORMANCE_STRICT") != "1":
        pytest.xfail(f"{device.name} (optional here): {r.message[:500]}")
    assert r.ok, f"{case.name} on {device.name} ({case.origin}): {r.message} (max error {r.max_error:g}, " \
                 f"tolerance atol={case.atol:g} rtol={case.rtol:g})"


def teardown_module(module):
    if RESULTS:
        print("\n" + format_table(RESULTS, [d.name for d in DEVICES]))
