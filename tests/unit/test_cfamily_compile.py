"""Every C-family output compiles with the real tools: CUDA with nvcc -arch=sm_90, HIP with ROCm's hipcc for
gfx90a (wave64) and gfx1030 (wave32), OpenCL C on pocl, Metal with clang++ over our metal_stdlib shim. A missing tool fails."""

from pathlib import Path

import pytest

from sarek.diagnostics import SarekError
from sarek.targets import emit_source
from sarek.tools.ir import parse_module
from sarek.validate import cuda, hip, metal, opencl

ROOT = Path(__file__).parents[2]
INPUTS = ROOT / "tests" / "filecheck" / "targets" / "Inputs"
KERNELS = {
    "vector_add": ROOT / "examples" / "vector_add.mlir",
    "saxpy": INPUTS / "saxpy.mlir",
    "record": ROOT / "examples" / "record.mlir",
    "variant_match": ROOT / "examples" / "variant_match.mlir",
    "variant_tags": INPUTS / "variant_tags.mlir",
    "helpers_chain": INPUTS / "helpers_chain.mlir",
    "reduce": ROOT / "examples" / "reduce.mlir",
    "histogram": INPUTS / "histogram.mlir",
    "matmul_tiled": INPUTS / "matmul_tiled.mlir",
    "while_mutables": INPUTS / "while_mutables.mlir",
    "f64_math": INPUTS / "f64_math.mlir",
    "f16_storage": INPUTS / "f16_storage.mlir",
    "warp_reduce": INPUTS / "warp_reduce.mlir",
    "misc": INPUTS / "cf_misc.mlir",
    "math": INPUTS / "cf_math.mlir",
    "types": INPUTS / "cf_types.mlir",
    "shuffles": ROOT / "tests" / "unit" / "interp_kernels" / "warp.mlir",
}
CHECKS = {"cuda": cuda.check, "hip": hip.check, "opencl": opencl.check, "metal": metal.check}
# (kernel, target) -> the refusal it must give instead of source
REFUSED = {
    ("f64_math", "metal"): "Metal: float64 not yet supported",
}


def source(kernel: str, target: str) -> str:
    path = KERNELS[kernel]
    return emit_source(parse_module(path.read_text(), str(path)), target)


@pytest.mark.parametrize("target", list(CHECKS))
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_compiles(kernel: str, target: str):
    if (kernel, target) in REFUSED:
        with pytest.raises(SarekError, match=REFUSED[(kernel, target)]):
            source(kernel, target)
        return
    CHECKS[target](source(kernel, target))


def test_missing_tool_fails(monkeypatch: pytest.MonkeyPatch):
    from sarek.validate import ValidationError

    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(cuda.os.path, "exists", lambda p: False)
    with pytest.raises(ValidationError, match="nvcc not found"):
        cuda.check("extern \"C\" __global__ void k() {}")
    with pytest.raises(ValidationError, match="clang"):
        metal.check("kernel void k() {}")


def test_metal_prepass_rejects_unknown_attribute():
    from sarek.validate import ValidationError

    with pytest.raises(ValidationError, match=r"\[\[thread_lane\]\] is not an MSL attribute"):
        metal.check("kernel void k(uint x [[thread_lane]]) {}")


def test_wrong_source_is_rejected():
    from sarek.validate import ValidationError

    for check in CHECKS.values():
        with pytest.raises(ValidationError):
            check("this is not a kernel")
