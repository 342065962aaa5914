"""The Python kernel language (FRONTEND.md): each construct compiles to verified IR and computes what Python
would (run on the reference interpreter)."""

import numpy as np
import pytest

import sarek
from sarek import Vec, device, f16, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import (atomic_add, atomic_max, barrier, block_dim_x, global_thread_id, lane_id, local_array, shared,
                       thread_idx_x, warp_shuffle_xor)
from sarek.interp import run

SCALE = 3
HALF = 0.5
FLAG = False


def launch(k, *args, grid=1, block=32):
    k.module.verify()
    g = grid if isinstance(grid, tuple) else (grid, 1, 1)
    b = block if isinstance(block, tuple) else (block, 1, 1)
    run(k.module, k.name, list(args), g, b, executor="reference")


def ops(k):
    return [op.name for op in k.module.walk()]


def test_assigned_in_both_branches_then_used():
    @kernel
    def k(out: Vec[i32], n: i32):
        i = global_thread_id
        if i % 2 == 0:
            x = 10
        else:
            x = 20
        if i < n:
            out[i] = x + i

    out = np.zeros(8, np.int32)
    launch(k, out, 8)
    assert list(out) == [10 + i if i % 2 == 0 else 20 + i for i in range(8)]
    assert "sarek.let_mut" in ops(k)


def test_assigned_before_loop_and_inside():
    @kernel
    def k(out: Vec[f32], n: i32):
        acc = 0.0
        for j in range(n):
            acc += f32(j)
        out[0] = acc

    out = np.zeros(1, np.float32)
    launch(k, out, 10, block=1)
    assert out[0] == 45.0


def test_hoisted_local_inside_loop_and_early_helper_return():
    @device
    def classify(x: i32) -> i32:
        if x < 0:
            return -1
        elif x == 0:
            return 0
        return 1

    @kernel
    def k(a: Vec[i32], out: Vec[i32], n: i32):
        total = 0
        for j in range(n):
            if a[j] > 100:
                t = 2
            else:
                t = classify(a[j])
            total += t
        out[0] = total

    a = np.array([-5, 0, 7, 200, 3], np.int32)
    out = np.zeros(1, np.int32)
    launch(k, a, out, 5, block=1)
    assert out[0] == -1 + 0 + 1 + 2 + 1


def test_augmented_assignment_on_elements_and_fields():
    @record
    class P:
        x: f32
        y: f32

    @kernel
    def k(v: Vec[f32], pts: Vec[P], n: i32):
        i = global_thread_id
        if i < n:
            v[i] *= 2.0
            pts[i].x -= 1.0
            p = pts[i]
            p.y += 10.0
            pts[i].y = p.y

    v = np.arange(4, dtype=np.float32)
    pts = P.pack([P(1.0, 2.0)] * 4)
    launch(k, v, pts, 4)
    assert list(v) == [0, 2, 4, 6]
    assert P.unpack(pts) == [P(0.0, 12.0)] * 4


def test_value_semantics_of_record_locals():
    @record
    class P:
        x: f32
        y: f32

    @kernel
    def k(pts: Vec[P], n: i32):
        p = pts[0]
        p.x = 99.0      # writes the copy, not the vector
        pts[1] = p

    pts = P.pack([P(1.0, 2.0), P(0.0, 0.0)])
    launch(k, pts, 2, block=1)
    assert P.unpack(pts) == [P(1.0, 2.0), P(99.0, 2.0)]


def test_short_circuit_and_or_not():
    @kernel
    def k(a: Vec[i32], out: Vec[i32], n: i32):
        i = global_thread_id
        # a[i] is out of bounds when i >= n: short-circuit must not evaluate it
        if i < n and a[i] > 0:
            out[i] = 1
        elif not (i < n) or a[i] == 0:
            out[i % 4] += 0
        else:
            out[i] = -1

    a = np.array([3, -1, 0, 5], np.int32)
    out = np.zeros(4, np.int32)
    launch(k, a, out, 4, block=8)
    assert list(out) == [1, -1, 0, 1]
    assert "sarek.if_expr" in ops(k)


