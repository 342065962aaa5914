"""Kernels over the 8/16-bit, unsigned and bf16 element types (issue 14): C's integer promotions, usual
arithmetic conversions and conversions on store. Emitted for every target by targets/<t>/small_types.py and run
on every device by tests/unit/test_small_types.py."""

from sarek import Vec, bf16, f32, i8, i16, i32, kernel, record, u8, u16, u32, u64
from sarek.gpu import global_thread_id


@record
class Pixel:
    r: u8
    g: u8
    b: u8
    a: u8


@kernel
def narrow(a: Vec[u8], b: Vec[i8], c: Vec[i16], d: Vec[u16], o8: Vec[u8], o16: Vec[i16], n: i32):
    i = global_thread_id
    if i < n:
        o8[i] = a[i] + b[i]
        o16[i] = (c[i] * d[i]) >> 3


@kernel
def unsigned(a: Vec[u32], b: Vec[u64], s: u32, o: Vec[u32], q: Vec[u64], f: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        o[i] = a[i] // s + (a[i] >> 3) % 7
        q[i] = b[i] * 3 - a[i]
        f[i] = i32(a[i] < s) + i32(b[i] >= 100) + i32(i32(-1) < a[i])


@kernel
def bf(a: bf16, x: Vec[bf16], y: Vec[bf16], z: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i]
        z[i] = f32(x[i])


@kernel
def rgba(p: Vec[Pixel], o: Vec[u8], n: i32):
    i = global_thread_id
    if i < n:
        o[i] = p[i].r // 2 + p[i].a // 2
        p[i].g = 255 - p[i].g


@kernel
def unsigned32(a: Vec[u32], s: u32, o: Vec[u32], f: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        o[i] = a[i] // s + (a[i] >> 3) % 7 - u32(i)
        f[i] = f32(a[i] < s) + f32(-a[i])
