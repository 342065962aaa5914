"""sarek fuzz kernel, seed 800651 (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""

from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant, u32
from sarek import math as sm
from sarek.gpu import barrier, global_thread_id, local_array, shared, thread_idx_x



@kernel
def fz800651(ai: Vec[i32], af: Vec[f32], an: Vec[u32], oi: Vec[i32], of: Vec[f32], on: Vec[u32], acc: Vec[i32], n: i32):
    t = thread_idx_x
    v1 = i32((2.0 - 7.0))
    v2 = (((v1 + t) if (af[(v1 % n + n) % n] >= f32((-t))) else (-1 & -100)) % 32749)
    zn7 = an[abs(ai[abs(((1000 * v2) % 32749)) % n]) % n]
    zn7 = u32((u32(2147483648) << 1))


CASE = {'seed': 800651, 'grid': 2, 'block': 32, 'n': 64, 'outputs': {'oi': 5, 'of': 4}, 'i64': False, 'f64': False, 'lowprec': False, 'features': ['atomics', 'floatops', 'local', 'loops', 'narrow', 'records', 'shared'], 'narrow': 'u32'}
