"""`import sarek` imports only what the front end needs: not ml_dtypes (a second of CPU; bf16's host dtype is
resolved at first use), not dask (sarek.dask imports it), not the target lowerings (loaded by name when a
target is used)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("ml_dtypes", "dask", "sarek.lowering.cfamily", "sarek.lowering.ptx", "sarek.lowering.shader",
         "sarek.targets.cfamily", "sarek.targets.ptx", "pyopencl", "wgpu")


def _loaded(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_import_sarek_leaves_heavy_modules_alone():
    loaded = _loaded("import sarek")
    assert "sarek.frontend.api" in loaded
    assert not [m for m in HEAVY if m in loaded]


def test_bf16_dtype_resolves_on_first_use():
    loaded = _loaded("import sarek\nfrom sarek.types import BF16_DTYPE, bf16\nassert bf16.np_dtype == BF16_DTYPE")
    assert "ml_dtypes" in loaded
