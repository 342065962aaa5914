"""Warm starts (sarek.runtime.warm): a kernel's record is found before the front end, keyed by its Python source
closure; every input that changes the compile misses, a damaged record falls back, an unfingerprintable
closure takes the ordinary path, and a fresh process launches a recorded kernel without the front end."""

from __future__ import annotations

import importlib.util
import json
import linecache
import marshal
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sarek.frontend.api as api
import sarek.frontend.lower as lower
from sarek.frontend.lower import FunctionLowerer
from sarek.runtime import cache, warm

ROOT = Path(__file__).resolve().parents[2]

BASE = """
import numpy as np
import sarek
from sarek import Vec, f32, f64, i32
from sarek.gpu import global_thread_id

SCALE = 2.0
TABLE = np.arange(4, dtype=np.float32)
T = sarek.TypeVar("T", f32, f64)


@sarek.record
class Pair:
    a: f32
    b: f32


@sarek.device
def twice(x: f32) -> f32:
    return x * SCALE


@sarek.kernel
def saxpy(a: f32, x: Vec[f32], y: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * twice(x[i]) + y[i]


@sarek.kernel
def pairs(p: Vec[Pair], out: Vec[f32]):
    i = global_thread_id
    out[i] = p[i].a + p[i].b


@sarek.kernel
def uses_table(x: Vec[f32]):
    x[global_thread_id] = TABLE[1]


@sarek.kernel
def generic(x: Vec[T]):
    i = global_thread_id
    x[i] = x[i] + x[i]
"""


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from sarek.runtime import compile as rc

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SAREK_CACHE", raising=False)
    monkeypatch.delenv("SAREK_PASSES", raising=False)
    monkeypatch.delenv("SAREK_DEBUG", raising=False)
    rc._EXTRA.clear()  # pyright: ignore[reportPrivateUsage]
    yield tmp_path / "cache"
    rc._EXTRA.clear()  # pyright: ignore[reportPrivateUsage]


@pytest.fixture
def lowered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The functions the front end reads from now on (each FunctionLowerer made where the kernel objects make
    them), and `lower:<name>` for each body lowered."""
    seen: list[str] = []

    class Counting(FunctionLowerer):
        def __init__(self, fn: Any, *a: Any, **kw: Any) -> None:
            seen.append(fn.__name__)
            super().__init__(fn, *a, **kw)

        def lower(self) -> Any:
            seen.append(f"lower:{self.fn.__name__}")
            return super().lower()

    monkeypatch.setattr(lower, "FunctionLowerer", Counting)  # (sarek.frontend.api imports it at each use)
    return seen


_N = [0]


def load(tmp_path: Path, text: str = BASE) -> Any:
    """The kernel file `text` imported as a new module object (what a fresh process sees: nothing in memory),
    always from the same path, so a record is found again exactly when the text is the same."""
    f = tmp_path / "kernels.py"
    f.write_text(textwrap.dedent(text))
    linecache.checkcache(str(f))
    _N[0] += 1
    spec = importlib.util.spec_from_file_location(f"warm_kernels_{_N[0]}", f)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def warm_hit(k: Any) -> bool:
    """Whether k's launch spec came from its record (a WarmSpec), after recording it when it was missing."""
    return isinstance(warm.launch_spec(k), warm.WarmSpec)


def test_second_load_hits_without_the_front_end(tmp_path: Path, lowered: list[str]):
    m = load(tmp_path)
    assert not warm_hit(m.saxpy) and "saxpy" in lowered and "twice" in lowered
    cold = warm.launch_spec(m.saxpy)
    lowered.clear()
    m2 = load(tmp_path)
    spec = warm.launch_spec(m2.saxpy)
    assert isinstance(spec, warm.WarmSpec) and lowered == []
    assert spec.ir_hash == cold.ir_hash and spec.guards == cold.guards
    assert [(p.name, p.kind, p.dtype, p.written, p.rank) for p in spec.params] == \
        [(p.name, p.kind, p.dtype, p.written, p.rank) for p in cold.params]
    assert [p.type for p in spec.params] == [p.type for p in cold.params]  # vectors: parsed from the record
    import dataclasses

    from sarek.runtime.specs import KernelSpec, Param

    for f in dataclasses.fields(KernelSpec):  # a field added to the spec must be carried by the record too
        assert getattr(spec, f.name) is not None or getattr(cold, f.name) is None, f.name
    for f in dataclasses.fields(Param):
        assert [getattr(p, f.name) for p in spec.params] == [getattr(p, f.name) for p in cold.params], f.name
    x, y = np.ones(8, np.float32), np.ones(8, np.float32)
    m2.saxpy.launch(np.float32(3), x, y, 8, threads=8, device="interp")
    assert (y == 7).all() and lowered == []
    assert m2.saxpy.module is not None and lowered == []  # Kernel.module: parsed from the record too


