# RUN: sarek ir %s:classify | filecheck %s --check-prefix=CLASS
# RUN: sarek ir %s:clamps | filecheck %s --check-prefix=CLAMP
# RUN: not sarek ir %s:not_float 2>&1 | filecheck %s --check-prefix=NOTFLOAT
# RUN: not sarek ir %s:mixed 2>&1 | filecheck %s --check-prefix=MIXED
# isnan/isinf/isfinite are tests on the bits (|bits| against the bits of +inf, so no fast-math folds them);
# clamp(x, lo, hi) is numpy's clip: two lazy selects (a NaN x stays NaN), unsigned compares on u32.

import math

from sarek import Vec, f32, f64, i32, kernel, u32
from sarek import math as sm
from sarek.gpu import global_thread_id


@kernel
def classify(x: Vec[f32], y: Vec[f64], o: Vec[i32]):
    i = global_thread_id
    o[i] = i32(sm.isnan(x[i])) + i32(math.isinf(x[i])) + i32(sm.isfinite(y[i]))

# CLASS:      %[[B:[0-9]+]] = sarek.bitcast %{{[0-9]+}} : f32 to i32
# CLASS-NEXT: %[[M:[0-9]+]] = sarek.constant 2147483647 : i32
# CLASS-NEXT: %[[A:[0-9]+]] = sarek.binop bitand %[[B]], %[[M]] : i32
# CLASS-NEXT: %[[I:[0-9]+]] = sarek.constant 2139095040 : i32
# CLASS-NEXT: %{{[0-9]+}} = sarek.binop gt %[[A]], %[[I]] : i32
# CLASS:      sarek.binop eq %{{[0-9]+}}, %{{[0-9]+}} : i32
# CLASS:      sarek.bitcast %{{[0-9]+}} : f64 to i64
# CLASS:      sarek.constant 9223372036854775807 : i64
# CLASS:      sarek.constant 9218868437227405312 : i64
# CLASS-NEXT: sarek.binop lt %{{[0-9]+}}, %{{[0-9]+}} : i64


@kernel
def clamps(x: Vec[f32], u: Vec[u32]):
    i = global_thread_id
    x[i] = sm.clamp(x[i], 0.0, 1.0)
    u[i] = sm.clamp(u[i], u32(5), u32(3000000000))

# CLAMP:      %[[X:[0-9]+]] = sarek.array_read %x[%i] : !sarek.vec<f32>
# CLAMP-NEXT: %[[LO:[0-9]+]] = sarek.constant 0.0 : f32
# CLAMP-NEXT: %[[HI:[0-9]+]] = sarek.constant 1.0 : f32
# CLAMP-NEXT: %[[GT:[0-9]+]] = sarek.binop gt %[[X]], %[[HI]] : f32
# CLAMP-NEXT: %[[UP:[0-9]+]] = sarek.if_expr %[[GT]] -> f32 {
# CLAMP-NEXT:   sarek.yield %[[HI]] : f32
# CLAMP-NEXT: } else {
# CLAMP-NEXT:   sarek.yield %[[X]] : f32
# CLAMP-NEXT: }
# CLAMP-NEXT: %[[LT:[0-9]+]] = sarek.binop lt %[[X]], %[[LO]] : f32
# CLAMP-NEXT: %{{[0-9]+}} = sarek.if_expr %[[LT]] -> f32 {
# CLAMP-NEXT:   sarek.yield %[[LO]] : f32
# CLAMP-NEXT: } else {
# CLAMP-NEXT:   sarek.yield %[[UP]] : f32
# CLAMP-NEXT: }
# CLAMP:      sarek.binop gt %{{[0-9]+}}, %{{[0-9]+}} : ui32


@kernel
def not_float(x: Vec[i32]):
    x[0] = i32(sm.isnan(x[0]))

# NOTFLOAT: float_class_clamp.py:58:25: error: sm.isnan() needs a float (f16, bf16, f32 or f64), got i32


@kernel
def mixed(x: Vec[f32], k: Vec[i32]):
    x[0] = sm.clamp(x[0], k[0], 1.0)

# MIXED: float_class_clamp.py:65:12: error: type mismatch: sm.clamp() needs numbers of one type (integers or floats), got (f32, i32, f32)
