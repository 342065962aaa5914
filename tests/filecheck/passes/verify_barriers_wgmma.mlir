// RUN: sarek-opt %s -p 'sarek-verify-barriers' --verify-diagnostics --split-input-file | filecheck %s
// wgmma reads a warpgroup operand's shared array when the mma runs: the load and the mma reading it are one
// straight-line sequence, with no barrier or write into the array between them.

builtin.module {
  sarek.kernel @k() {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    %n = sarek.constant 1024 : i32
    %sa = sarek.alloc_array "sa"[%n] : !sarek.array<f16, shared>
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16
    sarek.coopmat_decl "b" b 16x64 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x64 warpgroup : f32
    sarek.coopmat_load "a" from %sa[%z] stride %s core : !sarek.array<f16, shared>
    sarek.coopmat_load "b" from %sa[%z] stride %s core : !sarek.array<f16, shared>
    sarek.barrier loc("k.py":9:5)
    sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
  }
}
// CHECK: k.py:9:5: error: a barrier between the warpgroup load of fragment 'a' and the coop.mma that reads it: wgmma reads the shared array when the mma runs, not at the load (other threads may write the array after a barrier); load the fragment after it, right before the mma

// -----

builtin.module {
  sarek.kernel @k(%c : i1 "c") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    %n = sarek.constant 1024 : i32
    %sa = sarek.alloc_array "sa"[%n] : !sarek.array<f16, shared>
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16
    sarek.coopmat_decl "b" b 16x64 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x64 warpgroup : f32
    sarek.coopmat_load "a" from %sa[%z] stride %s core : !sarek.array<f16, shared> loc("k.py":8:5)
    sarek.coopmat_load "b" from %sa[%z] stride %s core : !sarek.array<f16, shared>
    sarek.if %c {
      sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
    }
  }
}
// CHECK: k.py:8:5: error: the warpgroup fragment 'a' is loaded but no coop.mma after it in the same block reads it: wgmma reads the shared array when the mma runs, so the load and its mma are one straight-line sequence
