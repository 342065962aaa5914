"""sarek fuzz kernel, seed 500005 of the old generator (H200: NVIDIA OpenCL and Vulkan disagree): float `//` of a
quotient that is an integer (8.25 // 8.25) is one less under a division that is not correctly rounded.
test_fuzz_regressions replays it on the interp-div device."""

from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import global_thread_id, local_array


@kernel
def fz500005(ai: Vec[i32], af: Vec[f32], oi: Vec[i32], of: Vec[f32], acc: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        v1 = i32((ai[i] > i))
        v2 = (((v1 + 100) ^ (i + v1)) % 32749)
        v3 = (((17 * i) & 1023) << 2)
        g4 = 0.0
        g5 = sm.fmin(sm.fmax((af[i] if (ai[i] >= 7) else (g4 - 0.75)), -1000.0), 1000.0)
        g6 = sm.fmin(sm.fmax((sm.fmin(sm.fmax(f32(v1), -10000.0), 10000.0) - (af[i] if (ai[i] >= v1) else af[(i32(-f32(3)) % n + n) % n])), -256.0), 256.0)
        la = local_array(i32, 4)
        for q7 in range(4):
            la[q7] = v1
        v3 = la[(i32((v2 != v1)) % 4 + 4) % 4]
        g6 = sm.fmin(sm.fmax(g6 + sm.fmin(sm.fmax(((g6 // (abs(af[i]) + 1.0)) * (f32(-7) % (abs(2.0) + 1.0))), -256.0), 256.0), -256.0), 256.0)
        v3 = i32((v2 == v2))
        v2 = abs(i)
        g5 = (abs(2.0) % (abs((-(-0.25) + -3.5)) + 1.0))
        g5 = g4
        oi[i * 3 + 0] = v1
        oi[i * 3 + 1] = v2
        oi[i * 3 + 2] = v3
        of[i * 3 + 0] = g4
        of[i * 3 + 1] = g5
        of[i * 3 + 2] = g6


CASE = {'seed': 500005, 'grid': 2, 'block': 64, 'n': 128, 'outputs': {'oi': 3, 'of': 3}, 'i64': False, 'f64': False, 'lowprec': False, 'features': ['fatomic', 'floatops', 'jumps', 'local']}
