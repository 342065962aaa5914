"""sarek fuzz kernel, seed 600207 of the old generator (H200: NVIDIA OpenCL and Vulkan disagree): float `//` of a
quotient that is an integer (8.25 // 8.25) is one less under a division that is not correctly rounded.
test_fuzz_regressions replays it on the interp-div device."""

from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import global_thread_id, local_array


@record
class Fz600207R:
    a: i32
    b: f32

@variant
class Fz600207V:
    A: i32
    B: (f32, i32)
    C: ()

@kernel
def fz600207(ai: Vec[i32], af: Vec[f32], ad: Vec[f64], a2: Array[i32, 2], a3: Array[i32, 3], oi: Vec[i32], of: Vec[f32], acc: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        v1 = (i & i32((100 >= ai[((ai[i] if ((-44) == 7 < ai[i]) else ai[abs((i >> 7)) % n]) % n + n) % n])))
        v2 = (i32((v1 >= -100 <= 1)) ^ (ai[i] & a2[abs((1 - i)) % a2.shape[0], abs((i & -38)) % a2.shape[1]]))
        g3 = 1.0
        p = Fz600207R(a=(0 & 8), b=(g3 / (abs(g3) + 1.0)))
        vv = Fz600207V.C()
        if (v1 < a3[abs(ai[abs(((i * v1) % 32749)) % n]) % a3.shape[0], (v2 % a3.shape[1] + a3.shape[1]) % a3.shape[1], abs(i) % a3.shape[2]]):
            vv = Fz600207V.A((i & 1))
        elif (i > i):
            vv = Fz600207V.B(af[abs((-v2)) % n], (v2 * 1))
        la = local_array(i32, (2, 2))
        for q4 in range(4):
            la[q4 // 2, q4 % 2] = v2
        v2 = la[(i32(af[((-v1) % n + n) % n]) % la.shape[0] + la.shape[0]) % la.shape[0], abs((255 >> (p.a & 15))) % 2]
        v2 = (((46 if (ad[abs((255 + -2)) % n] == ad[(((v2 - v2) % 32749) % n + n) % n]) else 35) - (v2 | -7)) % 32749)
        p.b = ((af[(i32((-42 <= i)) % n + n) % n] - af[((13 + 3) % n + n) % n]) // (abs((af[i] if (7 != a2[abs(i32((v1 > p.a))) % a2.shape[0], abs((16 | (-34))) % a2.shape[1]]) else af[((255 * -7) % n + n) % n])) + 1.0))
        v1 = (a3[(v2 % a3.shape[0] + a3.shape[0]) % a3.shape[0], abs(v2) % a3.shape[1], abs(ai[abs(((v2 - i) % 32749)) % n]) % a3.shape[2]] ^ i)
        v2 = i32(((f64(-3.5) < -f64(3)) or (v2 < v1)))
        v2 = i32((i != 7 != v1))
        for j5 in range(-1, -3, -1):
            g3 = ((af[i] - -3.5) // (abs(f32(i)) + 1.0))
        g3 = sm.fmin(sm.fmax(((g3 + 1.5) if (i >= a2[abs(ai[(v2 % n + n) % n]) % a2.shape[0], (((ai[abs(max(i, ai[abs((v2 if (ai[i] <= p.a) else v1)) % n])) % n] & v2) % 32749) % a2.shape[1] + a2.shape[1]) % a2.shape[1]]) else g3), -1000.0), 1000.0)
        of[i * 2 + 1] = p.b


CASE = {'seed': 600207, 'grid': 2, 'block': 64, 'n': 128, 'outputs': {'oi': 3, 'of': 2}, 'i64': False, 'f64': True, 'lowprec': False, 'features': ['arrays', 'arrays3', 'f64', 'floatops', 'local', 'loops', 'records', 'variants']}
