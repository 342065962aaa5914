"""sarek fuzz kernel, seed 202272 (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""

from sarek import Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import atomic_max, global_thread_id, lane_id, thread_idx_x, warp_shuffle, warp_shuffle_xor





@kernel
def fz202272(ai: Vec[i32], af: Vec[f32], al: Vec[i64], oi: Vec[i32], ol: Vec[i64], of: Vec[f32], acc: Vec[i32], n: i32):
    v5 = -100
    v5 = warp_shuffle_xor(v5, 1)
    atomic_max(acc, 4 + abs(v5) % 2, i32(0.0))


CASE = {'seed': 202272, 'grid': 1, 'block': 32, 'n': 32, 'outputs': {'oi': 2, 'ol': 1, 'of': 1}, 'i64': True, 'f64': False, 'lowprec': False, 'features': ['atomics', 'floatops', 'helpers', 'i64', 'loops', 'math', 'warp']}
