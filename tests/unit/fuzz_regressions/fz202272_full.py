"""sarek fuzz kernel, seed 202272 (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""

from sarek import Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import atomic_max, global_thread_id, lane_id, thread_idx_x, warp_shuffle, warp_shuffle_xor


@device
def fz202272_h0(x0: f32, x1: i32, x2: f32) -> i32:
    y1 = x1
    return x1

@device
def fz202272_h1(x0: f32) -> i64:
    return (((i64((-2)) ^ 3000000000) % 1000003) * ((i64(-2) | i64(12345678901)) % 1000003))

@device
def fz202272_h2(x0: i32) -> f32:
    y2 = 1
    if ((i64(-30) == -100 != (-3000000000)) or (y2 >= 5)):
        return ((-f32(3) / (abs(-7.0) + 1.0)) / (abs((7.0 - -f32(-7))) + 1.0))
    return (0.0 / (abs(f32(i64(8589934597))) + 1.0))

@kernel
def fz202272(ai: Vec[i32], af: Vec[f32], al: Vec[i64], oi: Vec[i32], ol: Vec[i64], of: Vec[f32], acc: Vec[i32], n: i32):
    i = global_thread_id
    t = thread_idx_x
    v3 = (-(i64(3000000000) % (abs(i64(1000)) % 13 + 1)))
    v4 = i
    v5 = -100
    g6 = 0.75
    v5 = warp_shuffle_xor(v5, 1)
    g6 = warp_shuffle(g6, lane_id - lane_id % 4 + 1)
    atomic_max(acc, 4 + abs(v5) % 2, i32(0.0))
    if ((v3 - 8589934597) != (i64(5) | v3)):
        v4 >>= 2
    v5 = max((3 + t), i32(-7.0))
    oi[i * 2 + 0] = v4
    oi[i * 2 + 1] = v5
    ol[i * 1 + 0] = v3
    of[i * 1 + 0] = g6


CASE = {'seed': 202272, 'grid': 1, 'block': 32, 'n': 32, 'outputs': {'oi': 2, 'ol': 1, 'of': 1}, 'i64': True, 'f64': False, 'lowprec': False, 'features': ['atomics', 'floatops', 'helpers', 'i64', 'loops', 'math', 'warp']}
