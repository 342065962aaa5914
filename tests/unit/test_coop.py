"""Cooperative matrices from Python (sarek.coop): front-end errors at the user's line, the semantics both
executors share (sarek.interp.coopmat), the warp-block launch rule, and the CUDA wmma source through NVRTC."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import sarek
from sarek import Array, Vec, bf16, coop, f16, f32, i32, kernel, u8
from sarek.gpu import barrier, shared, thread_idx_x, warp_id
from sarek.interp import coopmat as CM

EXECUTORS = ("interp", "interp-ref")


def _error(k) -> str:
    with pytest.raises(sarek.CompileError) as e:
        k.ir()
    return str(e.value)


# ------------------------------------------------------------------------------------------------ front end


def test_wrong_use_is_located():
    @kernel
    def k(C: Vec[f32]):
        a = coop.fragment("x", f16, 16, 16)

    m = _error(k)
    assert "test_coop.py:" in m and 'the use of a fragment is "a", "b" or "acc", got \'x\'' in m


def test_element_type_of_a_use():
    @kernel
    def k(C: Vec[f32]):
        a = coop.fragment("a", f32, 16, 16)

    assert "an 'a' fragment holds f16, bf16, u8, i8, not f32" in _error(k)


def test_shapes_that_do_not_compose():
    @kernel
    def k(C: Vec[f32]):
        a = coop.fragment("a", f16, 16, 16)
        b = coop.fragment("b", f16, 8, 16)
        c = coop.fragment("acc", f32, 16, 16)
        coop.fill(a, 0.0)
        coop.fill(b, 0.0)
        coop.fill(c, 0.0)
        coop.mma(c, a, b, c)

    m = _error(k)
    assert "fragment shapes do not compose: a 16x16, b 8x16, c 16x16, d 16x16" in m
    assert "coop.mma(c, a, b, c)" in m


def test_buffer_of_another_element_type():
    @kernel
    def k(A: Vec[f32]):
        a = coop.fragment("a", f16, 16, 16)
        coop.load(a, A, 0, 16)

    assert "type mismatch: fragment 'a' holds f16, the buffer f32" in _error(k)


def test_read_before_written():
    @kernel
    def k(C: Vec[f32]):
        c = coop.fragment("acc", f32, 16, 16)
        coop.store(c, C, 0, 16)

    assert "fragment 'c' is read before anything wrote it" in _error(k)


def test_wrong_use_in_mma_and_accumulator_type():
    @kernel
    def k(C: Vec[f32]):
        a = coop.fragment("a", f16, 16, 16)
        c = coop.fragment("acc", f32, 16, 16)
        coop.fill(a, 0.0)
        coop.fill(c, 0.0)
        coop.mma(c, a, a, c)

    assert "fragment 'a' is an 'a' fragment; coop.mma(d, a, b, c) takes an 'b' fragment here" in _error(k)

    @kernel
    def k2(C: Vec[f32]):
        a = coop.fragment("a", u8, 16, 32)
        b = coop.fragment("b", u8, 32, 16)
        c = coop.fragment("acc", f32, 16, 16)
        coop.fill(a, 0)
        coop.fill(b, 0)
        coop.fill(c, 0.0)
        coop.mma(c, a, b, c)

    assert "u8 inputs accumulate in i32, not f32" in _error(k2)


def test_fragment_is_not_a_value_and_only_accumulators_store():
    @kernel
    def k(C: Vec[f32]):
        c = coop.fragment("acc", f32, 16, 16)
        x = c + 1

    assert "'c' is a cooperative-matrix fragment, not a value" in _error(k)

    @kernel
    def k2(A: Vec[f16]):
        a = coop.fragment("a", f16, 16, 16)
        coop.fill(a, 0.0)
        coop.store(a, A, 0, 16)

    assert "only an accumulator fragment can be stored; 'a' is an 'a' fragment" in _error(k2)


def test_thread_divergent_argument_and_control():
    @kernel
    def k(C: Vec[f32]):
        c = coop.fragment("acc", f32, 16, 16)
        coop.fill(c, 0.0)
        coop.store(c, C, thread_idx_x * 16, 16)

    m = _error(k)
    assert "coop.store() with a thread-divergent argument" in m and "thread_idx_x" in m

    @kernel
    def k2(C: Vec[f32]):
        c = coop.fragment("acc", f32, 16, 16)
        if thread_idx_x < 16:
            coop.fill(c, 0.0)

    assert "coop.fill() under thread-divergent control flow" in _error(k2)


# ------------------------------------------------------------------------------------------------ semantics


def test_f32_accumulation_is_exact_products_in_k_order():
    a = np.array([[1.0, 2.0**-24, -1.0]], np.float32)   # 1 x 3
    b = np.ones((3, 1), np.float32)
    # in k order: (0 + 1) + 2^-24 rounds back to 1 (ties to even), then - 1 gives 0; a tree sum might give 2^-24
    assert CM.mma(a, b, np.zeros((1, 1), np.float32), "f32")[0, 0] == 0.0
    # an f16 accumulator rounds once, at the end
    assert CM.mma(np.array([[1.0, 2.0**-12]], np.float32), np.ones((2, 1), np.float32),
                  np.zeros((1, 1), np.float32), "f16")[0, 0] == np.float32(np.float16(1.0 + 2.0**-12))


def test_8bit_products_wrap_in_i32():
    a = np.full((1, 2), 255, np.int64)
    c = np.array([[2**31 - 1]], np.int64)
    assert CM.mma(a, a.T, c, "i32")[0, 0] == (2**31 - 1 + 2 * 255 * 255) - 2**32


def _with_both(k, args, **launch):
    outs = []
    for dev in EXECUTORS:
        xs = [x.copy() for x in args]
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the fast executor runs coop ops itself: no fallback warning
            k.launch(*xs, device=dev, **launch)
        outs.append(xs)
    return outs


def test_warps_own_their_fragments_on_both_executors():
    @kernel
    def k(A: Array[f16, 2], B: Array[f16, 2], C: Array[f32, 2]):
        a = coop.fragment("a", f16, 16, 16)
        b = coop.fragment("b", f16, 16, 16)
        c = coop.fragment("acc", f32, 16, 16)
        i0 = warp_id * 16
        coop.fill(c, 0.5)
        coop.load(a, A, i0, 0)
        coop.load(b, B, 0, 0, col_major=True)
        coop.mma(c, a, b, c)
        coop.store(c, C, i0, 0)

    rng = np.random.default_rng(3)
    A = rng.standard_normal((64, 16)).astype(np.float16)
    BT = rng.standard_normal((16, 16)).astype(np.float16)
    want = A.astype(np.float64) @ BT.T.astype(np.float64) + 0.5
    for _, _, C in _with_both(k, [A, BT, np.zeros((64, 16), np.float32)], grid=1, block=128):
        assert np.abs(C - want).max() < 1e-4


def test_fragment_read_before_written_at_run_time():
    @kernel
    def k(C: Vec[f32]):
        c = coop.fragment("acc", f32, 16, 16)
        if warp_id == 0:
            coop.fill(c, 1.0)
        coop.store(c, C, warp_id * 256, 16)

    for dev in EXECUTORS:
        with pytest.raises(sarek.SarekError, match="fragment 'c' is read before anything wrote it"):
            k.launch(np.zeros(512, np.float32), grid=1, block=64, device=dev)


def test_out_of_bounds_store_is_located():
    @kernel
    def k(C: Vec[i32]):
        c = coop.fragment("acc", i32, 16, 16)
        coop.fill(c, 1)
        coop.store(c, C, 8, 16)

    for dev in EXECUTORS:
        with pytest.raises(sarek.SarekError, match="outside the buffer of 256 elements"):
            k.launch(np.zeros(256, np.int32), grid=1, block=32, device=dev)


def test_block_not_whole_warps_is_a_launch_error():
    @kernel
    def k(C: Vec[i32]):
        c = coop.fragment("acc", i32, 16, 16)
        coop.fill(c, 1)
        coop.store(c, C, 0, 16)

    with pytest.raises(sarek.LaunchError, match="not a multiple of device interp's warp size 32"):
        k.launch(np.zeros(256, np.int32), grid=1, block=48, device="interp")


# ------------------------------------------------------------------------------------------------ targets


def test_cuda_wmma_compiles_with_nvrtc(tmp_path, monkeypatch):
    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    from sarek.runtime.cuda import nvrtc_compile
    from sarek.runtime.conformance import EXAMPLES, _load_example

    ex = _load_example(EXAMPLES / "coop.py")
    for k in (ex.hgemm_shared, ex.i8_accumulate, ex.col_major_b, ex.f16_acc):
        ptx = nvrtc_compile(k.source("cuda"), "sm_90", output="ptx").decode()
        assert "wmma.mma.sync" in ptx


@kernel(block=32)
def bf16_shared_tiles(A: Array[bf16, 2], B: Array[bf16, 2], C: Array[f32, 2]):
    """One warp: A and B staged in shared memory, b loaded both row- and column-major."""
    sa = shared(bf16, (16, 24))
    sb = shared(bf16, (16, 24))
    t = thread_idx_x
    for e in range(t, 256, 32):
        sa[e // 16, e % 16] = A[e // 16, e % 16]
        sb[e // 16, e % 16] = B[e // 16, e % 16]
    barrier()
    a = coop.fragment("a", bf16, 16, 16)
    b = coop.fragment("b", bf16, 16, 16)
    bt = coop.fragment("b", bf16, 16, 16)
    acc = coop.fragment("acc", f32, 16, 16)
    coop.fill(acc, 0.0)
    coop.load(a, sa, 0, 0)
    coop.load(b, sb, 0, 0)
    coop.load(bt, sb, 0, 0, col_major=True)
    coop.mma(acc, a, b, acc)
    coop.mma(acc, a, bt, acc)
    coop.store(acc, C, 0, 0)


def test_cuda_bf16_loads_from_shared_name_the_state_space(tmp_path, monkeypatch):
    """bf16 a/b loads from shared memory reach ptxas as `wmma.load...shared.bf16` (ldmatrix), not the header's
    generic-address loads (element loads and MOVM transposes: bf16 GEMMs at about half f16's speed)."""
    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    from sarek.runtime.cuda import nvrtc_compile
    from sarek.validate import ptx as ptxas

    ptx = nvrtc_compile(bf16_shared_tiles.source("cuda"), "sm_90", output="ptx").decode().rstrip("\0")
    assert ptx.count("wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16") == 1
    assert ptx.count("wmma.load.b.sync.aligned.row.m16n16k16.shared.bf16") == 1
    assert ptx.count("wmma.load.b.sync.aligned.col.m16n16k16.shared.bf16") == 1
    assert ".m16n16k16.bf16" not in ptx  # no generic-address bf16 load is left
    ptxas.check(ptx)  # the inline PTX assembles (NVRTC does not read it)


def test_hip_mfma_compiles_for_cdna_and_refuses_rdna():
    """f16 and 8-bit MFMA compile for gfx90a (and gfx940, which has only the 16x16x32 i8 form); RDNA stops at the
    #error naming why."""
    from sarek.runtime.conformance import EXAMPLES, _load_example
    from sarek.validate import ValidationError, hip

    ex = _load_example(EXAMPLES / "coop.py")
    src = ex.hgemm_shared.source("hip")
    assert "__builtin_amdgcn_mfma_f32_16x16x16f16" in src
    hip.check(src, archs=("gfx90a",))
    with pytest.raises(ValidationError, match="RDNA GPUs have none"):
        hip.check(src, archs=("gfx1030",))
    for k in (ex.u8_tile, ex.i8_accumulate):  # 8-bit: MFMA i8, k = 32 as two 16x16x16i8 or one 16x16x32_i8
        src = k.source("hip")
        assert f"sarek_mfma_{'u8' if k is ex.u8_tile else 'i8'}(" in src
        hip.check(src)  # CDNA: gfx90a and gfx940
        with pytest.raises(ValidationError, match="RDNA GPUs have none"):
            hip.check(src, archs=("gfx1030",))


def test_metal_simdgroup_matrix_validates_over_the_shim():
    """Every examples/coop.py case Metal's gate accepts compiles to simdgroup_matrix 8x8 pieces that the Metal
    check (clang over the shim's real signatures, MSL 3.1) accepts; the 8-bit ones are refused with the reason."""
    from sarek.runtime.conformance import EXAMPLES, _load_example, target_lacks
    from sarek.validate import metal

    ex = _load_example(EXAMPLES / "coop.py")
    lacks = target_lacks("metal")
    assert lacks & {"coop", "coop-bf16", "f16"} == set() and "coop-int8" in lacks
    for case in ex.CASES:
        if case.features & lacks:
            with pytest.raises(sarek.CompileError, match="no integer matrices"):
                case.kernel.source("metal")
            continue
        src = case.kernel.source("metal")
        assert "#include <metal_simdgroup_matrix>" in src and "simdgroup_multiply_accumulate(" in src
        metal.check(src)
    shared = ex.hgemm_shared.source("metal")
    assert "simdgroup_load(sarek_frag_a_0_0, (threadgroup const half*)(sa + (" in shared
    assert "simdgroup_half8x8 sarek_frag_acc_1_1;" in ex.f16_acc.source("metal")  # f16 accumulators: half pieces
    assert ", ulong2(0, 0), true);" in ex.col_major_b.source("metal")


def test_metal_shim_checks_the_simdgroup_signatures():
    """The shim is not a blanket: a pointer of another element type, an integer matrix, a matrix that is not
    8x8, a multiply-accumulate missing an operand, and bfloat below MSL 3.1 (the lowering's #error) all fail the check."""
    from sarek.runtime.conformance import EXAMPLES, _load_example
    from sarek.validate import ValidationError, metal

    ex = _load_example(EXAMPLES / "coop.py")
    src = ex.tile16.source("metal")
    metal.check(src)
    for bad in (src.replace("(device const half*)", "(device const ushort*)"),
                src.replace("simdgroup_half8x8 sarek_frag_a_0_0", "simdgroup_matrix<int, 8, 8> sarek_frag_a_0_0"),
                src.replace("simdgroup_half8x8 sarek_frag_a_0_0", "simdgroup_matrix<half, 16, 16> sarek_frag_a_0_0"),
                src.replace("sarek_frag_a_0_1, sarek_frag_b_1_0", "sarek_frag_b_1_0")):
        assert bad != src
        with pytest.raises(ValidationError):
            metal.check(bad)
    bf = ex.bf16_gemm.source("metal")
    metal.check(bf)
    with pytest.raises(ValidationError, match="need MSL 3.1"):
        metal.check(bf, msl=300)
    metal.check(src, msl=300)  # half and float matrices are older (MSL 2.3)


def test_ptx_mma_sync_assembles():
    from sarek.runtime.conformance import EXAMPLES, _load_example
    from sarek.validate import ptx

    ex = _load_example(EXAMPLES / "coop.py")
    for k in (ex.u8_tile, ex.i8_accumulate):  # 8-bit: m16n8k32, four bytes packed per register
        src = k.source("ptx")
        assert "mma.sync.aligned.m16n8k32.row.col.s32." in src and "mov.b32 %r1, {%rb1, %rb2, %rb3, %rb4};" in src
        ptx.check(src)
    for k in (ex.hgemm_shared, ex.bf16_gemm, ex.col_major_b):
        src = k.source("ptx")
        assert "mma.sync.aligned.m16n8k16.row.col.f32" in src
        assert ("ldmatrix.sync.aligned.m8n8.x4.shared.b16" in src) == (k is ex.hgemm_shared)  # from shared only
        ptx.check(src)


def test_targets_without_matrices_refuse_with_the_reason():
    from sarek.runtime.conformance import EXAMPLES, _load_example

    ex = _load_example(EXAMPLES / "coop.py")
    for target, why in (("opencl", "no portable matrix API"), ("wgsl", "experimental"),
                        ("metal", "simdgroup_matrix holds half, float and bfloat elements only")):
        with pytest.raises(sarek.CompileError, match=why):
            ex.u8_tile.source(target)


def test_wgsl_refusal_states_what_the_installed_wgpu_py_lacks():
    """The WGSL refusal's facts, read from the installed wgpu-py's own wgpu-native header: cooperative matrices
    are a native feature marked EXPERIMENTAL, and neither WGPUInstanceExtras nor WGPUDeviceExtras has a field that
    would enable wgpu's experimental features (a newer wgpu-py with one fails here: revisit the refusal)."""
    import re
    from pathlib import Path

    import wgpu

    from sarek.analysis.coopmat_support import REFUSALS

    h = (Path(wgpu.__file__).parent / "resources" / "wgpu.h").read_text()
    feature = h[:h.index("WGPUNativeFeature_CooperativeMatrix =")]
    assert "EXPERIMENTAL" in feature[feature.rindex("/**"):] and "8x8 f32" in feature[feature.rindex("/**"):]
    for struct in ("WGPUInstanceExtras", "WGPUDeviceExtras"):
        body = h[h.index(f"typedef struct {struct}"):h.index(f"}} {struct};")]
        assert not re.search("experimental", re.sub(r"/\*.*?\*/", "", body, flags=re.S), re.I), struct
    assert "cannot enable wgpu's experimental features" in REFUSALS["wgsl"] and "8x8 f32 only" in REFUSALS["wgsl"]


def test_glsl_bf16_refusal_matches_the_pinned_glslang():
    """The GLSL bf16 refusal's reason: glslang 13.1.1 (the pinned cooperative-matrix compiler) rejects
    GL_EXT_bfloat16, so no bf16 matrix shader could be validated."""
    from sarek.validate import ValidationError, glsl

    src = ("#version 460\n#extension GL_EXT_bfloat16 : require\n#extension GL_KHR_cooperative_matrix : require\n"
           "#extension GL_KHR_memory_scope_semantics : require\nlayout(local_size_x = 32) in;\n"
           "layout(binding = 0) buffer A { bfloat16_t a[]; };\n"
           "void main() { coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m;\n"
           "  coopMatLoad(m, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor); }\n")
    with pytest.raises(ValidationError, match="extension not supported: GL_EXT_bfloat16"):
        glsl.check(src)


def test_glsl_coopmat_validates_with_glslang13():
    """The 8-bit and f16 cases compile to GL_KHR_cooperative_matrix, which glslang 13 + spirv-val 2025 accept for
    Vulkan 1.3 (the cmeel builds; a missing one fails here), f16 ones staged through shared arrays too (declared
    `shared float16_t`); bf16 fragments are refused with the list."""
    from sarek.runtime.conformance import EXAMPLES, _load_example
    from sarek.validate import glsl

    ex = _load_example(EXAMPLES / "coop.py")
    for k in (ex.u8_tile, ex.i8_accumulate, ex.tile16, ex.col_major_b, ex.bias_relu, ex.f16_acc, ex.hgemm_shared):
        src = k.source("glsl", block=64 if k is not ex.hgemm_shared else 128)
        assert "coopMatMulAdd" in src and glsl.target_env(src) == "vulkan1.3"
        glsl.check(src)
    with pytest.raises(sarek.CompileError, match="a 16x16 'a' fragment of bf16 is not supported on this target: "
                       "GL_EXT_bfloat16 .* is newer than the pinned glslang 13.1.1"):
        ex.bf16_gemm.source("glsl")
    assert "shared float16_t sa[" in ex.hgemm_shared.source("glsl")


def test_glsl_coopmat_without_the_driver_feature_is_refused_at_launch():
    """lavapipe has no VK_KHR_cooperative_matrix: the launch names the missing feature and why; the conformance
    cases count the device as lacking coop (n/a)."""
    from sarek.runtime.conformance import EXAMPLES, _load_example, device_lacks

    ex = _load_example(EXAMPLES / "coop.py")
    d = sarek.get_device("vulkan-glsl")
    assert not d.cooperative_matrix_shapes and {"coop", "coop-int8"} <= device_lacks(d)
    a, c = np.zeros(512, np.uint8), np.zeros(256, np.int32)
    with pytest.raises(sarek.DeviceError, match="cooperative-matrix.*VK_KHR_cooperative_matrix"):
        ex.u8_tile.launch(a, a, c, grid=1, block=32, device=d)


def test_vulkan_driver_shapes_refuse_what_it_does_not_offer():
    from sarek.runtime.vulkan_driver import CoopMatShape
    from sarek.runtime.vulkan_glsl import coopmat_refusal

    offered = (CoopMatShape(16, 16, 16, "f16", "f16", "f32", "f32", False, "subgroup"),
               CoopMatShape(16, 16, 32, "u8", "u8", "u32", "u32", False, "subgroup"))
    assert coopmat_refusal([[16, 16, 32, "u8", "u32"], [16, 16, 16, "f16", "f32"]], offered, "k") is None
    why = coopmat_refusal([[16, 16, 32, "i8", "i32"]], offered, "k")
    assert why is not None and "multiplies i8 into i32 at 16x16x32" in why and "u8 x u32 at 16x16x32" in why


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["coop_u8", "coop_i8_wrap", "coop_tile16", "coop_hgemm_shared",
                                  "coop_col_major_b", "coop_bias_relu", "coop_bf16", "coop_f16_acc"])
def test_coop_cases_on_vulkan_glsl_gpu(name):
    """examples/coop.py on the H200's Vulkan driver (vulkan-glsl:0): the 8-bit cases agree exactly, the f16 ones
    within the tolerance (the GEMM staging f16 through `shared float16_t` arrays too); bf16 is refused with the
    reason."""
    from sarek.runtime.conformance import EXAMPLES, _load_example, from_example_case, run_case

    ex = _load_example(EXAMPLES / "coop.py")
    case = from_example_case(next(c for c in ex.CASES if c.name == name), EXAMPLES / "coop.py")
    d = sarek.get_device("vulkan-glsl:0")
    assert d.info.device_type == "discrete", d.description
    r = run_case(case, d)
    assert r.ok, r.message
    # refused with the reason (n/a): bf16 fragments (the pinned glslang has no GL_EXT_bfloat16)
    assert r.refused == (name == "coop_bf16"), r.message
