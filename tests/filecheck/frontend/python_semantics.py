# RUN: sarek ir %s:params | filecheck %s --check-prefix=PARAMS
# RUN: sarek ir %s:tuples | filecheck %s --check-prefix=TUPLES
# RUN: sarek ir %s:tables | filecheck %s --check-prefix=TABLES
# RUN: sarek ir %s:literals | filecheck %s --check-prefix=LITERALS
# RUN: sarek ir %s:views | filecheck %s --check-prefix=VIEWS
# RUN: sarek ir %s:declared | filecheck %s --check-prefix=DECLARED
# RUN: sarek emit -t cuda %s:literals | filecheck %s --check-prefix=CUDA
# RUN: sarek emit -t wgsl %s:views | filecheck %s --check-prefix=WGSL

import math

import numpy as np

from sarek import Vec, device, f32, f64, i32, kernel, record
from sarek.gpu import global_thread_id, shared, thread_idx_x

TAPS = (0.25, 0.5, 0.25)
GRID = np.arange(6, dtype=np.int32).reshape(2, 3)


@record
class P:
    x: f32
    y: f32


@device
def bump(n: i32, p: P) -> f32:
    n += 1
    p.x = f32(n)
    return p.x + p.y


# a parameter the body assigns (or a field of) is a cell initialised with the argument
# PARAMS:      sarek.helper @bump(%n: i32 "n", %p: !sarek.record<@P> "p") -> f32 {
# PARAMS-NEXT:   %n_1 = sarek.let_mut "n" %n : i32
# PARAMS-NEXT:   %p_1 = sarek.let_mut "p" %p : !sarek.record<@P>
# PARAMS:        sarek.field_ref %p_1 "x" : !sarek.ref<f32>
# PARAMS:      sarek.kernel @params(%o: !sarek.vec<f32> "o", %s: f32 "s")
# PARAMS-NEXT:   %s_1 = sarek.let_mut "s" %s : f32
@kernel
def params(o: Vec[f32], s: f32):
    s = s * 2.0
    o[0] = bump(1, P(s, s))


@device
def two(x: f32) -> tuple[f32, i32]:
    return x * 2.0, 1


# a tuple return is a record of the element types, taken apart field by field
# TUPLES:      sarek.record @tuple_f32_i32 {e0 : f32, e1 : i32}
# TUPLES:      sarek.helper @two(%x: f32 "x") -> !sarek.record<@tuple_f32_i32> {
# TUPLES:        %[[R:.*]] = sarek.make_record @tuple_f32_i32(%{{.*}}, %{{.*}})
# TUPLES-NEXT:   sarek.return %[[R]] : !sarek.record<@tuple_f32_i32>
# TUPLES:      sarek.kernel @tuples
# TUPLES:        %[[T:.*]] = sarek.call @two
# TUPLES-NEXT:   sarek.field %[[T]] "e0" : f32
# TUPLES-NEXT:   sarek.field %[[T]] "e1" : i32
@kernel
def tuples(o: Vec[f32], c: Vec[i32]):
    p, q = two(o[0])
    a, b = q, p
    o[0] = b
    c[0] = a


# a constant index folds; a run-time one reads a local table built at the function's entry
# TABLES:      sarek.kernel @tables
# TABLES-NEXT:   %[[N:.*]] = sarek.constant 2 : i32
# TABLES-NEXT:   %[[M:.*]] = sarek.constant 3 : i32
# TABLES-NEXT:   %GRID = sarek.alloc_array "GRID"[%[[N]], %[[M]]] : !sarek.array<i32, local, 2>
# TABLES:        %TAPS = sarek.alloc_array "TAPS"[%{{.*}}] : !sarek.array<f32, local>
# TABLES:        %[[C:.*]] = sarek.constant 0.25 : f32
# TABLES-NEXT:   sarek.store %{{.*}}, %[[C]] : !sarek.ref<f32>
# TABLES:        sarek.for
# TABLES:          sarek.array_read %TAPS[%k] : !sarek.array<f32, local>
# TABLES:        sarek.constant 0.5 : f32
# TABLES:        sarek.array_read %GRID[%{{.*}}, %{{.*}}] : !sarek.array<i32, local, 2>
@kernel
def tables(o: Vec[f32], n: i32):
    acc = 0.0
    for k in range(3):
        acc += TAPS[k]
    o[0] = acc + TAPS[1] + f32(GRID[n % 2, n % 3])


# float('inf'), -math.inf, math.nan; `t = 0.0` then `t = <f64>`: the literal is f64
# LITERALS:    sarek.kernel @literals
# LITERALS:      sarek.constant 0x7F800000 : f32
# LITERALS:      sarek.constant 0xFFF0000000000000 : f64
# LITERALS:      sarek.constant 0x7FC00000 : f32
# LITERALS:      %[[Z:.*]] = sarek.constant 0.0 : f64
# LITERALS-NEXT: %t = sarek.let_mut "t" %[[Z]] : f64
# LITERALS:      sarek.constant 2.0 : f64
# CUDA:        a[0] = (1.0f / 0.0f);
# CUDA:        b[0] = (-1.0 / 0.0);
# CUDA:        a[1] = (0.0f / 0.0f);
@kernel
def literals(a: Vec[f32], b: Vec[f64]):
    a[0] = float('inf')
    b[0] = -math.inf
    a[1] = math.nan
    t = 0.0
    t = b[1]
    b[2] = t * 2.0


# a view is base + offset at each use; a choice of arrays reads both under the condition
# VIEWS:       sarek.kernel @views
# VIEWS:         %[[S:.*]] = sarek.alloc_array "s"
# VIEWS:         %[[I:.*]] = sarek.if_expr %c -> f32 {
# VIEWS-NEXT:      %[[J:.*]] = sarek.binop add %{{.*}}, %[[OFF:.*]] : i32
# VIEWS-NEXT:      sarek.array_read %a[%[[J]]] : !sarek.vec<f32>
# VIEWS:         } else {
# VIEWS-NEXT:      %[[K:.*]] = sarek.binop add %{{.*}}, %[[OFF]] : i32
# VIEWS-NEXT:      sarek.array_read %b[%[[K]]] : !sarek.vec<f32>
# VIEWS:         sarek.elem_ref %[[S]][%{{.*}}] : !sarek.array<f32, shared>
# WGSL:        if ((params.c != 0i)) {
# WGSL-NEXT:     sarek_t = a[(i32(sarek_gid.x) + 4i)];
# WGSL-NEXT:   } else {
# WGSL-NEXT:     sarek_t = b[(i32(sarek_gid.x) + 4i)];
@kernel
def views(a: Vec[f32], b: Vec[f32], c: bool):
    s = shared(f32, 64)
    w = (a if c else b)[4:]
    half = s[thread_idx_x // 32 * 32:]
    half[thread_idx_x % 32] = w[global_thread_id]


# `x: bool` declares the type of the later assignments
# DECLARED:    %[[F:.*]] = sarek.constant false
# DECLARED-NEXT: %done = sarek.let_mut "done" %[[F]] : i1
# DECLARED:    %[[G:.*]] = sarek.constant 1.0 : f32
# DECLARED-NEXT: sarek.store %acc, %[[G]] : !sarek.ref<f32>
@kernel
def declared(o: Vec[f32], n: i32):
    done: bool
    acc: f32
    if n > 0:
        done = True
    else:
        done = False
    acc = 1
    o[0] = acc if done else 0.0
