# RUN: not sarek ir %s:mixed 2>&1 | filecheck %s --check-prefix=MIXED
# RUN: not sarek ir %s:nofield 2>&1 | filecheck %s --check-prefix=NOFIELD
# RUN: not sarek ir %s:cross2 2>&1 | filecheck %s --check-prefix=CROSS2
# RUN: not sarek ir %s:scalar 2>&1 | filecheck %s --check-prefix=SCALAR
# RUN: not sarek ir %s:cond 2>&1 | filecheck %s --check-prefix=COND
# RUN: not sarek ir %s:allscalar 2>&1 | filecheck %s --check-prefix=ALLSCALAR
# RUN: not sarek ir %s:intlen 2>&1 | filecheck %s --check-prefix=INTLEN
# RUN: not sarek ir %s:boolarith 2>&1 | filecheck %s --check-prefix=BOOLARITH

from sarek import Vec, f32, f32x2, f32x3, f64, i32, i32x2, i32x4, kernel
from sarek import math as sm


@kernel
def mixed(a: Vec[f32x3], b: Vec[i32x2]):
    a[0] = a[0] + b[0]

# MIXED: vector_errors.py:16:12: error: type mismatch in '+': f32x3 and i32x2 (vector operands must have the same vector type)


@kernel
def nofield(a: Vec[f32x3], o: Vec[f32]):
    o[0] = a[0].w

# NOFIELD: vector_errors.py:23:12: error: record f32x3 has no field 'w'


@kernel
def cross2(a: Vec[f32x2]):
    a[0] = sm.cross(a[0], a[1])

# CROSS2: vector_errors.py:30:12: error: sarek.math.cross() takes 3-vectors, got f32x2


@kernel
def scalar(a: Vec[f32x3], s: f64):
    a[0] = a[0] * s

# SCALAR: vector_errors.py:37:12: error: type mismatch in '*': f32x3 and f64 (a f32x3 combines with f32x3 or f32 values; convert the scalar, e.g. f32(x))


@kernel
def cond(a: Vec[f32x3]):
    if a[0] < a[1]:
        a[0] = a[1]

# COND: vector_errors.py:44:8: error: a condition must be bool, got boolx3 (a vector comparison holds one bool per lane: reduce it with all(...) or any(...))


@kernel
def allscalar(a: Vec[f32], n: i32):
    if all(a[0] < 1.0):
        a[0] = 1.0

# ALLSCALAR: vector_errors.py:52:12: error: all() in a kernel takes a bool vector (a vector comparison such as v < w), got bool


@kernel
def intlen(a: Vec[i32x4], o: Vec[f32]):
    o[0] = sm.length(a[0])

# INTLEN: vector_errors.py:60:12: error: sarek.math.length() takes a float vector, got i32x4


@kernel
def boolarith(a: Vec[f32x3]):
    c = (a[0] < a[1]) + (a[1] < a[0])

# BOOLARITH: vector_errors.py:67:9: error: operator '+' does not apply to boolx3 (a bool vector takes &, | and ^)
