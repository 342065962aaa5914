"""sarek fuzz kernel, seed 901311 (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""

import sarek
from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant, i16, i8, u16, u32
from sarek import math as sm
from sarek.gpu import barrier, global_thread_id, local_array, shared, thread_idx_x


@record
class Fz901311R:
    a: i32
    b: f32

@device
def fz901311_h0(x0: f32) -> i32:
    return i32((i32(u32(abs(i32((-14 >= -17))) % 1009) ^ u32((-43 != 5))) == 5))

@device
def fz901311_h1(x0: i32) -> f32:
    y1 = x0
    y1 = ((max(x0, x0) - (y1 ^ y1)) % 32749)
    for j2 in range(-2, 2, 2):
        y1 |= i32((-7.0))
    return 2.0

@device
def fz901311_h2(x0: f64, x1: f64, x2: f32) -> f64:
    if (i32(-i32((1 <= 4 != 3))) <= 11):
        return max((f64(0.75) / (abs(x0) + 1.0)), -(-7.0))
    return sm.fmin(sm.fmax(((f64(0.5) % (abs(f64(-0.25)) + 1.0)) - x0), -1000.0), 1000.0)

@kernel
def fz901311(ai: Vec[i32], af: Vec[f32], ad: Vec[f64], oi: Vec[i32], of: Vec[f32], od: Vec[f64], acc: Vec[i32], n: i32):
    i = global_thread_id
    t = thread_idx_x
    v3 = (-i)
    v4 = ((-((1 & 1023) << 9)) % 32749)
    g5 = f32(len(af))
    g6 = (((sm.floor((ad[(((v3 - v3) % 32749) % n + n) % n] * ad[(fz901311_h0(g5) % n + n) % n])) + 0.75) * (abs((f64(min(t, -26)) - f64(-7))) + 1.0)) // (abs((f64(min(t, -26)) - f64(-7))) + 1.0))
    p = Fz901311R(a=(t // (abs((-1)) % 13 + 1)), b=(af[abs((2 - ai[(((sarek.bitcast(g5, i32) & 2147483647) % 1009) % n + n) % n])) % n] - af[(len(ai) % n + n) % n]))
    z7 = local_array(f32, (4, 2))
    v3 = ((v3 + i32(z7[(abs(i32(u32((t > t)))) % 4 + 4) % 4, abs((5 % (abs(v3) % 13 + 1))) % 2])) % 32749)
    z7[(i32(-i16(((0.75 < ad[i]) and (f64(-(-3.5)) >= 0.75)))) % 4 + 4) % 4, (((255 * v3) % 32749) % 2 + 2) % 2] = f32(i32(i32(False)))
    v3 = ((v3 + i32(z7[abs(i32((ad[i] == ad[i]))) % 4, (len(af) % 2 + 2) % 2])) % 32749)
    s8 = shared(i32, 32)
    s8[t] = v3
    barrier()
    v3 = s8[(t + 28) % 32]
    barrier()
    s9 = shared(f32, 32)
    s9[t] = g5
    barrier()
    g5 = s9[(t + 15) % 32]
    barrier()
    for j10 in range(2, 8, 3):
        w11 = 0
        while w11 < 3:
            v3 = (((100 ^ i) | (p.a + v4)) % 32749)
            w11 += 1
    for j12 in range(2, 1, -1):
        v3 = i32((t != t))
    print("p1", (f64(0.0) * sm.fmin(sm.fmax(f64(min(v4, i)), -10000.0), 10000.0)), v4, g5)
    oi[i * 3 + 0] = v3
    oi[i * 3 + 1] = v4


CASE = {'seed': 901311, 'grid': 1, 'block': 32, 'n': 32, 'outputs': {'oi': 3, 'of': 2, 'od': 1}, 'i64': False, 'f64': True, 'lowprec': False, 'features': ['atomics', 'bitcast', 'boolcast', 'f64', 'floatops', 'helpers', 'loops', 'print', 'records', 'shared', 'zeroinit'], 'shapes': ['boolcast-f64', 'boolcast-i16', 'boolcast-i32', 'boolcast-i8', 'boolcast-u16', 'boolcast-u32', 'boolcast-xor-u32', 'zeroinit-local-2d']}
