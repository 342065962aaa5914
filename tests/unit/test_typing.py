"""The package is basedpyright strict clean (pyproject's [tool.pyright]); a missing checker fails the test."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_sarek_is_pyright_strict_clean():
    exe = shutil.which("basedpyright")
    assert exe is not None, "basedpyright is not installed (pip install -e '.[dev]')"
    r = subprocess.run([exe, "sarek"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "0 errors" in r.stdout, r.stdout[-6000:] + r.stderr[-2000:]
