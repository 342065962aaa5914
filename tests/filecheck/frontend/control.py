# RUN: sarek ir %s:control | filecheck %s

from sarek import Vec, i32, kernel
from sarek.gpu import global_thread_id

LIMIT = 10


@kernel
def control(v: Vec[i32], n: i32):
    i = global_thread_id
    if i < n and v[i] > 0:
        x = 1
    elif i < n:
        x = 2
    else:
        x = 3
    acc = 0
    for k in range(0, LIMIT, 2):
        acc += k
    while acc > x:
        acc -= 1
    if i < n:
        v[i] = acc if not (x == 3) else -acc

# mutables assigned on several paths are declared before the if with a default, then stored
# CHECK:      %[[Z:.*]] = sarek.constant 0 : i32
# CHECK-NEXT: %x = sarek.let_mut "x" %[[Z]] : i32
# `and` short-circuits through sarek.if_expr
# CHECK:      sarek.if_expr %{{.*}} -> i1 {
# CHECK:        sarek.array_read %v[%i] : !sarek.vec<i32>
# CHECK:      } else {
# CHECK-NEXT:   %{{.*}} = sarek.constant false
# CHECK:      sarek.if %{{.*}} {
# CHECK:        sarek.store %x, %{{.*}} : !sarek.ref<i32>
# CHECK:      } else {
# CHECK:        sarek.if %{{.*}} {
# CHECK:      %acc = sarek.let_mut "acc" %{{.*}} : i32
# the module constant LIMIT is folded
# CHECK:      %[[LIM:.*]] = sarek.constant 10 : i32
# CHECK:      sarek.for "k" %k = %{{.*}} to %[[LIM]] step 2 : i32 {
# CHECK:      sarek.while {
# CHECK:        sarek.yield %{{.*}} : i1
# CHECK:      } do {
# CHECK:      sarek.unop not
# CHECK:      sarek.if_expr %{{.*}} -> i32 {