def test_chained_comparison_and_conditional_expression():
    @kernel
    def k(out: Vec[f32], n: i32):
        i = global_thread_id
        if 0 <= i < n:
            out[i] = 1.0 if 2 <= i <= 4 else -1.0

    out = np.zeros(6, np.float32)
    launch(k, out, 6, block=8)
    assert list(out) == [-1, -1, 1, 1, 1, -1]


def test_for_range_forms():
    @kernel
    def k(out: Vec[i32]):
        s1 = 0
        for j in range(4):
            s1 += j
        s2 = 0
        for j in range(2, 5):
            s2 += j
        s3 = 0
        for j in range(10, 0, -3):
            s3 += j
        out[0] = s1
        out[1] = s2
        out[2] = s3

    out = np.zeros(3, np.int32)
    launch(k, out, block=1)
    assert list(out) == [6, 9, 10 + 7 + 4 + 1]


def test_while_loop():
    @kernel
    def k(out: Vec[i32], n: i32):
        x = n
        steps = 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            steps += 1
        out[0] = steps

    out = np.zeros(1, np.int32)
    launch(k, out, 27, block=1)
    assert out[0] == 111


def test_c_integer_division_and_remainder():
    @kernel
    def k(a: Vec[i32], b: Vec[i32], q: Vec[i32], r: Vec[i32], n: i32):
        i = global_thread_id
        if i < n:
            q[i] = a[i] // b[i]
            r[i] = a[i] % b[i]

    a = np.array([7, -7, 7, -7], np.int32)
    b = np.array([2, 2, -2, -2], np.int32)
    q, r = np.zeros(4, np.int32), np.zeros(4, np.int32)
    launch(k, a, b, q, r, 4)
    assert list(q) == [3, -3, -3, 3]
    assert list(r) == [1, -1, 1, -1]


def test_module_constants_folded():
    @kernel
    def k(out: Vec[f32]):
        if FLAG:
            out[0] = 1.0
        else:
            out[0] = f32(SCALE) * HALF + f32(SCALE * 2)

    out = np.zeros(1, np.float32)
    launch(k, out, block=1)
    assert out[0] == 1.5 + 6
    assert "sarek.constant" in ops(k)


def test_literal_typing_follows_annotation_and_operand():
    @kernel
    def k(out: Vec[f64], n: i32):
        x: f64 = 0.0
        y = x * 2.0 + 1.5
        z = y + 1
        out[0] = z

    out = np.zeros(1, np.float64)
    launch(k, out, 1, block=1)
    assert out[0] == 2.5
    text = k.ir()
    assert "1.5 : f64" in text and "1.0 : f64" in text


def test_casts_and_abs_min_max():
    @kernel
    def k(out: Vec[f32], iout: Vec[i32], w: Vec[i64], h: Vec[f16]):
        x = -2.75
        out[0] = abs(x)
        out[1] = min(x, 1.0)
        out[2] = max(x, 1.0, 3.0)
        out[3] = f32(i32(x))
        iout[0] = abs(-5)
        iout[1] = min(3, -4)
        iout[2] = max(i32(x), 7)
        iout[3] = i32(f64(3.9))
        w[0] = i64(1 << 20) * i64(1 << 20)
        h[0] = f16(x)

    out, iout = np.zeros(4, np.float32), np.zeros(4, np.int32)
    w, h = np.zeros(1, np.int64), np.zeros(1, np.float16)
    launch(k, out, iout, w, h, block=1)
    assert list(out) == [2.75, -2.75, 3.0, -2.0]
    assert list(iout) == [5, -4, 7, 3]
    assert w[0] == 1 << 40
    assert h[0] == np.float16(-2.75)


