"""sarek fuzz kernel, seed 401754 (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""

from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import atomic_and, atomic_min, barrier, global_thread_id, lane_id, shared, thread_idx_x, warp_shuffle, warp_shuffle_xor



@kernel
def fz401754(ai: Vec[i32], af: Vec[f32], a2: Array[i32, 2], oi: Vec[i32], of: Vec[f32], acc: Vec[i32], n: i32):
    v2 = -12
    v2 = warp_shuffle(v2, lane_id - lane_id % 4 + 2)
    atomic_and(acc, 6 + abs((-2 >> (v2 & 15))) % 2, abs(sm.clz(13)))


CASE = {'seed': 401754, 'grid': 1, 'block': 64, 'n': 64, 'outputs': {'oi': 3, 'of': 4}, 'i64': False, 'f64': False, 'lowprec': False, 'features': ['arrays', 'atomics', 'floatops', 'math', 'records', 'shared', 'warp']}
