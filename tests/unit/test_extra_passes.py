"""Passes from outside sarek (examples/plugin, an `xdsl.universe` plugin) in sarek-pipeline's insertion points
and in what a launch compiles (sarek.runtime.compile), joining the cache key."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from sarek import Vec, i32, kernel
from sarek.diagnostics import SarekError
from sarek.gpu import global_thread_id

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "plugin"


@pytest.fixture(autouse=True)
def plugin_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """The example plugin found as when installed (its dist-info on the path), a fresh cache, no extra passes."""
    from sarek import plugins
    from sarek.runtime import compile as rc

    monkeypatch.syspath_prepend(str(PLUGIN))
    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SAREK_PASSES", raising=False)
    plugins._universes.cache_clear()  # pyright: ignore[reportPrivateUsage]
    rc._EXTRA.clear()  # pyright: ignore[reportPrivateUsage]
    yield
    rc._EXTRA.clear()  # pyright: ignore[reportPrivateUsage]
    plugins._universes.cache_clear()  # pyright: ignore[reportPrivateUsage]
    sys.modules.pop("sarek_plugin_example", None)


@kernel
def store41(a: Vec[i32]):
    a[global_thread_id] = 41


def test_insertion_points_place_the_passes():
    from sarek.passes.pipeline import pipeline_passes

    names = [p.name for p in pipeline_passes("cuda", before_opt="sarek-cse", after_opt="example-replace-constant",
                                             before_lowering="example-replace-constant{new=3}")]
    i = names.index("example-replace-constant")
    assert names[i - 1] == "sarek-canonicalize" and names[i + 1] == "sarek-order-type-decls"  # after the OPT run
    assert names[names.index("sarek-lower-cfamily") - 1] == "example-replace-constant"
    j = names.index("sarek-constant-tables")  # the last legalization before the OPT run
    assert names[j + 1:j + 3] == ["sarek-cse", "sarek-canonicalize"]  # before-opt, then the OPT run
    assert names.count("example-replace-constant") == 2


def test_unknown_and_bad_passes_are_located_errors():
    from sarek.passes.pipeline import pipeline_passes

    with pytest.raises(SarekError, match=r"sarek-pipeline\{after-opt\}: unknown pass 'nope'"):
        pipeline_passes("ptx", after_opt="nope")
    with pytest.raises(SarekError, match="bad options for pass 'example-replace-constant'"):
        pipeline_passes("ptx", after_opt="example-replace-constant{old=x}")


def test_source_option_runs_the_plugin_pass_on_every_target():
    for t in ("cuda", "opencl", "glsl", "wgsl", "ptx"):
        src = store41.source(t, passes="example-replace-constant{new=77}")
        assert re.search(r"\b77i?\b", src) and not re.search(r"\b41i?\b", src), t


def test_process_wide_passes_reach_a_launch_and_join_the_key():
    from sarek.runtime import compile as rc
    from sarek.runtime.core import kernel_spec

    a = np.zeros(64, np.int32)
    store41.launch(a, grid=1, block=64, device="opencl")
    assert (a == 41).all()
    spec = kernel_spec(store41.module, "store41")
    plain = rc.source_key(spec, "opencl", {}, rc.extra_passes())
    rc.set_extra_passes("example-replace-constant")
    store41.launch(a, grid=1, block=64, device="opencl")
    assert (a == 42).all()
    assert rc.source_key(spec, "opencl", {}, rc.extra_passes()) != plain
    assert rc.extra_passes() == "example-replace-constant"  # one spelling (defaults left out), one key
    rc.set_extra_passes("example-replace-constant{old=41 new=42}")
    assert rc.extra_passes() == "example-replace-constant"
    rc.set_extra_passes("")
    store41.launch(a, grid=1, block=64, device="opencl")
    assert (a == 41).all()
    with pytest.raises(SarekError, match="unknown pass 'nope'"):
        rc.set_extra_passes("nope")


def test_one_launchs_passes_compile_its_own_program_and_join_the_key():
    from sarek.runtime import cache
    from sarek.runtime import compile as rc
    from sarek.runtime.core import kernel_spec

    a = np.zeros(64, np.int32)
    for _ in range(2):  # each pass list compiled once, its programs never the plain launch's
        store41.launch(a, grid=1, block=64, device="opencl", passes="example-replace-constant{new=77}")
        assert (a == 77).all()
        store41.launch(a, grid=1, block=64, device="opencl")
        assert (a == 41).all()
        store41.launch(a, grid=1, block=64, device="opencl", passes="example-replace-constant{new=78}")
        assert (a == 78).all()
    spec = kernel_spec(store41.module, "store41")
    specs = [rc.with_passes(spec, p) for p in ("", "example-replace-constant{new=77}", "example-replace-constant{new=78}")]
    assert specs[0] is spec and specs[1] is rc.with_passes(spec, "example-replace-constant{new=77}")
    keys = {rc.source_key(s, "opencl", {}, rc.spec_passes(s)) for s in specs}
    assert len(keys) == 3 and keys - {p.name for p in cache.entries()} <= {keys_plain(spec)}
    rc.set_extra_passes("example-replace-constant{new=50}")  # process-wide first, then the launch's
    store41.launch(a, grid=1, block=64, device="opencl", passes="example-replace-constant{old=50 new=51}")
    assert (a == 51).all()
    store41.launch(a, grid=1, block=64, device="opencl", passes="")  # none: the process-wide ones only
    assert (a == 50).all()


def test_repeated_launches_with_passes_keep_them_on_the_fast_path():
    from sarek import Vector

    v = Vector(np.zeros(64, np.int32))
    for _ in range(3):  # the second and third: Kernel.launch's cached plan (resident vector, same values)
        store41.launch(v, grid=1, block=64, device="opencl", passes="example-replace-constant{new=77}")
        assert (v.to_numpy() == 77).all()
        store41.launch(v, grid=1, block=64, device="opencl")
        assert (v.to_numpy() == 41).all()
    assert {k[-1] for k in store41.__dict__["_fast"]} >= {None, "example-replace-constant{new=77}"}


@pytest.mark.parametrize("dev", ["vulkan", "vulkan-glsl"])
def test_the_vulkan_devices_run_extra_passes(dev: str):
    from sarek.runtime import compile as rc

    a = np.zeros(64, np.int32)
    store41.launch(a, grid=1, block=64, device=dev, passes="example-replace-constant{new=77}")
    assert (a == 77).all()
    store41.launch(a, grid=1, block=64, device=dev)
    assert (a == 41).all()
    rc.set_extra_passes("example-replace-constant{new=50}")  # process-wide: the same shader's pipeline is rebuilt
    store41.launch(a, grid=1, block=64, device=dev)
    assert (a == 50).all()


def keys_plain(spec: object) -> str:
    """The plain launch's source key (its program may be in memory from an earlier test: no entry then)."""
    from sarek.runtime import compile as rc

    return rc.source_key(spec, "opencl", {}, rc.spec_passes(spec))  # pyright: ignore[reportArgumentType]


def test_launch_passes_refused_where_they_cannot_run():
    from sarek import LaunchError

    a = np.zeros(64, np.int32)
    with pytest.raises(LaunchError, match=r"passes='nope': .*unknown pass 'nope'"):
        store41.launch(a, grid=1, block=64, device="opencl", passes="nope")
    with pytest.raises(LaunchError, match="interp does not run extra passes"):
        store41.launch(a, grid=1, block=64, device="interp", passes="example-replace-constant")
    with pytest.raises(LaunchError, match="not to a debug launch"):
        store41.launch(a, grid=1, block=64, device="opencl", passes="example-replace-constant", debug=True)
    with pytest.raises(LaunchError, match="passes= takes a pass list"):
        store41.launch(a, grid=1, block=64, device="opencl", passes=["example-replace-constant"])  # type: ignore[arg-type]
    assert not a.any()


def test_duplicate_plugin_names_never_break_the_driver():
    from sarek import plugins

    assert "example-replace-constant" in plugins.plugin_passes()
    assert "sarek-cse" not in plugins.plugin_passes()  # sarek's names are sarek's
    assert plugins.broken() == []
