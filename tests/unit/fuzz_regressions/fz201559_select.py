"""Seed 201559's reproducer with probes (NVIDIA Vulkan only: oi[145] = 0, reference 1): thread 48 is the only one
with ai[i] == 0, so the only one taking the `if`. Slot 0 records the branch condition, slot 2 the compare, slot 1
the result; on lavapipe and interp thread 48 has [1, 1, 1]. This variant spells the first abs as a select."""

from sarek import Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import global_thread_id


@record
class Fz201559R:
    a: i32
    b: f32


@kernel
def fz201559(ai: Vec[i32], af: Vec[f32], oi: Vec[i32], of: Vec[f32], acc: Vec[i32], n: i32):
    i = global_thread_id
    v1 = 255
    w = ai[abs(abs(i)) % n]
    v2 = -(w if w >= 0 else -w)  # abs as a select (the ptxas bug of seeds 202272/401754 is abs-related)
    g3 = ((af[(i % n + n) % n] if (af[((-ai[i]) % n + n) % n] != 0.75) else af[i]) if (i > v1) else (af[i] - 100.0))
    p = Fz201559R(a=((v2 | (-7)) % 32749), b=sm.fmin(sm.fmax((f32(((v1 & 1023) << 5)) if (v2 > v2) else af[abs(v1) % n]), -1000.0), 1000.0))
    oi[i * 3 + 0] = i32((0 * v1) <= v2)
    oi[i * 3 + 2] = i32((af[abs(i32(-(-0.25))) % n] != af[i]))
    if ((0 * v1) <= v2):
        v2 = (i32((af[abs(i32(-(-0.25))) % n] != af[i])) if (-2 != ai[i]) else v2)
    else:
        p.b = sm.fmin(sm.fmax((sm.fmin(sm.fmax((af[(((v1 + v1) % 32749) % n + n) % n] + sm.fmin(sm.fmax(f32(((v2 & v1) % 32749)), -10000.0), 10000.0)), -10000.0), 10000.0) % (abs((g3 % (abs(af[((p.a >> 3) % n + n) % n]) + 1.0))) + 1.0)), -1000.0), 1000.0)
    oi[i * 3 + 1] = v2


CASE = {'seed': 201559, 'grid': 1, 'block': 64, 'n': 64, 'outputs': {'oi': 3, 'of': 2}, 'i64': False, 'f64': False, 'lowprec': False, 'features': ['floatops', 'helpers', 'loops', 'records']}
