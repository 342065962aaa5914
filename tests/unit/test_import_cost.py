"""`import sarek` imports only what declaring kernels needs: not ml_dtypes (a second of CPU; bf16's host dtype is
resolved at first use), not dask (sarek.dask imports it), not the target lowerings (loaded by name when a
target is used), and neither numpy nor xDSL's IR: decorating kernels, helpers, records and variants defers the
front end (and its dialects) to the first compile or launch."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HEAVY = ("ml_dtypes", "dask", "sarek.lowering.cfamily", "sarek.lowering.ptx", "sarek.lowering.shader",
         "sarek.targets.cfamily", "sarek.targets.ptx", "pyopencl", "wgpu")


def _loaded(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `code` (from a file: kernels need source)."""
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "prog.py"
        f.write_text(f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))\n")
        p = subprocess.run([sys.executable, str(f)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return set(p.stdout.split())


def test_import_sarek_leaves_heavy_modules_alone():
    loaded = _loaded("import sarek")
    assert "sarek.frontend.api" in loaded
    assert not [m for m in HEAVY if m in loaded]


#: the IR and compiler layers; of xDSL only `xdsl.utils.exceptions` (SarekError's base class) may be loaded
IR = ("xdsl.ir", "xdsl.irdl", "xdsl.dialects", "xdsl.parser", "xdsl.printer", "xdsl.context", "sarek.dialect",
      "sarek.frontend.lower", "sarek.passes", "sarek.lowering", "sarek.targets", "sarek.registry", "sarek.runtime")

DECLARE = """import sarek
from sarek import Array, Vec, f32, i32, kernel, device, record, variant
import sarek.math as sm
from sarek.gpu import global_thread_id

@record
class P:
    x: f32
    y: f32

@variant
class S:
    A: f32
    B: ()

@device
def twice(a: f32) -> f32:
    return sm.sqrt(a) * 2.0

@kernel
def k(x: Vec[P], y: Array[f32, 2], n: i32):
    i = global_thread_id
    if i < n:
        y[i, 0] = twice(x[i].x)

assert sarek.f32x4.fields == ["x", "y", "z", "w"] and k.name == "k"
"""


def test_import_and_declarations_load_no_ir_and_no_numpy():
    loaded = _loaded(DECLARE)
    assert "sarek.frontend.api" in loaded and "sarek.vectors" in loaded
    assert sorted(m for m in loaded if m.startswith(IR) or m == "numpy") == []
    assert sorted(m for m in loaded if m.startswith("xdsl.")) == ["xdsl.utils", "xdsl.utils.exceptions"]


def test_the_first_compile_loads_the_front_end():
    loaded = _loaded(DECLARE + "assert 'y[' in k.source('cuda')\nassert sm.sqrt(4.0) == 2.0")
    assert {"sarek.frontend.lower", "sarek.dialect", "xdsl.ir", "numpy"} <= loaded


def test_bf16_dtype_resolves_on_first_use():
    loaded = _loaded("import sarek\nfrom sarek.types import BF16_DTYPE, bf16\nassert bf16.np_dtype == BF16_DTYPE")
    assert "ml_dtypes" in loaded


def test_launch_time_helpers_load_no_ir():
    """What a warm CUDA/PTX launch reads besides the stored artifact (the dynamic shared-memory marker) loads no
    IR: on the H200 the plan's marker read imported xDSL and the dialect (~500 ms of a 20 ms warm launch)."""
    loaded = _loaded("from sarek.analysis.shared_window import marked_bytes\n"
                     "assert marked_bytes('// sarek-dynamic-shared k: 65536 bytes', 'k') == 65536")
    assert sorted(m for m in loaded if m.startswith(IR[:6])) == []