def test_math_functions_map_to_intrinsics():
    @kernel
    def k(out: Vec[f32]):
        out[0] = sm.sqrt(16.0) + sm.floor(2.5) + sm.pow(2.0, 3.0) + sm.fmax(1.0, 2.0) + sm.fabs(-1.0)

    out = np.zeros(1, np.float32)
    launch(k, out, block=1)
    assert out[0] == 4 + 2 + 8 + 2 + 1
    names = [op.callee.data for op in k.module.walk() if op.name == "sarek.intrinsic"]
    assert {"sqrt", "floor", "pow", "fmax", "fabs"} <= set(names)


def test_shared_local_arrays_atomics_and_len():
    @kernel
    def k(v: Vec[i32], out: Vec[i32]):
        s = shared(i32, 32)
        t = local_array(i32, 4)
        i = thread_idx_x
        for j in range(4):
            t[j] = j * i
        s[i] = t[3]
        barrier()
        old = atomic_add(out, 0, 1)
        atomic_max(out, 1, s[i])
        if i == 0:
            out[2] = len(v)

    v = np.zeros(9, np.int32)
    out = np.zeros(3, np.int32)
    launch(k, v, out, block=32)
    assert list(out) == [32, 93, 9]
    assert "sarek.alloc_array" in ops(k) and "sarek.array_len" in ops(k)


def test_warp_shuffle_xor_butterfly():
    @kernel
    def k(a: Vec[i32], out: Vec[i32]):
        x = a[global_thread_id]
        m = 16
        while m > 0:
            x += warp_shuffle_xor(x, m)
            m = m // 2
        out[global_thread_id] = x + 0 * lane_id

    a = np.arange(32, dtype=np.int32)
    out = np.zeros(32, np.int32)
    launch(k, a, out, block=32)
    assert list(out) == [496] * 32


