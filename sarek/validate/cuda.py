"""`check(source)`: compile CUDA C with `nvcc -ptx -arch=sm_90`; `check_hip(source)` compiles HIP source the
same way over sarek's hip_runtime-over-CUDA shim (sarek/validate/shims/hip). A missing nvcc or a failed
compile raises `ValidationError` with the compiler's output."""

from __future__ import annotations

import os
import shutil as shutil  # tool_path looks the tool up through it (tests patch `shutil.which` here)

from sarek.validate import run_tool, tool_path

ARCH = "sm_90"
SHIMS = os.path.join(os.path.dirname(__file__), "shims")


def nvcc_path() -> str:
    return tool_path("nvcc", "/usr/local/cuda/bin/nvcc", "nvcc not found (needed to validate CUDA and HIP): install "
                     "the CUDA toolkit 13.0 (/usr/local/cuda) or put nvcc on PATH")


def _compile(source: str, what: str, extra: list[str], arch: str) -> str:
    exe = nvcc_path()
    return run_tool(source, "kernel.cu", lambda d, src: [exe, "-ptx", f"-arch={arch}", *extra, src, "-o",
                                                        os.path.join(d, "kernel.ptx")],
                    f"nvcc ({what}) -arch={arch} failed", "kernel.ptx")


def check(source: str, arch: str = ARCH) -> str:
    """Raise ValidationError unless the CUDA `source` compiles for `arch`; returns the PTX."""
    return _compile(source, "CUDA", [], arch)


def check_hip(source: str, arch: str = ARCH) -> str:
    """Raise ValidationError unless the HIP `source` compiles for `arch` over the shim headers."""
    return _compile(source, "HIP over the CUDA shim", ["-I", os.path.join(SHIMS, "hip"), "-I", SHIMS], arch)
