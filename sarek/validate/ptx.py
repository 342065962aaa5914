"""`check(source)`: assemble PTX with `ptxas -arch=sm_90`; a missing ptxas or a failed assembly raises
`ValidationError` with the tool's output."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from sarek.validate import ValidationError

ARCH = "sm_90"


def ptxas_path() -> str:
    p = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
    if p is None:
        raise ValidationError("ptxas not found (needed to validate PTX): install the CUDA toolkit "
                              "(ptxas 13.0) or put ptxas on PATH")
    return p


def check(source: str, arch: str = ARCH) -> None:
    """Raise ValidationError unless `source` assembles for `arch`."""
    exe = ptxas_path()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernel.ptx")
        with open(src, "w") as f:
            f.write(source)
        r = subprocess.run([exe, f"-arch={arch}", src, "-o", os.path.join(d, "kernel.cubin")],
                           capture_output=True, text=True)
    if r.returncode != 0:
        numbered = "\n".join(f"{i + 1:4}: {l}" for i, l in enumerate(source.splitlines()))
        raise ValidationError(f"ptxas -arch={arch} failed (exit {r.returncode}):\n{r.stderr.strip()}\n"
                              f"--- source ---\n{numbered}")
