# RUN: sarek ir %s:nd | filecheck %s
# RUN: not sarek ir %s:wrong_rank 2>&1 | filecheck %s --check-prefix=RANK
# An atomic on an N-D array element takes one index per dimension, flattened row-major (i * shape[1] + j), each
# index asserted against its extent (checked with debug=True).

from sarek import Array, i32, kernel
from sarek.gpu import atomic_add


@kernel
def nd(h: Array[i32, 2], i: i32, j: i32):
    atomic_add(h, (i, j), 1)

# CHECK:      %[[D0:[0-9]+]] = sarek.array_dim %h, 0 :
# CHECK:      sarek.binop lt %i, %[[D0]] : i32
# CHECK:      sarek.assert
# CHECK-SAME: atomic_add: index 0 is out of bounds of the array's dimension 0
# CHECK:      %[[D1:[0-9]+]] = sarek.array_dim %h, 1 :
# CHECK:      sarek.assert
# CHECK:      %[[M:[0-9]+]] = sarek.binop mul %i, %[[D1]] : i32
# CHECK-NEXT: %[[F:[0-9]+]] = sarek.binop add %[[M]], %j : i32
# CHECK:      sarek.intrinsic "atomic_add"(%h, %[[F]], %{{[0-9]+}})


@kernel
def wrong_rank(h: Array[i32, 2]):
    atomic_add(h, (0, 1, 2), 1)

# RANK: error: atomic_add() on Array[i32, 2] takes a tuple of 2 indices, e.g. atomic_add(a, (i, j), x), got 3