def test_match_on_variants_with_binders_and_default():
    @variant
    class Sh:
        Circle: f32
        Rect: (f32, f32)
        Empty: ()

    @device
    def describe(s: Sh) -> f32:
        match s:
            case Sh.Rect(w, _):
                return w
            case other:
                match other:
                    case Sh.Circle(r):
                        return -r
                    case _:
                        return 0.0

    @kernel
    def k(shapes: Vec[Sh], out: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            out[i] = describe(shapes[i])
            if i == 0:
                shapes[i] = Sh.Empty()

    shapes = Sh.pack([Sh.Circle(2.0), Sh.Rect(3.0, 4.0), Sh.Empty()])
    out = np.zeros(3, np.float32)
    launch(k, shapes, out, 3)
    assert list(out) == [-2.0, 3.0, 0.0]
    assert Sh.unpack(shapes)[0] == Sh.Empty()


def test_kernel_early_return():
    @kernel
    def k(out: Vec[i32], n: i32):
        i = global_thread_id
        if i >= n:
            return
        out[i] = 7

    out = np.zeros(8, np.int32)
    launch(k, out, 5, block=8)
    assert list(out) == [7] * 5 + [0] * 3


def test_tuple_swap_and_pass():
    @kernel
    def k(v: Vec[i32]):
        a = v[0]
        b = v[1]
        a, b = b, a
        v[0], v[1] = a + 10, b + 10
        pass

    v = np.array([1, 2], np.int32)
    launch(k, v, block=1)
    assert list(v) == [12, 11]


def test_helper_dependency_order_and_module_contents():
    @record
    class Q:
        a: i32

    @device
    def leaf(x: i32) -> i32:
        return x + 1

    @device
    def mid(q: Q) -> i32:
        return leaf(q.a) * 2

    @kernel
    def k(v: Vec[i32]):
        v[0] = mid(Q(a=v[0])) + leaf(0)

    names = [op.name for op in k.module.ops]
    assert names == ["sarek.record", "sarek.helper", "sarek.helper", "sarek.kernel"]
    assert [op.sym_name.data for op in k.module.ops][1:] == ["leaf", "mid", "k"]
    v = np.array([4], np.int32)
    launch(k, v, block=1)
    assert v[0] == 11


def test_blocks_and_pragma_and_superstep_ops():
    @kernel
    def k(v: Vec[f32]):
        s = shared(f32, 32)
        with sarek.superstep():
            s[thread_idx_x] = v[thread_idx_x]
        with sarek.pragma("unroll"):
            for j in range(2):
                v[thread_idx_x] += s[(thread_idx_x + 1) % block_dim_x]

    names = ops(k)
    assert "sarek.block" in names and "sarek.pragma" in names and "sarek.barrier" in names
    v = np.arange(32, dtype=np.float32)
    launch(k, v, block=32)
    assert v[0] == 0 + 2 * 1 and v[31] == 31 + 0


def test_compile_eagerly_and_lazily():
    calls = []

    def body(v: Vec[f32]):
        v[0] = 1.0

    k = kernel(body)
    assert k._module is None
    sarek.compile(k)
    assert k._module is not None
    assert sarek.compile(body).name == "body"
    assert calls == []


def test_kernel_launch_through_public_api():
    @kernel
    def vadd(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            c[i] = a[i] + b[i]

    a = np.random.rand(300).astype(np.float32)
    b = np.random.rand(300).astype(np.float32)
    c = np.zeros_like(a)
    vadd.launch(a, b, c, 300, grid=2, block=256)
    np.testing.assert_allclose(c, a + b)


@pytest.mark.parametrize("target", ["cuda", "opencl"])
def test_source_for_targets(target):
    @kernel
    def vadd(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            c[i] = a[i] + b[i]

    text = vadd.source(target)
    assert "vadd" in text


def test_long_comparison_chain():
    @kernel
    def k(out: Vec[i32], n: i32):
        i = global_thread_id
        if i < n:
            out[i] = 1 if 1 <= i < 5 <= n + 0 else 0

    out = np.zeros(8, np.int32)
    launch(k, out, 8, block=8)
    assert list(out) == [0, 1, 1, 1, 1, 0, 0, 0]


def test_python_math_module_and_called_index_values():
    import math

    from sarek.gpu import thread_idx_x as tid

    @kernel
    def k(out: Vec[f32]):
        out[tid()] = math.sqrt(f32(tid)) + f32(math.pi) * 0.0

    out = np.zeros(4, np.float32)
    launch(k, out, block=4)
    np.testing.assert_allclose(out, np.sqrt(np.arange(4)), rtol=1e-6)


def test_while_true_with_return_in_helper():
    @device
    def gcd(a: i32, b: i32) -> i32:
        x = a
        y = b
        while True:
            if y == 0:
                return x
            x, y = y, x % y

    @kernel
    def k(out: Vec[i32]):
        out[0] = gcd(84, 36)

    out = np.zeros(1, np.int32)
    launch(k, out, block=1)
    assert out[0] == 12


def test_record_and_variant_scalar_parameters_from_host_values():
    @record
    class P2:
        x: f32
        y: f32

    @variant
    class S2:
        Circle: f32
        Empty: ()

    @kernel
    def k(p: P2, s: S2, out: Vec[f32]):
        out[0] = p.x + p.y
        match s:
            case S2.Circle(r):
                out[1] = r
            case _:
                out[1] = -1.0

    out = np.zeros(2, np.float32)
    k.launch(P2(1.0, 2.0), S2.Circle(5.0), out, grid=1, device="interp")
    assert list(out) == [3.0, 5.0]
    k.launch(P2(1.0, 2.0), S2.Empty(), out, grid=1, device="interp")
    assert out[1] == -1.0


def test_every_gpu_name_compiles():
    import sarek.gpu as g

    @kernel
    def k(iv: Vec[i32], fv: Vec[f32]):
        t = g.thread_idx_x + g.thread_idx_y + g.thread_idx_z
        b = g.block_idx_x + g.block_idx_y + g.block_idx_z
        d = g.block_dim_x + g.block_dim_y + g.block_dim_z
        gd = g.grid_dim_x + g.grid_dim_y + g.grid_dim_z
        gi = g.global_idx_x + g.global_idx_y + g.global_idx_z
        w = g.global_thread_id + g.global_size + g.lane_id + g.warp_size
        g.barrier()
        g.warp_barrier()
        g.mem_fence()
        x = g.atomic_add(iv, 0, 1) + g.atomic_sub(iv, 1, 1) + g.atomic_min(iv, 2, t) + g.atomic_max(iv, 3, b)
        x += g.atomic_exch(iv, 4, d) + g.atomic_cas(iv, 5, 0, gd) + g.atomic_and(iv, 6, gi)
        x += g.atomic_or(iv, 7, w) + g.atomic_xor(iv, 8, 3)
        y = g.warp_shuffle(fv[0], 0) + g.warp_shuffle_up(fv[1], 1) + g.warp_shuffle_down(fv[2], 1)
        y += g.warp_shuffle_xor(fv[3], 1) + g.atomic_add(fv, 4, 1.0)
        s = g.shared(f32, 8)
        loc = g.local_array(i32, 2)
        loc[0] = x
        s[0] = y
        iv[9] = loc[0] + len(iv)
        fv[5] = s[0]

    names = {op.callee.data for op in k.module.walk() if op.name == "sarek.intrinsic"}
    assert {"atomic_cas", "warp_shuffle_up", "lane_id", "warp_size", "global_size", "grid_dim_z"} <= names
    assert {"sarek.barrier", "sarek.warp_barrier", "sarek.mem_fence"} <= set(ops(k))
    iv, fv = np.zeros(10, np.int32), np.zeros(6, np.float32)
    launch(k, iv, fv, block=1)
    assert iv[0] == 1 and iv[5] == 3  # atomic_add; atomic_cas swapped 0 for grid_dim x+y+z = 3


def test_every_math_name_compiles_and_f64_literals_follow():
    from sarek.dialect.intrinsics import BINARY_FLOAT, UNARY_FLOAT

    @kernel
    def k(v: Vec[f64], out: Vec[f64]):
        x = v[0]
        out[0] = sm.sqrt(x) + sm.exp(x) + sm.log(x) + sm.sin(x) + sm.cos(x) + sm.pow(x, 2.0) + sm.fabs(-x)
        out[1] = sm.floor(x) + sm.ceil(x) + sm.fmin(x, 0.5) + sm.fmax(x, 0.5) + sm.tan(x) + sm.atan(x)
        out[2] = sm.hypot(x, 1.0) + sm.fma(x, 2.0, 1.0) + sm.copysign(1.0, -x) + sm.fmod(x, 0.3) + sm.rsqrt(x)
        out[3] = sm.exp2(x) + sm.log2(x) + sm.log10(x) + sm.cbrt(x) + sm.round(x) + sm.trunc(x) + sm.expm1(x)
        out[4] = sm.log1p(x) + sm.asin(0.5) + sm.acos(0.5) + sm.sinh(x) + sm.cosh(x) + sm.tanh(x) + sm.atan2(x, 1.0)
        out[0] += (sm.erf(x) + sm.erfc(x) + sm.atanh(x * 0.5) + sm.lgamma(x)) * 0.0

    names = {op.callee.data for op in k.module.walk() if op.name == "sarek.intrinsic"}
    assert set(UNARY_FLOAT) | set(BINARY_FLOAT) | {"fma"} <= names
    v, out = np.array([0.7]), np.zeros(5)
    launch(k, v, out, block=1)
    x = 0.7
    assert out[0] == pytest.approx(np.sqrt(x) + np.exp(x) + np.log(x) + np.sin(x) + np.cos(x) + x * x + x)
