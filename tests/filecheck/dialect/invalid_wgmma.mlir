// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// A warpgroup fragment is wgmma's m64nNk16 (a 64x16, b 16xN, acc 64xN, N a multiple of 8 up to 256); a core
// load reads a shared array, row-major.

sarek.kernel @k() {
  sarek.coopmat_decl "acc" acc 64x264 warpgroup : f32
}
// CHECK: a warpgroup 'acc' fragment is 64xN (N a multiple of 8 up to 256: wgmma m64nNk16), not 64x264

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "a" a 64x32 warpgroup : f16
}
// CHECK: a warpgroup 'a' fragment is 64x16 (N a multiple of 8 up to 256: wgmma m64nNk16), not 64x32

// -----

sarek.kernel @k(%v : !sarek.vec<f16> "v") {
  %z = sarek.constant 0 : i32
  sarek.coopmat_decl "a" a 64x16 warpgroup : f16
  sarek.coopmat_load "a" from %v[%z] stride %z core : !sarek.vec<f16>
}
// CHECK: a core-layout fragment load/store reads a shared array, row-major
