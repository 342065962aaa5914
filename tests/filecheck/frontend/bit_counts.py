# RUN: sarek ir %s:counts | filecheck %s
# clz/popcount of an unsigned 32/64-bit integer count the same bits through the signed type of its width (no
# backend needs an unsigned spelling); a narrow integer promotes to i32 first, as in C.

from sarek import Vec, i32, kernel, u8, u32, u64
from sarek import math as sm
from sarek.gpu import global_thread_id


@kernel
def counts(a: Vec[u32], b: Vec[u64], c: Vec[u8], o: Vec[i32]):
    i = global_thread_id
    o[i] = sm.clz(a[i]) + sm.popcount(b[i]) + sm.clz(c[i])

# CHECK:      %[[A:[0-9]+]] = sarek.array_read %a[%i] : !sarek.vec<ui32>
# CHECK-NEXT: %[[SA:[0-9]+]] = sarek.cast %[[A]] : ui32 to i32
# CHECK-NEXT: %{{[0-9]+}} = sarek.intrinsic "clz"(%[[SA]]) : (i32) -> i32
# CHECK:      %[[B:[0-9]+]] = sarek.array_read %b[%i] : !sarek.vec<ui64>
# CHECK-NEXT: %[[SB:[0-9]+]] = sarek.cast %[[B]] : ui64 to i64
# CHECK-NEXT: %{{[0-9]+}} = sarek.intrinsic "popcount"(%[[SB]]) : (i64) -> i32
# CHECK:      %[[C:[0-9]+]] = sarek.array_read %c[%i] : !sarek.vec<ui8>
# CHECK-NEXT: %[[WC:[0-9]+]] = sarek.cast %[[C]] : ui8 to i32
# CHECK-NEXT: %{{[0-9]+}} = sarek.intrinsic "clz"(%[[WC]]) : (i32) -> i32