@pytest.mark.parametrize("edit", [
    ("return x * SCALE", "return x * SCALE + 1.0"),  # a helper's body
    ("SCALE = 2.0", "SCALE = 3.0"),  # a module constant the helper reads
    ("    b: f32\n", "    b: f32\n    c: f32\n"),  # a record the kernel's file declares (the file changed)
])
def test_an_edited_input_misses(tmp_path: Path, lowered: list[str], edit: tuple[str, str]):
    m = load(tmp_path)
    warm_hit(m.saxpy)
    assert BASE.count(edit[0]) == 1
    m2 = load(tmp_path, BASE.replace(*edit))
    lowered.clear()
    assert not warm_hit(m2.saxpy) and "saxpy" in lowered
    assert warm_hit(load(tmp_path, BASE.replace(*edit)).saxpy)


def test_numpy_arrays_are_keyed_by_content(tmp_path: Path):
    m = load(tmp_path)
    m2 = load(tmp_path)
    assert warm.record_key(m.uses_table) == warm.record_key(m2.uses_table) is not None
    m2.TABLE[1] = 7  # the same file, another value: another key
    m2.uses_table.__dict__.pop("_warm_closure")
    m2.uses_table.__dict__.pop("_warm_key")
    assert warm.record_key(m2.uses_table) != warm.record_key(m.uses_table)


def test_helper_and_record_in_another_file_are_keyed(tmp_path: Path, lowered: list[str]):
    lib = tmp_path / "warm_lib.py"
    lib_text = ("import sarek\nfrom sarek import f32\n\n@sarek.record\nclass R:\n    a: f32\n\n"
                "@sarek.device\ndef inc(x: f32) -> f32:\n    return x + 1.0\n")
    kern = ("import sarek\nfrom sarek import Vec, f32\nfrom sarek.gpu import global_thread_id\n"
            "from warm_lib import R, inc\n\n@sarek.kernel\ndef k(r: Vec[R], o: Vec[f32]):\n"
            "    o[global_thread_id] = inc(r[global_thread_id].a)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        for lib_now, hit in ((lib_text, False), (lib_text, True),
                             (lib_text.replace("x + 1.0", "x + 2.0"), False),
                             (lib_text.replace("    a: f32\n", "    a: f32\n    b: f32\n"), False)):
            lib.write_text(lib_now)
            linecache.checkcache(str(lib))
            sys.modules.pop("warm_lib", None)
            assert warm_hit(load(tmp_path, kern).k) == hit, lib_now
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("warm_lib", None)


def test_type_arguments_are_keyed(tmp_path: Path, lowered: list[str]):
    m = load(tmp_path)
    assert not warm_hit(m.generic[m.f32])
    assert not warm_hit(m.generic[m.f64])  # another binding: another record
    m2 = load(tmp_path)
    lowered.clear()
    # k[T] reads the annotations (the type variables), never lowers the body
    assert warm_hit(m2.generic[m2.f32]) and warm_hit(m2.generic[m2.f64])
    x = np.arange(4, dtype=np.float64)
    m2.generic.launch(x, grid=1, block=4, device="interp")  # the instance from the dtype; its record
    assert (x == 2 * np.arange(4)).all() and not [n for n in lowered if n.startswith("lower:")], lowered


def test_records_round_trip_their_dtype(tmp_path: Path):
    m = load(tmp_path)
    cold = warm.launch_spec(m.pairs)
    spec = warm.launch_spec(load(tmp_path).pairs)
    assert isinstance(spec, warm.WarmSpec) and spec.params[0].dtype == cold.params[0].dtype
    p = np.zeros(4, m.Pair.dtype)
    p["a"], p["b"] = 1, 2
    out = np.zeros(4, np.float32)
    load(tmp_path).pairs.launch(p, out, grid=1, block=4, device="interp")
    assert (out == 3).all()


def test_extra_passes_and_declared_block_are_keyed(tmp_path: Path):
    from sarek.runtime import compile as rc

    warm_hit(load(tmp_path).saxpy)
    rc.set_extra_passes("sarek-cse")
    try:
        assert not warm_hit(load(tmp_path).saxpy)
        assert warm_hit(load(tmp_path).saxpy)
    finally:
        rc.set_extra_passes("")
    assert warm_hit(load(tmp_path).saxpy)
    assert not warm_hit(load(tmp_path, BASE.replace("@sarek.kernel\ndef saxpy", "@sarek.kernel(block=64)\ndef saxpy")).saxpy)


def test_damaged_records_fall_back(tmp_path: Path, fresh_cache: Path, lowered: list[str]):
    warm_hit(load(tmp_path).saxpy)
    files = list((fresh_cache / "warm").rglob("*"))
    records = [f for f in files if f.is_file()]
    assert len(records) == 1
    data = bytearray(records[0].read_bytes())
    data[-5] ^= 0xFF  # a flipped byte: the checksum fails
    records[0].write_bytes(bytes(data))
    lowered.clear()
    m = load(tmp_path)
    assert not warm_hit(m.saxpy) and "saxpy" in lowered
    key = warm.record_key(m.saxpy)
    assert key is not None
    fmt = warm._FORMAT  # pyright: ignore[reportPrivateUsage]
    cache.put("warm", key, marshal.dumps({"format": fmt, "ir": "not IR"}))  # whole but wrong
    m2 = load(tmp_path)
    assert m2.saxpy.module is not None  # parse failure: the front end builds it
    assert not warm_hit(m2.saxpy)
    x, y = np.ones(8, np.float32), np.ones(8, np.float32)
    m2.saxpy.launch(np.float32(3), x, y, 8, threads=8, device="interp")
    assert (y == 7).all()


