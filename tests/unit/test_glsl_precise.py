"""GLSL `precise` for the math library (issue 30): on GLSL sarek-expand-math marks the routines' error-free
steps `sarek.precise` instead of fencing them, the lowering declares those values `precise`, and glslang's
SPIR-V carries NoContraction on what computes them (the driver gets it as written: vulkan-glsl has no
translation layer). WGSL keeps the fences. A missing tool fails (never skips)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from xdsl.dialects.builtin import f32, f64  # noqa: E402

from sarek.mathlib.kernels import elementwise  # noqa: E402
from sarek.mathlib.ops import PRECISE  # noqa: E402
from sarek.targets import emit_source  # noqa: E402
from sarek.validate.glsl import compile_spirv  # noqa: E402


def _spirv_text(source: str) -> str:
    dis = shutil.which("spirv-dis")
    assert dis is not None, "spirv-dis not found (apt-get install -y spirv-tools)"
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "k.spv")
        with open(p, "wb") as f:
            f.write(compile_spirv(source))
        return subprocess.run([dis, "--raw-id", p], check=True, capture_output=True, text=True).stdout


def _decorated(spirv: str) -> tuple[set[str], dict[str, str]]:
    """(ids decorated NoContraction, id -> opcode of every float add/sub/mul)."""
    nc = set(re.findall(r"OpDecorate (%\d+) NoContraction", spirv))
    ops = dict(re.findall(r"(%\d+) = (OpF(?:Add|Sub|Mul)) ", spirv))
    return nc, ops


@pytest.mark.parametrize("name", ["pow", "sinh"])
def test_glsl_library_declares_precise(name: str):
    """The f64 routine's GLSL declares its exact steps `precise`; glslang decorates NoContraction on the float
    arithmetic computing those values (and on nothing else: some float arithmetic is left without it)."""
    src = emit_source(elementwise(name, f64), "glsl")
    assert "precise double " in src
    nc, ops = _decorated(_spirv_text(src))
    kinds = {ops[i] for i in nc if i in ops}
    assert kinds, "no float add/sub/mul decorated NoContraction"
    assert set(ops) - nc, "every float operation NoContraction: only the precise values' should be"


def test_precise_guard_marks_sums_and_fences_only_scalings():
    """At guard "precise" (GLSL) an error-free sum's steps are marked `sarek.precise` with no fence; a stepwise
    scaling is still fenced (`hold`): NoContraction does not stop NVIDIA's driver from folding (w * 0.5) * w into
    an overflow (sinh(710) and cosh(710) were inf on the H200 with `precise` alone)."""
    from sarek.dialect import sarek as sk
    from sarek.dialect.builder import BodyBuilder
    from sarek.mathlib.ops import F64 as FMT, Ops

    def fences(ops: list[Any]) -> bool:
        return any(isinstance(op, sk.IntrinsicOp) and op.callee.data == "grid_dim_x" for op in ops)

    for guard, fenced_sum in (("precise", False), ("fence", True)):
        m = elementwise("sqrt", f64)
        k = next(op for op in m.walk() if isinstance(op, sk.KernelOp))
        b = BodyBuilder(k.body.block)
        x = k.body.block.args[0]
        o = Ops(b, FMT, guard=guard)  # type: ignore[arg-type]
        before = len(list(k.walk()))
        total, _ = o.two_sum(x, b.const(1.0, f64))
        assert fences(list(k.walk())[before:]) == fenced_sum
        assert (PRECISE in total.owner.attributes) == (guard == "precise")  # type: ignore[union-attr]
        before = len(list(k.walk()))
        o.hold(o.settle(o.mul(x, 0.5)))
        assert fences(list(k.walk())[before:])


def test_wgsl_library_keeps_its_fences():
    """WGSL has no `precise`: its f32 erf fences its stepwise scaling (a bitcast xor of `sarek_nwg`, the
    number of workgroups shifted to a run-time 0)."""
    from sarek.passes.expand_math import ExpandMathPass
    from sarek.tools.ir import make_context

    m = elementwise("erf", f32)
    ExpandMathPass(target="wgsl").apply(make_context(), m)  # fp=exact: the f32 routine, not the fast one
    src = emit_source(m, "wgsl")
    assert "precise" not in src
    assert "sarek_nwg" in src and "^" in src


def test_precise_survives_the_pipeline_optimisations():
    """The shader pipeline's passes (cse, licm, canonicalize, unroll) keep the mark: as many `precise` locals
    in pow's GLSL as operations sarek-expand-math marked (CSE never merges a marked op with an unmarked one)."""
    from sarek.passes.expand_math import ExpandMathPass
    from sarek.tools.ir import make_context

    m = elementwise("pow", f64)
    ExpandMathPass(target="glsl").apply(make_context(), m)
    marked = sum(1 for o in m.walk() if PRECISE in o.attributes)
    src = emit_source(elementwise("pow", f64), "glsl")
    assert marked > 0 and src.count("precise double ") == marked


def _nvidia_glsl() -> str:
    import sarek.runtime as rt

    name = next((d.name for d in rt.devices() if d.name.startswith("vulkan-glsl") and "llvmpipe" not in repr(d).lower()),
                None)
    assert name is not None, "no hardware Vulkan GLSL device"
    return name


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["pow", "sinh", "cosh", "exp", "log", "erfc", "atan2", "fmod"])
def test_f64_glsl_on_nvidia_vulkan_matches_interp(name: str):
    """With `precise` reaching NVIDIA's driver (no naga), the GLSL expansion has the interpreter's bits there
    (its fma is fused, nothing is contracted or reassociated), specials included."""
    from tests.unit.test_expand_math import args_for, expanded, run_on, same_bits

    xs: list[np.ndarray[Any, Any]] = args_for(name, 2000)
    same_bits(run_on(expanded(name, f64, "glsl"), "interp", xs), run_on(elementwise(name, f64), _nvidia_glsl(), xs))
