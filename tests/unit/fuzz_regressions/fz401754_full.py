"""sarek fuzz kernel, seed 401754 (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""

from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import atomic_and, atomic_min, barrier, global_thread_id, lane_id, shared, thread_idx_x, warp_shuffle, warp_shuffle_xor


@record
class Fz401754R:
    a: i32
    b: f32

@kernel
def fz401754(ai: Vec[i32], af: Vec[f32], a2: Array[i32, 2], oi: Vec[i32], of: Vec[f32], acc: Vec[i32], n: i32):
    i = global_thread_id
    t = thread_idx_x
    v1 = min(t, (i & t))
    v2 = -12
    g3 = (-(7.0 if (-2 == 10) else 1.5))
    g4 = sm.trunc(af[(abs(v1) % n + n) % n])
    g5 = sm.fmin(sm.fmax(sm.fabs(g4), -256.0), 256.0)
    p = Fz401754R(a=(t >> ((-44) & 15)), b=g5)
    s6 = shared(i32, (4, 16))
    s6[t // 16, t % 16] = v1
    barrier()
    v1 = s6[(t + 13) % 64 // 16, (t + 13) % 16]
    barrier()
    s7 = shared(f32, (4, 16))
    s7[t // 16, t % 16] = g5
    barrier()
    g5 = s7[(t + 34) % 64 // 16, (t + 34) % 16]
    barrier()
    v1 = warp_shuffle(v1, lane_id - lane_id % 4 + 3)
    v2 = warp_shuffle(v2, lane_id - lane_id % 4 + 2)
    g3 = warp_shuffle(g3, lane_id - lane_id % 4 + 2)
    g4 = warp_shuffle(g4, lane_id - lane_id % 4 + 2)
    g5 = warp_shuffle_xor(g5, 1)
    atomic_and(acc, 6 + abs((-2 >> (v2 & 15))) % 2, abs(sm.clz(13)))
    atomic_min(acc, 2 + (v2 % 2 + 2) % 2, (((v1 if (v2 < v1) else v1) + 2) % 32749))
    g5 = sm.fmin(sm.fmax(g5 + -f32(3), -256.0), 256.0)
    oi[i * 3 + 0] = v1
    oi[i * 3 + 1] = v2
    oi[i * 3 + 2] = p.a
    of[i * 4 + 0] = g3
    of[i * 4 + 1] = g4
    of[i * 4 + 2] = g5
    of[i * 4 + 3] = p.b


CASE = {'seed': 401754, 'grid': 1, 'block': 64, 'n': 64, 'outputs': {'oi': 3, 'of': 4}, 'i64': False, 'f64': False, 'lowprec': False, 'features': ['arrays', 'atomics', 'floatops', 'math', 'records', 'shared', 'warp']}