def test_unfingerprintable_closures_take_the_ordinary_path(tmp_path: Path):
    (tmp_path / "warm_consts.py").write_text("N = 3\n")
    text = BASE + textwrap.dedent("""
        import warm_consts

        class Opaque:
            pass

        THING = Opaque()

        @sarek.kernel
        def uses_module(x: Vec[f32]):
            x[global_thread_id] = x[global_thread_id] * warm_consts.N

        @sarek.kernel
        def uses_object(x: Vec[f32]):
            if THING is None:
                x[global_thread_id] = 0.0
    """)
    sys.path.insert(0, str(tmp_path))
    try:
        m = load(tmp_path, text)
        assert warm.record_key(m.uses_module) is None and warm.launch_spec(m.uses_module) is None
        assert warm.record_key(m.uses_object) is None
        x = np.ones(4, np.float32)
        m.uses_module.launch(x, grid=1, block=4, device="interp")
        assert (x == 3).all()
        assert warm.record_key(m.saxpy) is not None
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("warm_consts", None)


def test_source_given_is_not_recorded(tmp_path: Path):
    m = load(tmp_path)
    assert warm.record_key(m.saxpy) is not None
    k = api.kernel(m.saxpy, source=textwrap.dedent(BASE[BASE.index("def saxpy"):BASE.index("@sarek.kernel\ndef pairs")]))
    assert k is m.saxpy and warm.record_key(k) is None


#: what a warm launch on a compiled-code device does not import: xDSL's IR (only xdsl.utils.exceptions, the base
#: class of SarekError, is loaded), the dialects, the front end's lowering, the passes, lowerings and targets
IR = ("xdsl.ir", "xdsl.irdl", "xdsl.dialects", "xdsl.parser", "xdsl.printer", "sarek.dialect", "sarek.frontend.lower",
      "sarek.passes", "sarek.lowering", "sarek.targets")

#: what a warm launch does not import either (it reads no JSON, keys no source= text, and a cuda or ptx launch
#: needs no OpenCL module): each cost a fresh process's first launch its import
WARM_SKIPS = ("json", "sarek.frontend.source", "sarek.runtime.opencl")

FRESH = """
import sys
import numpy as np
import kernels
out, ir, new = {}, {}, {}
for dev in sys.argv[1:]:
    x, y = np.ones(8, np.float32), np.ones(8, np.float32)
    before = set(sys.modules)
    kernels.saxpy.launch(np.float32(3), x, y, 8, threads=8, device=dev)
    new[dev] = sorted(set(sys.modules) - before)
    out[dev] = y.tolist()
    ir[dev] = sorted(m for m in sys.modules if m.startswith(IR))
import json
print(json.dumps({"lowered": "sarek.frontend.lower" in sys.modules, "y": out, "ir": ir, "new": new,
                  "debug": "sarek.runtime.debug" in sys.modules}))
""".replace("startswith(IR)", f"startswith({IR!r})")


@pytest.mark.parametrize("devs", [["opencl", "vulkan-glsl", "interp"],
                                  pytest.param(["cuda", "ptx", "vulkan-glsl"], marks=pytest.mark.gpu, id="h200")])
def test_a_fresh_process_launches_without_the_front_end(tmp_path: Path, fresh_cache: Path, devs: list[str]):
    (tmp_path / "kernels.py").write_text(textwrap.dedent(BASE))
    # the caller's PYTHONPATH stays after ours (on the H200, xDSL and the wheels come from it)
    path = [str(ROOT), str(tmp_path), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "SAREK_CACHE_DIR": str(fresh_cache)}

    def run() -> dict[str, Any]:
        p = subprocess.run([sys.executable, "-c", FRESH, *devs], env=env, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout.strip().splitlines()[-1])

    cold = run()
    assert cold["lowered"] and cold["ir"][devs[0]]
    hot = run()
    assert not hot["lowered"] and not hot["debug"], hot
    assert hot["y"] == cold["y"] == {d: [7.0] * 8 for d in devs}
    # the compiled-code devices (launched first) load the stored artifact: no IR, no compiler (the interpreter,
    # launched last, parses the recorded IR); vulkan-glsl (lavapipe here) loads its SPIR-V and pipeline cache
    compiled = ("opencl", "cuda", "ptx", "vulkan-glsl")
    assert {d: hot["ir"][d] for d in devs if d in compiled} == {d: [] for d in devs if d in compiled}, hot["ir"]
    skips = [m for m in WARM_SKIPS if m != f"sarek.runtime.{devs[0]}"]
    assert [m for m in hot["new"][devs[0]] if m in skips] == [], hot["new"]
