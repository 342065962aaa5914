# RUN: sarek ir %s:tile | filecheck %s
# RUN: not sarek ir %s:bad_shape 2>&1 | filecheck %s --check-prefix=SHAPE
# RUN: not sarek ir %s:row_major 2>&1 | filecheck %s --check-prefix=ROWMAJOR
# RUN: not sarek ir %s:warp_from_core 2>&1 | filecheck %s --check-prefix=WARPCORE
# RUN: not sarek ir %s:not_in_place 2>&1 | filecheck %s --check-prefix=INPLACE
# RUN: not sarek ir %s:barrier_between 2>&1 | filecheck %s --check-prefix=BARRIER
# RUN: not sarek ir %s:store_between 2>&1 | filecheck %s --check-prefix=STORE
# RUN: not sarek ir %s:core_extent 2>&1 | filecheck %s --check-prefix=EXTENT
# RUN: not sarek ir %s:bad_layout 2>&1 | filecheck %s --check-prefix=LAYOUT
# RUN: not sarek ir %s:acc_type 2>&1 | filecheck %s --check-prefix=ACCTYPE
# Warpgroup fragments (scope="warpgroup": a 64x16, b 16xN, acc 64xN) load from core-layout shared arrays
# (layout="core": a 1-D array whose a[r, c] is element ((r >> 3) * (C / 8) + (c >> 3)) * 64 + (r & 7) * 8 + (c & 7)
# for 16-bit elements); the load and its mma are one straight-line sequence.

from sarek import Array, coop, f16, f32, kernel
from sarek.gpu import barrier, shared, thread_idx_x, warp_id


@kernel(block=128)
def tile(A: Array[f16, 2], C: Array[f32, 2]):
    sa = shared(f16, (64, 32), layout="core")
    sb = shared(f16, (16, 64), layout="core")
    t = thread_idx_x
    sa[t // 2, (t % 2) * 16] = A[t, 0]
    sb[t // 8, t % 8] = A[t, 1]
    barrier()
    a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
    b = coop.fragment("b", f16, 16, 64, scope="warpgroup")
    acc = coop.fragment("acc", f32, 64, 64, scope="warpgroup")
    coop.fill(acc, 0.0)
    coop.load(a, sa, (warp_id // 4) * 64, 16)
    coop.load(b, sb, 0, 0)
    coop.mma(acc, a, b, acc)
    coop.store(acc, C, 0, 0)

# CHECK:      %[[N:.*]] = sarek.constant 2048 : i32
# CHECK-NEXT: %sa = sarek.alloc_array "sa"[%[[N]]] : !sarek.array<f16, shared>
# CHECK:      %[[R:.*]] = sarek.binop shr %{{.*}}, %{{.*}} : i32
# CHECK-NEXT: %{{.*}} = sarek.constant 4 : i32
# CHECK:      sarek.binop bitand
# CHECK:      sarek.coopmat_decl "a" a 64x16 warpgroup : f16
# CHECK-NEXT: sarek.coopmat_decl "b" b 16x64 warpgroup : f16
# CHECK-NEXT: sarek.coopmat_decl "acc" acc 64x64 warpgroup : f32
# CHECK:      sarek.coopmat_load "a" from %sa[%{{.*}}] stride %{{.*}} core : !sarek.array<f16, shared>
# CHECK:      sarek.coopmat_load "b" from %sb[%{{.*}}] stride %{{.*}} core : !sarek.array<f16, shared>
# CHECK-NEXT: sarek.coopmat_muladd "acc" = "a" * "b" + "acc"


@kernel(block=128)
def bad_shape(C: Array[f32, 2]):
    acc = coop.fragment("acc", f32, 64, 12, scope="warpgroup")

# SHAPE: wgmma.py:51:11: error: a warpgroup 'acc' fragment is 64xN (N a multiple of 8 up to 256: wgmma m64nNk16), not 64x12


@kernel(block=128)
def row_major(A: Array[f16, 2]):
    a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
    coop.load(a, A, 0, 0)

# ROWMAJOR: wgmma.py:59:18: error: a warpgroup 'a' fragment loads from a core-layout shared array (shared(T, (R, C), layout="core")): wgmma reads its operands from shared memory in that layout


@kernel(block=128)
def warp_from_core(A: Array[f16, 2]):
    sa = shared(f16, (16, 16), layout="core")
    a = coop.fragment("a", f16, 16, 16)
    coop.load(a, sa, 0, 0)

# WARPCORE: wgmma.py:68:18: error: a core-layout shared array feeds warpgroup fragments (scope="warpgroup"); a warp fragment loads from a row-major array


@kernel(block=128)
def not_in_place(C: Array[f32, 2]):
    sa = shared(f16, (64, 16), layout="core")
    sb = shared(f16, (16, 8), layout="core")
    a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
    b = coop.fragment("b", f16, 16, 8, scope="warpgroup")
    c = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
    d = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
    coop.fill(c, 0.0)
    coop.load(a, sa, 0, 0)
    coop.load(b, sb, 0, 0)
    coop.mma(d, a, b, c)

# INPLACE: wgmma.py:84:23: error: a warpgroup mma accumulates in place: coop.mma(acc, a, b, acc)


@kernel(block=128)
def barrier_between(C: Array[f32, 2]):
    sa = shared(f16, (64, 16), layout="core")
    sb = shared(f16, (16, 8), layout="core")
    a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
    b = coop.fragment("b", f16, 16, 8, scope="warpgroup")
    c = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
    coop.fill(c, 0.0)
    coop.load(a, sa, 0, 0)
    coop.load(b, sb, 0, 0)
    barrier()
    coop.mma(c, a, b, c)

# BARRIER: wgmma.py:99:5: error: a barrier between the warpgroup load of fragment 'a' and the coop.mma that reads it: wgmma reads the shared array when the mma runs, not at the load (other threads may write the array after a barrier); load the fragment after it, right before the mma


@kernel(block=128)
def store_between(C: Array[f32, 2]):
    sa = shared(f16, (64, 16), layout="core")
    sb = shared(f16, (16, 8), layout="core")
    a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
    b = coop.fragment("b", f16, 16, 8, scope="warpgroup")
    c = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
    coop.fill(c, 0.0)
    coop.load(a, sa, 0, 0)
    coop.load(b, sb, 0, 0)
    sa[thread_idx_x // 2, 0] = 1.0
    coop.mma(c, a, b, c)

# STORE: wgmma.py:115:5: error: a write into the array between the warpgroup load of fragment 'a' and the coop.mma that reads it


@kernel(block=128)
def core_extent(C: Array[f32, 2]):
    sa = shared(f16, (60, 16), layout="core")

# EXTENT: wgmma.py:123:22: error: a core-layout shared array has rows a multiple of 8 and columns a multiple of 8 (16 bytes of its elements), not 60x16


@kernel(block=128)
def bad_layout(C: Array[f32, 2]):
    sa = shared(f16, (64, 16), layout="swizzle")

# LAYOUT: wgmma.py:130:39: error: the layout of a shared array is "row" or "core", got 'swizzle'


@kernel(block=128)
def acc_type(C: Array[f32, 2]):
    acc = coop.fragment("acc", f16, 64, 16, scope="warpgroup")

# ACCTYPE: wgmma.py:137:32: error: a warpgroup 'acc' fragment holds f32, not f16
