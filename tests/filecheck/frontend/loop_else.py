# RUN: sarek ir %s:search | filecheck %s

# `for ... else` / `while ... else` (sarek/frontend/loop_else.py): a flag, false before the loop, set by each
# `break` of that loop (not of a nested one), and the `else` under `if not flag` after it.
from sarek import Vec, i32, kernel
from sarek.gpu import global_thread_id


@kernel
def search(a: Vec[i32], out: Vec[i32], x: i32, n: i32):
    i = global_thread_id
    r = -1
    for j in range(n):
        if a[j] == x:
            r = j
            break
    else:
        r = -2
    k = 0
    while k < 2:
        k += 1
        for q in range(2):
            if q == 1:
                break
    else:
        r = r + 100
    out[i] = r

# CHECK:      %[[F:.*]] = sarek.constant false
# CHECK-NEXT: %[[FL:.*]] = sarek.let_mut "sarek_broke_5_4" %[[F]] : i1
# CHECK:      sarek.for "j"
# CHECK:        sarek.if
# CHECK:          %[[T:.*]] = sarek.constant true
# CHECK-NEXT:     sarek.store %[[FL]], %[[T]] : !sarek.ref<i1>
# CHECK-NEXT:     sarek.break
# CHECK:      %[[B:.*]] = sarek.load %[[FL]] : !sarek.ref<i1>
# CHECK-NEXT: %[[NB:.*]] = sarek.unop not %[[B]] : i1
# CHECK-NEXT: sarek.if %[[NB]] {
# CHECK-NEXT:   %[[M2:.*]] = sarek.constant -2 : i32
# the nested for's break is its own: the while's flag is never set (a plain let)
# CHECK:      %[[W:.*]] = sarek.let "sarek_broke_12_4"
# CHECK:      sarek.for "q"
# CHECK:          sarek.break
# CHECK-NOT:  sarek.store %[[W]]
# CHECK:      sarek.unop not %[[W]] : i1
