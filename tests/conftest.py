"""Tests marked `gpu` need an NVIDIA GPU. Where there is none (CI), they are deselected — not skipped, not
passed — and the summary says how many and how to run them (on the H200: `bash scripts/gpu_run.sh python3 -m
pytest -m gpu tests/unit`)."""

from __future__ import annotations

import pytest

_deselected: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gpu: needs an NVIDIA GPU (run on the H200 machine)")
    config.addinivalue_line("markers", "bench: smoke test of a benchmark script (--quick, one kernel; < 5 s)")


def _has_nvidia_gpu() -> bool:
    import sarek.runtime as rt

    return any(d.kind in ("cuda", "ptx") for d in rt.devices())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gpu = [i for i in items if i.get_closest_marker("gpu")]
    if not gpu or _has_nvidia_gpu():
        return
    _deselected.extend(i.nodeid for i in gpu)
    config.hook.pytest_deselected(items=gpu)
    items[:] = [i for i in items if not i.get_closest_marker("gpu")]


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # pyright: ignore[reportMissingParameterType, reportUnknownParameterType]
    if _deselected:
        terminalreporter.write_line(
            f"{len(_deselected)} GPU tests deselected: no NVIDIA GPU here. They run on the H200 with "
            "`bash scripts/gpu_run.sh python3 -m pytest -m gpu tests/unit` (see docs/RUNTIME.md).")
