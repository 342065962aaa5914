"""sarek fuzz kernel, seed 800651 (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""

from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant, u32
from sarek import math as sm
from sarek.gpu import barrier, global_thread_id, local_array, shared, thread_idx_x


@record
class Fz800651R:
    a: i32
    b: f32

@kernel
def fz800651(ai: Vec[i32], af: Vec[f32], an: Vec[u32], oi: Vec[i32], of: Vec[f32], on: Vec[u32], acc: Vec[i32], n: i32):
    i = global_thread_id
    t = thread_idx_x
    v1 = i32((2.0 - 7.0))
    v2 = (((v1 + t) if (af[(v1 % n + n) % n] >= f32((-t))) else (-1 & -100)) % 32749)
    v3 = 1
    g4 = ((af[abs(abs(i)) % n] - af[((13 >> (ai[i] & 15)) % n + n) % n]) if (af[(((i & v3) % 32749) % n + n) % n] <= f32(v1)) else (af[i] + 1.0))
    g5 = abs((af[i] + af[i]))
    g6 = ((0.75 % (abs(g4) + 1.0)) % (abs(f32(t)) + 1.0))
    zn7 = an[abs(ai[abs(((1000 * v2) % 32749)) % n]) % n]
    zn7 = u32((u32(2147483648) << 1))
    p = Fz800651R(a=v3, b=g5)
    la = local_array(i32, 4)
    for q8 in range(4):
        la[q8] = (((i32((g4 == g6)) & 1023) << 7) % 32749)
    s9 = shared(i32, 32)
    s9[t] = v1
    barrier()
    v1 = s9[(t + 31) % 32]
    barrier()
    s10 = shared(f32, 32)
    s10[t] = g6
    barrier()
    g6 = s10[(t + 14) % 32]
    barrier()
    v1 = la[(-42 % 4 + 4) % 4]
    v1 ^= i32((g4 % (abs(100.0) + 1.0)))
    w11 = 0
    while w11 < 3:
        g5 -= g5
        g5 = sm.fmin(sm.fmax(g5, -1000.0), 1000.0)
        w12 = 0
        while w12 < 2:
            v2 = (-(-2 if (w11 != t) else v3))
            w12 += 1
        w11 += 1
    on[i] = zn7
    oi[i * 5 + 0] = v1
    oi[i * 5 + 1] = v2
    oi[i * 5 + 2] = v3
    oi[i * 5 + 3] = p.a
    oi[i * 5 + 4] = i32(zn7 % u32(1009))
    of[i * 4 + 0] = g4
    of[i * 4 + 1] = g5
    of[i * 4 + 2] = g6
    of[i * 4 + 3] = p.b


CASE = {'seed': 800651, 'grid': 2, 'block': 32, 'n': 64, 'outputs': {'oi': 5, 'of': 4}, 'i64': False, 'f64': False, 'lowprec': False, 'features': ['atomics', 'floatops', 'local', 'loops', 'narrow', 'records', 'shared'], 'narrow': 'u32'}
