"""`check(source)`: assemble PTX with `ptxas -arch=sm_90`; a missing ptxas or a failed assembly raises
`ValidationError` with the tool's output."""

from __future__ import annotations

import os
import shutil as shutil  # tool_path looks the tool up through it (tests patch `shutil.which` here)

from sarek.validate import run_tool, tool_path

ARCH = "sm_90"


def ptxas_path() -> str:
    return tool_path("ptxas", "/usr/local/cuda/bin/ptxas", "ptxas not found (needed to validate PTX): install the "
                     "CUDA toolkit (ptxas 13.0) or put ptxas on PATH")


def check(source: str, arch: str = ARCH) -> None:
    """Raise ValidationError unless `source` assembles for `arch`."""
    exe = ptxas_path()
    run_tool(source, "kernel.ptx", lambda d, src: [exe, f"-arch={arch}", src, "-o", os.path.join(d, "kernel.cubin")],
             f"ptxas -arch={arch} failed")
