"""`check(source)`: compile CUDA C with `nvcc -ptx -arch=sm_90`; `check_hip(source)` compiles HIP source the
same way over sarek's hip_runtime-over-CUDA shim (sarek/validate/shims/hip). A missing nvcc or a failed
compile raises `ValidationError` with the compiler's output."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from sarek.validate import ValidationError

ARCH = "sm_90"
SHIMS = os.path.join(os.path.dirname(__file__), "shims")


def nvcc_path() -> str:
    p = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if p is None:
        raise ValidationError("nvcc not found (needed to validate CUDA and HIP): install the CUDA toolkit 13.0 "
                              "(/usr/local/cuda) or put nvcc on PATH")
    return p


def numbered(source: str) -> str:
    return "\n".join(f"{i + 1:4}: {line}" for i, line in enumerate(source.splitlines()))


def _compile(source: str, what: str, extra: list[str], arch: str) -> str:
    exe = nvcc_path()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernel.cu")
        with open(src, "w") as f:
            f.write(source)
        out = os.path.join(d, "kernel.ptx")
        r = subprocess.run([exe, "-ptx", f"-arch={arch}", *extra, src, "-o", out], capture_output=True, text=True)
        if r.returncode != 0:
            raise ValidationError(f"nvcc ({what}) -arch={arch} failed (exit {r.returncode}):\n"
                                  f"{(r.stderr + r.stdout).strip()}\n--- source ---\n{numbered(source)}")
        with open(out) as f:
            return f.read()


def check(source: str, arch: str = ARCH) -> str:
    """Raise ValidationError unless the CUDA `source` compiles for `arch`; returns the PTX."""
    return _compile(source, "CUDA", [], arch)


def check_hip(source: str, arch: str = ARCH) -> str:
    """Raise ValidationError unless the HIP `source` compiles for `arch` over the shim headers."""
    return _compile(source, "HIP over the CUDA shim", ["-I", os.path.join(SHIMS, "hip"), "-I", SHIMS], arch)
