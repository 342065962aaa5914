"""Unusual-but-valid kernels that broke a backend or a device (bug hunt): each test fails without its fix."""

import numpy as np
import pytest

import sarek
from sarek import Vec, device, f16, f32, i32, kernel, record, variant
from sarek import math as sm
from sarek.gpu import barrier, global_thread_id, shared, thread_idx_x
from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

TARGETS = {"cuda": cuda.check, "hip": hip.check, "opencl": opencl.check, "metal": metal.check,
           "glsl": glsl.check, "wgsl": wgsl.check, "ptx": ptx.check}


def _validate_all(k) -> None:
    for t, chk in TARGETS.items():
        chk(k.source(t))


def _devices() -> list[str]:
    names = [d.name for d in sarek.devices()]
    return [n for n in names if n.split(":")[0] in ("interp", "interp-ref", "opencl", "vulkan", "vulkan-glsl")]


# ---------------------------------------------------------------------------------------------------------------
# GLSL: `c ? buf[i] : T(...)` on a record made glslang emit an OpStore of the buffer's laid-out struct type into
# a function-local struct (spirv-val: "OpStore Pointer's type does not match Object's type").


@record
class HuntPair:
    a: f32
    b: i32


@kernel
def hunt_cond_record(xs: Vec[HuntPair], out: Vec[HuntPair], n: i32):
    i = global_thread_id
    if i < n:
        r = xs[i] if i % 2 == 0 else HuntPair(a=-1.0, b=-i)
        out[i] = r


def test_conditional_record_from_buffer_validates_and_runs():
    glsl.check(hunt_cond_record.source("glsl"))
    _validate_all(hunt_cond_record)
    n = 16
    xs = np.zeros(n, HuntPair.dtype)
    xs["a"] = np.arange(n)
    xs["b"] = np.arange(n) * 3
    exp = xs.copy()
    odd = np.arange(n) % 2 == 1
    exp["a"][odd] = -1
    exp["b"][odd] = -np.arange(n)[odd]
    for d in _devices():
        out = np.zeros(n, HuntPair.dtype)
        hunt_cond_record.launch(xs, out, n, grid=1, block=16, device=d)
        assert out.tobytes() == exp.tobytes(), d


# ---------------------------------------------------------------------------------------------------------------
# A statement `match` whose cases do not cover the scrutinee's constructor does nothing (Python's match; the
# front end models the fall-through path). The interpreters raised "no case matches"; every compiled backend
# falls through.


@variant
class HuntShape:
    Circ: f32
    Tri: (f32, f32, f32)
    Nil: ()


