"""sarek fuzz kernel, seed 700150 of the generator before 2026-12-01 21:00 (interp-div disagrees): an inexact f32
quotient widened to f64 (`f64(-f32(-7) / (abs(g5) + 1.0))`) carries f32 rounding that the f64 tolerance does not
cover; a device whose f32 `/` is not correctly rounded (NVIDIA OpenCL, Vulkan) gives another f64 value."""

from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant
from sarek import math as sm
from sarek.gpu import atomic_max, global_thread_id, local_array


@kernel
def fz700150(ai: Vec[i32], af: Vec[f32], ad: Vec[f64], oi: Vec[i32], of: Vec[f32], od: Vec[f64], acc: Vec[i32], n: i32):
    i = global_thread_id
    v3 = i
    g4 = sm.cos((ad[i] if (v3 <= v3) else ad[i]))
    g5 = 100.0
    g4 -= f64((-f32(-7) / (abs(g5) + 1.0)))
    od[i * 2 + 0] = g4


CASE = {'seed': 700150, 'grid': 1, 'block': 32, 'n': 32, 'outputs': {'oi': 2, 'of': 1, 'od': 2}, 'i64': False, 'f64': True, 'lowprec': False, 'features': ['atomics', 'f64', 'floatops', 'helpers', 'local', 'math', 'variants']}
