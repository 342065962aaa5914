"""Kernels from issue 21's fuzz campaign (the minimal reproducers), used by tests/unit/test_fuzz_regressions.py."""

from sarek import Vec, bf16, device, f32, f64, i16, i32, i64, kernel, u8, u32, u64, variant
from sarek import math as sm
from sarek.gpu import global_thread_id, local_array, shared


@kernel
def neg_literal(out: Vec[f32], oi: Vec[i64], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = -f32(-7) + (-(-7.5))
        oi[i] = -i64(-7)


@kernel
def bool_cast(o: Vec[i32]):
    i = global_thread_id
    o[i] = i32(True) + 1 + i32(False)


@kernel
def bitwise_const_cast(o: Vec[f32]):
    i = global_thread_id
    o[i] = f32(5 & 3) + f32(2 >> 0) * 10.0 + f32(6 | 1) * 100.0 + f32(6 ^ 3) * 1000.0


@kernel
def chained_literals(a: Vec[i64], o: Vec[i32]):
    i = global_thread_id
    o[i] = i32(7 != 1 <= a[i]) + 10 * i32(1 < 3000000000) + 100 * i32(3000000000 > a[i])


@device
def bump(x: i32) -> i32:
    x = x + 1
    return x


@kernel
def assigns_param(o: Vec[i32]):
    i = global_thread_id
    o[i] = bump(i)


@kernel
def big_f32(o: Vec[f32]):
    i = global_thread_id
    o[i] = 1e39


@kernel
def big_f64_ok(o: Vec[f32]):
    i = global_thread_id
    x: f64 = 1e39
    o[i] = f32(x > f64(0.0))


@kernel
def shared_zero(o: Vec[f32]):
    s = shared(f32, 0)
    o[0] = s[0]


@kernel
def local_negative(o: Vec[i32]):
    t = local_array(i32, -4)
    o[0] = t[0]


@variant
class Fzr:
    A: f32
    B: i32


@device
def partial(s: Fzr) -> f32:
    match s:
        case Fzr.A(r):
            return r


@kernel
def uses_partial(a: Vec[Fzr], o: Vec[f32]):
    i = global_thread_id
    o[i] = partial(a[i])


@device
def complete(s: Fzr) -> f32:
    match s:
        case Fzr.A(r):
            return r
        case Fzr.B(k):
            return f32(k)


@kernel
def uses_complete(a: Vec[Fzr], o: Vec[f32]):
    i = global_thread_id
    o[i] = complete(a[i])


@kernel
def div_mod_identity(x: Vec[f32], y: Vec[f32], q: Vec[f32], r: Vec[f32], back: Vec[f32]):
    i = global_thread_id
    q[i] = x[i] // y[i]
    r[i] = x[i] % y[i]
    back[i] = (x[i] // y[i]) * y[i] + x[i] % y[i]


@kernel
def popcount_abs(a: Vec[i32], o: Vec[i32]):
    i = global_thread_id
    o[i] = abs(sm.popcount(a[i])) + abs(sm.clz(a[i]))


@kernel
def minmax_i64(a: Vec[i64], o: Vec[i64]):
    i = global_thread_id
    o[i] = max(a[i], i64(3)) + min(a[i], i64(-3000000000))


@variant
class Step:
    Stop: ()
    Go: i32


@kernel
def break_then_dead_code(a: Vec[i32], o: Vec[i32]):
    """Fuzz seed 400616: `if 1 < 2: break` in a match case folds to a bare break followed by `a[i] // 3`;
    sarek-hoist-match-breaks erased the dead statements in order ('delete SSA value that still has uses')."""
    i = global_thread_id
    s = Step.Stop()
    if a[i] > 50:
        s = Step.Go(a[i])
    w = 0
    while w < 3:
        match s:
            case Step.Stop():
                if 1 < 2:
                    break
                o[i] = a[i] // 3
            case _:
                o[i] = o[i] + 1
        w += 1


@kernel
def widened_f32_constants(x: Vec[f32], o: Vec[f64]):
    """Fuzz seed 202387: glslang folded `double((-7.0) / (abs(5.0) + 1.0))` in double on vulkan-glsl."""
    i = global_thread_id
    o[i * 3 + 0] = f64(f32(-7.0) / (abs(f32(5.0)) + 1.0))
    o[i * 3 + 1] = f64(sm.sqrt(f32(2.0)) * f32(3.0))
    o[i * 3 + 2] = f64(x[i] / 3.0)


@kernel
def print_narrow(a: Vec[u8], b: Vec[i16], c: Vec[bf16]):
    """print(...) of 8/16-bit and bf16 values was an internal error ('print takes scalar values, got ui8')."""
    i = global_thread_id
    print(a[i], b[i], c[i], u8(a[i] + 10))


@kernel
def print_u64(a: Vec[u64]):
    i = global_thread_id
    print(a[i])


@kernel
def unsigned_cast_of_negative_literal(o: Vec[u64]):
    """Fuzz seed 179: `u32(abs(-7))` said 'integer literal -7 does not fit in u32' (the cast's type reached the
    literal inside abs/min); C computes the argument in int and converts."""
    i = global_thread_id
    o[i * 3 + 0] = u64(u32(abs(-7)))
    o[i * 3 + 1] = u64(u32(min(-7, 3)))
    o[i * 3 + 2] = u64(u8(abs(-300)) + u8(max(-1, -2)))


@kernel
def float_cast_of_shift(o: Vec[f32]):
    """`f32(1 << abs(-1))` said "operator '<<' needs integers, got f32": a float cast's type reached the
    literals of a bit operator through `abs` (found by the fuzz generator's run-time power-of-two divisor)."""
    o[0] = f32(1 << abs(-1))
    o[1] = f32(1 << (abs(-3) % 4))
    o[2] = f32(abs(-7) & 3)
    o[3] = f32(5 >> abs(-1))