@kernel
def hunt_partial_match(shapes: Vec[HuntShape], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        r = -5.0
        match shapes[i]:
            case HuntShape.Circ(x):
                r = x
        out[i] = r


def test_statement_match_without_a_matching_case_does_nothing():
    vals = [HuntShape.Circ(1.5), HuntShape.Tri(1.0, 2.0, 3.0), HuntShape.Nil(), HuntShape.Circ(2.5)]
    for d in _devices():
        out = np.zeros(4, np.float32)
        hunt_partial_match.launch(HuntShape.pack(vals), out, 4, grid=1, block=4, device=d)
        assert list(out) == [1.5, -5.0, -5.0, 2.5], d


# ---------------------------------------------------------------------------------------------------------------
# C family: record fields, constructors, type names and kernel names that the C language reserves (`int`,
# `default`, `NULL`, `float4`, `half`, `main`, `kernel`) were printed as they are: the C compilers rejected the
# source. Fields get `<f>_f`, types `<T>_t`, enumerators `<Variant>_<Ctor>`, kernels `sarek_<name>`.


@record
class float4:  # noqa: N801 - a CUDA vector type's name
    tag: f32
    int: f32  # noqa: A003
    NULL: i32


@record
class half:  # noqa: N801 - an OpenCL type's name
    x: f32


@variant
class HuntKw:
    default: f32
    main: (f32, f32)
    Some: half
    Nothing: ()


@device
def hunt_get(o: HuntKw) -> f32:
    Some = 2.0  # a local named like an enumerator would hide it inside `switch`
    match o:
        case HuntKw.default(x):
            return x
        case HuntKw.main(a, b):
            return a + b
        case HuntKw.Some(h):
            return h.x * Some
        case _:
            return Some


@kernel
def main(v: Vec[float4], w: Vec[HuntKw], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        p = v[i]
        v[i].int += 1.0
        out[i] = p.tag + p.int + f32(p.NULL) + hunt_get(w[i])
        if i == 0:
            w[i] = HuntKw.Nothing()


def test_reserved_field_ctor_type_and_kernel_names_compile_everywhere():
    @sarek.kernel
    def kernel(v: Vec[i32], n: i32):  # OpenCL's and Metal's keyword as a kernel name
        i = global_thread_id
        if i < n:
            v[i] = i

    _validate_all(main)
    _validate_all(kernel)
    src = main.source("cuda")
    assert "float int;" not in src and "} float4;" not in src and "= default;" not in src
    assert "sarek_main(" in src
    n = 4
    v = np.zeros(n, float4.dtype)
    v["tag"] = 1.0
    v["int"] = 2.0
    v["NULL"] = 3
    ws = [HuntKw.default(0.5), HuntKw.main(1.0, 2.0), HuntKw.Some((4.0,)), HuntKw.Nothing()]
    for d in _devices():
        vv = v.copy()
        w = HuntKw.pack(ws)
        out = np.zeros(n, np.float32)
        main.launch(vv, w, out, n, grid=1, block=n, device=d)
        assert list(out) == [6.5, 9.0, 14.0, 8.0], d
        assert list(vv["int"]) == [3.0] * n, d
        assert HuntKw.unpack(w)[0] == HuntKw.Nothing(), d
        o = np.zeros(8, np.int32)
        kernel.launch(o, 8, grid=1, block=8, device=d)
        assert list(o) == list(range(8)), d


@pytest.mark.parametrize("target", ["cuda", "hip", "opencl", "metal"])
def test_c_names_avoid_reserved_words(target):
    from sarek.lowering.cfamily import entry_name

    src = main.source(target)
    assert f"{entry_name('main', target)}(" in src
    assert entry_name("main", target) == "sarek_main"
    assert entry_name("vector_add", target) == "vector_add"


# ---------------------------------------------------------------------------------------------------------------
# GLSL/WGSL math: `pow` was printed as the shading language's pow, undefined for x <= 0 (x ** 3.0 with x < 0 gave
# NaN on Vulkan, C gives -x^3); hypot was sqrt(x * x + y * y) (inf from |x| ~ 1.9e19 in f32); expm1/log1p were
# exp(x) - 1 and log(1 + x) (19% off at 1e-7, everything lost below).


@kernel
def hunt_shader_math(a: Vec[f32], b: Vec[f32], o: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        x = a[i]
        y = b[i]
        o[5 * i] = x ** y
        o[5 * i + 1] = sm.pow(x, 2.0)
        o[5 * i + 2] = sm.hypot(x * 1e25, y * 1e25)
        o[5 * i + 3] = sm.expm1(x * 1e-5)
        o[5 * i + 4] = sm.log1p(x * 1e-5)


def test_shader_pow_hypot_expm1_log1p_match_c():
    xs = np.array([-2.0, -0.5, -3.0, 2.0, 0.0, 1.5, -1.25, 0.3], np.float32)
    ys = np.array([3.0, -1.0, 2.0, 0.5, 2.0, -2.0, 4.0, 1.0], np.float32)
    xd, yd = xs.astype(np.float64), ys.astype(np.float64)
    want = np.stack([xd ** yd, xd ** 2, np.hypot(xd * 1e25, yd * 1e25), np.expm1(xs * np.float32(1e-5)),
                     np.log1p(xs * np.float32(1e-5))], 1).reshape(-1)
    for t in ("glsl", "wgsl"):
        TARGETS[t](hunt_shader_math.source(t))
    for d in _devices():
        o = np.zeros(5 * len(xs), np.float32)
        hunt_shader_math.launch(xs, ys, o, len(xs), grid=1, block=len(xs), device=d)
        np.testing.assert_allclose(o, want, rtol=2e-5, err_msg=d)


# ---------------------------------------------------------------------------------------------------------------
# Constant folding of `//` and `%` with a negative constant divisor (`11 // -7`) crashed the front end with
# "ValueError: negative shift count": the folder built every operator's result, `a << b` included.

NEG7 = -7


@kernel
def hunt_neg_const_div(o: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        o[i] = 11 // -7 + 11 % NEG7 * 100 + (-11) // 7 * 10000 + (1 << 4) * 1000000 + (256 >> 2)


def test_constant_division_by_a_negative_constant_folds_with_c_semantics():
    o = np.zeros(2, np.int32)
    hunt_neg_const_div.launch(o, 2, grid=1, block=2, device="interp-ref")
    assert list(o) == [-1 + 4 * 100 - 1 * 10000 + 16 * 1000000 + 64] * 2


# ---------------------------------------------------------------------------------------------------------------
# PTX: copying an f16 value (a mutable f16 local, a record with an f16 field) printed `mov.f16`, which PTX does
# not have (ptxas: "Unexpected instruction types specified for 'mov'"); halves move as .b16.


@record
class HuntHalf:
    a: f16
    b: i32


@kernel
def hunt_f16_copies(hs: Vec[HuntHalf], xs: Vec[f16], n: i32):
    i = global_thread_id
    if i < n:
        h = hs[i]
        x = xs[i]
        if i % 2 == 0:
            x = h.a * f16(2.0)
            h.a = x
        hs[i] = h
        xs[i] = x


def test_ptx_f16_copies_assemble():
    src = hunt_f16_copies.source("ptx")
    assert "mov.f16" not in src
    ptx.check(src)
    cuda.check(hunt_f16_copies.source("cuda"))
    hs = np.zeros(4, HuntHalf.dtype)
    hs["a"] = [1.5, 2.5, -3.0, 0.25]
    xs = np.array([7, 8, 9, 10], np.float16)
    hunt_f16_copies.launch(hs, xs, 4, grid=1, block=4, device="interp-ref")
    assert list(xs) == [3.0, 8.0, -6.0, 10.0] and list(hs["a"]) == [3.0, 2.5, -6.0, 0.25]


# ---------------------------------------------------------------------------------------------------------------
# Non-ASCII identifiers (Python allows them): CUDA/HIP refuse universal characters in entity names, so the kernel
# and the `make_<T>_<C>` constructors did not compile; C names are now ASCII (`F_rm_t`, `sarek_<name>_<crc>`).


@record
class HuntPünkt:
    ä: f32
    b: i32


@variant
class HuntFörm:
    Kreis: f32
    Léer: ()


@kernel
def hunt_ünicode(ps: Vec[HuntPünkt], fs: Vec[HuntFörm], o: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        α = ps[i].ä * 2.0
        match fs[i]:
            case HuntFörm.Kreis(r):
                α += r
            case HuntFörm.Léer():
                α -= 1.0
        o[i] = α
        if i == 0:
            fs[i] = HuntFörm.Léer()


def test_non_ascii_names_compile_everywhere():
    from sarek.lowering.cfamily import entry_name

    _validate_all(hunt_ünicode)
    assert entry_name("hunt_ünicode", "cuda").isascii()
    assert hunt_ünicode.source("cuda").isascii()
    ps = np.zeros(4, HuntPünkt.dtype)
    ps["ä"] = [1, 2, 3, 4]
    for d in _devices():
        fs = HuntFörm.pack([HuntFörm.Kreis(0.5), HuntFörm.Léer(), HuntFörm.Kreis(1.5), HuntFörm.Léer()])
        o = np.zeros(4, np.float32)
        hunt_ünicode.launch(ps, fs, o, 4, grid=1, block=4, device=d)
        assert list(o) == [2.5, 3.0, 7.5, 7.0], d
        assert HuntFörm.unpack(fs)[0] == HuntFörm.Léer(), d


# ---------------------------------------------------------------------------------------------------------------
# GLSL: a name with the reserved `gl_` prefix (a local `gl_x`, a field, a helper, a buffer) was escaped with a
# `v` suffix, `gl_xv`, still reserved (glslang: identifiers starting with "gl_" are reserved); now `vgl_x`.


@record
class gl_HuntR:  # noqa: N801
    gl_f: i32


@device
def gl_hunt_h(gl_a: i32) -> i32:
    return gl_a * 2


@kernel
def gl_hunt(gl_v: Vec[i32], gl_rs: Vec[gl_HuntR], gl_n: i32):
    i = global_thread_id
    if i < gl_n:
        gl_x = gl_rs[i].gl_f + 1
        gl_v[i] = gl_hunt_h(gl_x)


def test_glsl_gl_prefixed_names():
    from sarek.analysis.namer import escape

    assert escape("glsl", "gl_x") == "vgl_x" and escape("glsl", "int") == "intv"
    glsl.check(gl_hunt.source("glsl"))
    _validate_all(gl_hunt)
    rs = np.zeros(4, gl_HuntR.dtype)
    rs["gl_f"] = [1, 2, 3, 4]
    for d in _devices():
        v = np.zeros(4, np.int32)
        gl_hunt.launch(v, rs, 4, grid=1, block=4, device=d)
        assert list(v) == [4, 6, 8, 10], d


# ---------------------------------------------------------------------------------------------------------------
# Long expressions (a 400-term sum, as generated stencils have): the C family printed one nested bracket per term
# (clang, hence OpenCL and Metal: "bracket nesting level exceeded maximum of 256"), the GLSL/WGSL lowering
# recursed per term (RecursionError); a 600-term one made the front end raise RecursionError. Inline printing now
# stops at sarek.lowering.cfamily.MAX_INLINE_DEPTH (temporaries), the front end refuses with a located error.


def _long_sum_kernel(tmp_path, terms: int):
    import importlib.util

    body = " + ".join(f"v[i + {k % 7}] * {k % 5}.0" for k in range(terms))
    path = tmp_path / f"hunt_long_{terms}.py"
    path.write_text("from sarek import kernel, Vec, f32, i32\nfrom sarek.gpu import global_thread_id\n\n\n"
                    "@kernel\ndef long_sum(v: Vec[f32], o: Vec[f32], n: i32):\n    i = global_thread_id\n"
                    f"    if i < n:\n        o[i] = {body}\n")
    spec = importlib.util.spec_from_file_location(f"hunt_long_{terms}", path)
    assert spec is not None and spec.loader is not None
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.long_sum


def test_long_expressions_compile_everywhere(tmp_path):
    k = _long_sum_kernel(tmp_path, 400)
    _validate_all(k)
    v = np.arange(12, dtype=np.float32)
    want = sum(v[np.arange(4) + (j % 7)] * (j % 5) for j in range(400)).astype(np.float32)
    for d in _devices():
        o = np.zeros(4, np.float32)
        k.launch(v, o, 4, grid=1, block=4, device=d)
        np.testing.assert_allclose(o, want, rtol=1e-5, err_msg=d)


def test_too_deep_expression_is_a_located_error(tmp_path):
    k = _long_sum_kernel(tmp_path, 1000)
    with pytest.raises(sarek.CompileError, match=r"hunt_long_1000.py:9:\d+: error: this statement nests too deeply"):
        k.ir()


# ---------------------------------------------------------------------------------------------------------------
# Metal: every vector takes two [[buffer(i)]] slots (data, length) and a scalar one, and a kernel function's
# argument table has 31 (indices 0-30): 16 vectors printed [[buffer(31)]] and [[buffer(32)]], which the Metal
# compiler rejects and the shim-based validator let through. The lowering now refuses (located), the validator
# checks the index.


@kernel
def hunt_many_vectors(a0: Vec[f32], a1: Vec[f32], a2: Vec[f32], a3: Vec[f32], a4: Vec[f32], a5: Vec[f32],
                      a6: Vec[f32], a7: Vec[f32], a8: Vec[f32], a9: Vec[f32], a10: Vec[f32], a11: Vec[f32],
                      a12: Vec[f32], a13: Vec[f32], a14: Vec[f32], a15: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        a0[i] = a1[i] + a15[i]


def test_metal_buffer_slots_are_bounded():
    from sarek.diagnostics import SarekError
    from sarek.validate import ValidationError

    from sarek.testing.fuzz_worker import is_refusal

    with pytest.raises(SarekError, match=r"test_hunt_language.py:\d+:\d+: error: Metal: kernel 'hunt_many_vectors' "
                                         r"needs 33 buffer slots") as e:
        hunt_many_vectors.source("metal")
    assert is_refusal(e.value)  # a target limit: the fuzzer counts it n/a (campaign seed 920292), not a failure
    cuda.check(hunt_many_vectors.source("cuda"))
    with pytest.raises(ValidationError, match="outside the argument table"):
        metal.prepass("kernel void k(device float* a [[buffer(31)]]) {}")
    metal.prepass("kernel void k(device float* a [[buffer(30)]]) {}")


# ---------------------------------------------------------------------------------------------------------------
# Static shared memory beyond what the language allows (HIP 64 KiB, Metal 32 KiB): a located refusal (it failed
# on the device). CUDA and PTX place arrays past 48 KiB in the dynamic window (up to 227 KiB). OpenCL and Vulkan
# devices report their own limit (checked at launch).


@kernel
def hunt_big_static(o: Vec[f32], n: i32):
    sh = shared(f32, 12288)  # exactly 48 KiB: static
    sh[thread_idx_x] = f32(n)
    barrier()
    o[global_thread_id] = sh[(thread_idx_x + 1) % 32]


@kernel
def hunt_big_shared(o: Vec[f32], n: i32):
    sh = shared(f32, 20000)
    t = thread_idx_x
    sh[t * 600] = f32(t)
    barrier()
    o[global_thread_id] = sh[((t + 1) % 32) * 600]


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0"])
def test_shared_arrays_past_48_kib_on_gpu(device):
    """80000 bytes of shared arrays: launched with that much dynamic shared memory (the far elements read)."""
    o = np.zeros(64, np.float32)
    hunt_big_shared.launch(o, 64, grid=2, block=32, device=device)
    assert list(o) == [float((t + 1) % 32) for t in range(32)] * 2


def test_static_shared_memory_limits():
    from sarek.analysis.shared_window import marked_bytes
    from sarek.diagnostics import SarekError
    from sarek.runtime.cuda import nvrtc_compile
    from sarek.validate import ptx

    # CUDA and PTX: past 48 KiB, the arrays live in the dynamic window the launch sizes from the marker
    for t in ("cuda", "ptx"):
        src = hunt_big_shared.source(t)
        assert marked_bytes(src, "hunt_big_shared") == 80000 and marked_bytes(src, "other") == 0
    nvrtc_compile(hunt_big_shared.source("cuda"), "sm_90", output="ptx")
    ptx.check(hunt_big_shared.source("ptx"))
    assert marked_bytes(hunt_big_static.source("cuda"), "hunt_big_static") == 0
    for t, limit in (("hip", 65536), ("metal", 32768)):
        with pytest.raises(SarekError, match=rf"test_hunt_language.py:\d+:\d+: error: .*declares 80000 bytes of "
                                             rf"shared arrays.* allows {limit} bytes"):
            hunt_big_shared.source(t)
    opencl.check(hunt_big_shared.source("opencl"))
    o = np.zeros(32, np.float32)
    hunt_big_shared.launch(o, 32, grid=1, block=32, device="interp")
    assert list(o) == [float((t + 1) % 32) for t in range(32)]


# ---------------------------------------------------------------------------------------------------------------
# C family: a helper named like a generated constructor (`make_Shape_Circle`, a natural name for a user's own
# constructor helper) was a redefinition; the generated one now gets a fresh name.


@variant
class HuntShape2:
    Circle: f32
    Dot: ()


@device
def make_HuntShape2_Circle(r: f32) -> HuntShape2:
    return HuntShape2.Circle(r * 2.0)


@kernel
def hunt_makers(o: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        s = make_HuntShape2_Circle(f32(i)) if i % 2 == 0 else HuntShape2.Dot()
        r = 0.0
        match s:
            case HuntShape2.Circle(x):
                r = x
            case HuntShape2.Dot():
                r = -1.0
        o[i] = r


def test_helper_named_like_a_generated_constructor():
    _validate_all(hunt_makers)
    for d in _devices():
        o = np.zeros(4, np.float32)
        hunt_makers.launch(o, 4, grid=1, block=4, device=d)
        assert list(o) == [0.0, -1.0, 4.0, -1.0], d


# ---------------------------------------------------------------------------------------------------------------
# GLSL: the storage block of vector `v` is named `Buffer_v`; a record of that name made the block declaration a
# redefinition (glslang: "buffers can be declared only as blocks"). Block names are now unique globals.


@record
class Buffer_hv:  # noqa: N801
    a: i32


@kernel
def hunt_block_names(hv: Vec[f32], q: Vec[Buffer_hv], n: i32):
    i = global_thread_id
    if i < n:
        hv[i] = hv[i] * 2.0 + f32(q[i].a)


def test_glsl_block_name_does_not_clash_with_a_record():
    glsl.check(hunt_block_names.source("glsl"))
    q = np.zeros(4, Buffer_hv.dtype)
    q["a"] = 10
    for d in _devices():
        hv = np.arange(4, dtype=np.float32)
        hunt_block_names.launch(hv, q, 4, grid=1, block=4, device=d)
        assert list(hv) == [10.0, 12.0, 14.0, 16.0], d
