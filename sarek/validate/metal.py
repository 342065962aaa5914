"""`check(source)`: Metal source checked by `clang++ -x c++ -std=c++17 -fsyntax-only` over sarek's
metal_stdlib and metal_simdgroup_matrix shims (sarek/validate/shims/metal) after a pre-pass that checks every `[[...]]` attribute name
against MSL's list and blanks it. A missing clang++ or a rejected source raises `ValidationError`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

from sarek.validate import ValidationError
from sarek.validate import numbered

SHIM = os.path.join(os.path.dirname(__file__), "shims", "metal")

# MSL attribute names (function, argument and struct-member attributes of the Metal Shading Language spec)
MSL_ATTRIBUTES = {
    "buffer", "texture", "sampler", "threadgroup", "stage_in", "color", "position", "vertex_id", "instance_id",
    "thread_position_in_grid", "thread_position_in_threadgroup", "threadgroup_position_in_grid",
    "threads_per_threadgroup", "threadgroups_per_grid", "threads_per_grid", "thread_index_in_threadgroup",
    "thread_index_in_simdgroup", "threads_per_simdgroup", "simdgroup_index_in_threadgroup",
    "simdgroups_per_threadgroup", "thread_index_in_quadgroup", "quadgroup_index_in_threadgroup",
    "quadgroups_per_threadgroup", "dispatch_threads_per_threadgroup", "grid_origin", "grid_size",
    "max_total_threads_per_threadgroup", "kernel", "visible", "function_constant", "id", "user",
}
_ATTR = re.compile(r"\[\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\([^\]]*\))?\s*\]\]")


def prepass(source: str) -> str:
    """Check the attribute names, then blank each `[[...]]` (same length, so columns stay)."""
    def blank(m: re.Match[str]) -> str:
        line = source.count("\n", 0, m.start()) + 1
        if m.group(1) not in MSL_ATTRIBUTES:
            raise ValidationError(f"metal: line {line}: [[{m.group(1)}]] is not an MSL attribute\n"
                                  f"--- source ---\n{numbered(source)}")
        if m.group(1) == "buffer" and m.group(2) and not 0 <= int(m.group(2).strip("() ") or -1) <= 30:
            # the buffer argument table of a Metal function has 31 entries
            raise ValidationError(f"metal: line {line}: [[buffer{m.group(2)}]] is outside the argument table "
                                  f"(indices 0 to 30)\n--- source ---\n{numbered(source)}")
        return " " * len(m.group(0))

    return _ATTR.sub(blank, source)


def clang_path() -> str:
    p = shutil.which("clang++")
    if p is None:
        raise ValidationError("clang++ not found (needed to check Metal source): apt-get install clang")
    return p


def check(source: str, msl: int = 310) -> None:
    """Raise ValidationError unless `source` passes the attribute pre-pass and the clang syntax check, with
    `__METAL_VERSION__` = `msl` (310: MSL 3.1, which has bfloat matrices)."""
    exe = clang_path()
    text = prepass(source)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernel.metal.cpp")
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([exe, "-x", "c++", "-std=c++17", "-fsyntax-only", "-Wno-c99-designator",
                            "-Wno-c99-extensions", f"-D__METAL_VERSION__={msl}", "-I", SHIM, src], capture_output=True, text=True)
    if r.returncode != 0:
        raise ValidationError(f"clang++ (Metal over the shim) failed (exit {r.returncode}):\n"
                              f"{(r.stderr + r.stdout).strip()}\n--- source ---\n{numbered(source)}")
