"""Shared by the GLSL/WGSL validation tests: every kernel of the IR corpus, emitted for a shader target."""

from __future__ import annotations

from pathlib import Path

from sarek.dialect.sarek import KernelOp
from sarek.tools.ir import parse_module

ROOT = Path(__file__).parents[2]
FILES = sorted([*(ROOT / "examples").glob("*.mlir"), *(ROOT / "tests/filecheck/targets/Inputs").glob("shader_*.mlir"),
                *(ROOT / "tests/unit/interp_kernels").glob("*.mlir")])

# kernels the glsl/wgsl capability table refuses, with a word the reason must contain
REFUSED: dict[tuple[str, str, str], str] = {
    ("wgsl", "shader_f64.mlir", "norm_f64"): "64",
    ("wgsl", "shader_misc_i64.mlir", "misc"): "64",
}


def cases() -> list[tuple[Path, str]]:
    out: list[tuple[Path, str]] = []
    for f in FILES:
        try:
            m = parse_module(f.read_text(), str(f))
        except Exception:
            continue
        out += [(f, op.sym_name.data) for op in m.ops if isinstance(op, KernelOp)]
    return out


def emit(path: Path, kernel: str, target: str) -> str:
    from sarek.targets import emit_source

    m = parse_module(path.read_text(), str(path))
    return emit_source(m, target, kernel=kernel)
