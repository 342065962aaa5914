"""`check(source)`: GLSL 450 compute through `glslangValidator -V --target-env vulkan1.1`, then `spirv-val`.

`compile_spirv(source)` returns the SPIR-V words (bytes) — the Vulkan device runs those through wgpu.
A missing tool raises `ValidationError` (tests then fail, they do not skip).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from sarek.validate import ValidationError
from sarek.validate import numbered as _numbered
from sarek.validate.spirv_modes import preserve_signed_zeros

TARGET_ENV = "vulkan1.1"


def _tool(name: str, pkg: str) -> str:
    p = shutil.which(name)
    if p is None:
        raise ValidationError(f"{name} not found (needed for GLSL): apt-get install -y {pkg}")
    return p


def compile_spirv(source: str, preserve: tuple[int, ...] = ()) -> bytes:
    """GLSL -> SPIR-V (glslangValidator), validated by spirv-val; raises ValidationError. `preserve`: the float
    widths whose signed zeros, infinities and NaNs the driver must keep (`spirv_modes.preserve_signed_zeros`)."""
    glslang = _tool("glslangValidator", "glslang-tools")
    spirv_val = _tool("spirv-val", "spirv-tools")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernel.comp")
        spv = os.path.join(d, "kernel.spv")
        with open(src, "w") as f:
            f.write(source)
        r = subprocess.run([glslang, "-V", "--target-env", TARGET_ENV, src, "-o", spv],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise ValidationError(f"glslangValidator -V --target-env {TARGET_ENV} failed (exit {r.returncode}):\n"
                                  f"{(r.stdout + r.stderr).strip()}\n--- source ---\n{_numbered(source)}")
        if preserve:
            with open(spv, "rb") as f:
                words = preserve_signed_zeros(f.read(), preserve)
            with open(spv, "wb") as f:
                f.write(words)
        r = subprocess.run([spirv_val, "--target-env", TARGET_ENV, spv], capture_output=True, text=True)
        if r.returncode != 0:
            raise ValidationError(f"spirv-val failed (exit {r.returncode}):\n{(r.stdout + r.stderr).strip()}\n"
                                  f"--- source ---\n{_numbered(source)}")
        with open(spv, "rb") as f:
            return f.read()


def check(source: str) -> None:
    """Raise ValidationError unless `source` compiles to valid Vulkan 1.1 SPIR-V."""
    compile_spirv(source)
