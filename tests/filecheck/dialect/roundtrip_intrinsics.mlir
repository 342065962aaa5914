// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Every index intrinsic, lane_id and warp_size.
sarek.kernel @index() {
  %thread_idx_x = sarek.intrinsic "thread_idx_x"() : () -> i32
  %block_idx_x = sarek.intrinsic "block_idx_x"() : () -> i32
  %block_dim_x = sarek.intrinsic "block_dim_x"() : () -> i32
  %grid_dim_x = sarek.intrinsic "grid_dim_x"() : () -> i32
  %global_idx_x = sarek.intrinsic "global_idx_x"() : () -> i32
  %global_size_x = sarek.intrinsic "global_size_x"() : () -> i32
  %thread_idx_y = sarek.intrinsic "thread_idx_y"() : () -> i32
  %block_idx_y = sarek.intrinsic "block_idx_y"() : () -> i32
  %block_dim_y = sarek.intrinsic "block_dim_y"() : () -> i32
  %grid_dim_y = sarek.intrinsic "grid_dim_y"() : () -> i32
  %global_idx_y = sarek.intrinsic "global_idx_y"() : () -> i32
  %global_size_y = sarek.intrinsic "global_size_y"() : () -> i32
  %thread_idx_z = sarek.intrinsic "thread_idx_z"() : () -> i32
  %block_idx_z = sarek.intrinsic "block_idx_z"() : () -> i32
  %block_dim_z = sarek.intrinsic "block_dim_z"() : () -> i32
  %grid_dim_z = sarek.intrinsic "grid_dim_z"() : () -> i32
  %global_idx_z = sarek.intrinsic "global_idx_z"() : () -> i32
  %global_size_z = sarek.intrinsic "global_size_z"() : () -> i32
  %global_thread_id = sarek.intrinsic "global_thread_id"() : () -> i32
  %global_size = sarek.intrinsic "global_size"() : () -> i32
  %lane_id = sarek.intrinsic "lane_id"() : () -> i32
  %warp_size = sarek.intrinsic "warp_size"() : () -> i32
}
// CHECK:      sarek.kernel @index() {
// CHECK-NEXT:   %thread_idx_x = sarek.intrinsic "thread_idx_x"() : () -> i32
// CHECK-NEXT:   %block_idx_x = sarek.intrinsic "block_idx_x"() : () -> i32
// CHECK-NEXT:   %block_dim_x = sarek.intrinsic "block_dim_x"() : () -> i32
// CHECK-NEXT:   %grid_dim_x = sarek.intrinsic "grid_dim_x"() : () -> i32
// CHECK-NEXT:   %global_idx_x = sarek.intrinsic "global_idx_x"() : () -> i32
// CHECK-NEXT:   %global_size_x = sarek.intrinsic "global_size_x"() : () -> i32
// CHECK-NEXT:   %thread_idx_y = sarek.intrinsic "thread_idx_y"() : () -> i32
// CHECK-NEXT:   %block_idx_y = sarek.intrinsic "block_idx_y"() : () -> i32
// CHECK-NEXT:   %block_dim_y = sarek.intrinsic "block_dim_y"() : () -> i32
// CHECK-NEXT:   %grid_dim_y = sarek.intrinsic "grid_dim_y"() : () -> i32
// CHECK-NEXT:   %global_idx_y = sarek.intrinsic "global_idx_y"() : () -> i32
// CHECK-NEXT:   %global_size_y = sarek.intrinsic "global_size_y"() : () -> i32
// CHECK-NEXT:   %thread_idx_z = sarek.intrinsic "thread_idx_z"() : () -> i32
// CHECK-NEXT:   %block_idx_z = sarek.intrinsic "block_idx_z"() : () -> i32
// CHECK-NEXT:   %block_dim_z = sarek.intrinsic "block_dim_z"() : () -> i32
// CHECK-NEXT:   %grid_dim_z = sarek.intrinsic "grid_dim_z"() : () -> i32
// CHECK-NEXT:   %global_idx_z = sarek.intrinsic "global_idx_z"() : () -> i32
// CHECK-NEXT:   %global_size_z = sarek.intrinsic "global_size_z"() : () -> i32
// CHECK-NEXT:   %global_thread_id = sarek.intrinsic "global_thread_id"() : () -> i32
// CHECK-NEXT:   %global_size = sarek.intrinsic "global_size"() : () -> i32
// CHECK-NEXT:   %lane_id = sarek.intrinsic "lane_id"() : () -> i32
// CHECK-NEXT:   %warp_size = sarek.intrinsic "warp_size"() : () -> i32
// CHECK-NEXT: }

// -----

// Every math intrinsic (float ones on f16, f32 and f64; abs/min/max also on integers).
sarek.kernel @math(%h : f16 "h", %x : f32 "x", %d : f64 "d", %i : i32 "i", %l : i64 "l") {
  %m1 = sarek.intrinsic "sin"(%x) : (f32) -> f32
  %m2 = sarek.intrinsic "cos"(%x) : (f32) -> f32
  %m3 = sarek.intrinsic "tan"(%x) : (f32) -> f32
  %m4 = sarek.intrinsic "asin"(%x) : (f32) -> f32
  %m5 = sarek.intrinsic "acos"(%x) : (f32) -> f32
  %m6 = sarek.intrinsic "atan"(%x) : (f32) -> f32
  %m7 = sarek.intrinsic "sinh"(%x) : (f32) -> f32
  %m8 = sarek.intrinsic "cosh"(%x) : (f32) -> f32
  %m9 = sarek.intrinsic "tanh"(%x) : (f32) -> f32
  %m10 = sarek.intrinsic "exp"(%x) : (f32) -> f32
  %m11 = sarek.intrinsic "exp2"(%x) : (f32) -> f32
  %m12 = sarek.intrinsic "log"(%x) : (f32) -> f32
  %m13 = sarek.intrinsic "log2"(%x) : (f32) -> f32
  %m14 = sarek.intrinsic "log10"(%x) : (f32) -> f32
  %m15 = sarek.intrinsic "sqrt"(%x) : (f32) -> f32
  %m16 = sarek.intrinsic "rsqrt"(%x) : (f32) -> f32
  %m17 = sarek.intrinsic "cbrt"(%x) : (f32) -> f32
  %m18 = sarek.intrinsic "floor"(%x) : (f32) -> f32
  %m19 = sarek.intrinsic "ceil"(%x) : (f32) -> f32
  %m20 = sarek.intrinsic "round"(%x) : (f32) -> f32
  %m21 = sarek.intrinsic "trunc"(%x) : (f32) -> f32
  %m22 = sarek.intrinsic "fabs"(%x) : (f32) -> f32
  %m23 = sarek.intrinsic "expm1"(%x) : (f32) -> f32
  %m24 = sarek.intrinsic "log1p"(%x) : (f32) -> f32
  %m25 = sarek.intrinsic "atan2"(%d, %d) : (f64, f64) -> f64
  %m26 = sarek.intrinsic "pow"(%d, %d) : (f64, f64) -> f64
  %m27 = sarek.intrinsic "fmin"(%d, %d) : (f64, f64) -> f64
  %m28 = sarek.intrinsic "fmax"(%d, %d) : (f64, f64) -> f64
  %m29 = sarek.intrinsic "fmod"(%d, %d) : (f64, f64) -> f64
  %m30 = sarek.intrinsic "hypot"(%d, %d) : (f64, f64) -> f64
  %m31 = sarek.intrinsic "copysign"(%d, %d) : (f64, f64) -> f64
  %sqrt_h = sarek.intrinsic "sqrt"(%h) : (f16) -> f16
  %exp_d = sarek.intrinsic "exp"(%d) : (f64) -> f64
  %pow_h = sarek.intrinsic "pow"(%h, %h) : (f16, f16) -> f16
  %fma = sarek.intrinsic "fma"(%x, %x, %x) : (f32, f32, f32) -> f32
  %fma_d = sarek.intrinsic "fma"(%d, %d, %d) : (f64, f64, f64) -> f64
  %m32 = sarek.intrinsic "abs"(%i) : (i32) -> i32
  %m33 = sarek.intrinsic "abs"(%l) : (i64) -> i64
  %m34 = sarek.intrinsic "abs"(%x) : (f32) -> f32
  %m35 = sarek.intrinsic "min"(%i, %i) : (i32, i32) -> i32
  %m36 = sarek.intrinsic "min"(%l, %l) : (i64, i64) -> i64
  %m37 = sarek.intrinsic "min"(%d, %d) : (f64, f64) -> f64
  %m38 = sarek.intrinsic "max"(%i, %i) : (i32, i32) -> i32
  %m39 = sarek.intrinsic "max"(%l, %l) : (i64, i64) -> i64
  %m40 = sarek.intrinsic "max"(%d, %d) : (f64, f64) -> f64
  %clz = sarek.intrinsic "clz"(%i) : (i32) -> i32
  %clz_l = sarek.intrinsic "clz"(%l) : (i64) -> i32
  %popc = sarek.intrinsic "popcount"(%l) : (i64) -> i32
}
// CHECK:      sarek.kernel @math(%h: f16 "h", %x: f32 "x", %d: f64 "d", %i: i32 "i", %l: i64 "l") {
// CHECK-NEXT:   %m1 = sarek.intrinsic "sin"(%x) : (f32) -> f32
// CHECK-NEXT:   %m2 = sarek.intrinsic "cos"(%x) : (f32) -> f32
// CHECK-NEXT:   %m3 = sarek.intrinsic "tan"(%x) : (f32) -> f32
// CHECK-NEXT:   %m4 = sarek.intrinsic "asin"(%x) : (f32) -> f32
// CHECK-NEXT:   %m5 = sarek.intrinsic "acos"(%x) : (f32) -> f32
// CHECK-NEXT:   %m6 = sarek.intrinsic "atan"(%x) : (f32) -> f32
// CHECK-NEXT:   %m7 = sarek.intrinsic "sinh"(%x) : (f32) -> f32
// CHECK-NEXT:   %m8 = sarek.intrinsic "cosh"(%x) : (f32) -> f32
// CHECK-NEXT:   %m9 = sarek.intrinsic "tanh"(%x) : (f32) -> f32
// CHECK-NEXT:   %m10 = sarek.intrinsic "exp"(%x) : (f32) -> f32
// CHECK-NEXT:   %m11 = sarek.intrinsic "exp2"(%x) : (f32) -> f32
// CHECK-NEXT:   %m12 = sarek.intrinsic "log"(%x) : (f32) -> f32
// CHECK-NEXT:   %m13 = sarek.intrinsic "log2"(%x) : (f32) -> f32
// CHECK-NEXT:   %m14 = sarek.intrinsic "log10"(%x) : (f32) -> f32
// CHECK-NEXT:   %m15 = sarek.intrinsic "sqrt"(%x) : (f32) -> f32
// CHECK-NEXT:   %m16 = sarek.intrinsic "rsqrt"(%x) : (f32) -> f32
// CHECK-NEXT:   %m17 = sarek.intrinsic "cbrt"(%x) : (f32) -> f32
// CHECK-NEXT:   %m18 = sarek.intrinsic "floor"(%x) : (f32) -> f32
// CHECK-NEXT:   %m19 = sarek.intrinsic "ceil"(%x) : (f32) -> f32
// CHECK-NEXT:   %m20 = sarek.intrinsic "round"(%x) : (f32) -> f32
// CHECK-NEXT:   %m21 = sarek.intrinsic "trunc"(%x) : (f32) -> f32
// CHECK-NEXT:   %m22 = sarek.intrinsic "fabs"(%x) : (f32) -> f32
// CHECK-NEXT:   %m23 = sarek.intrinsic "expm1"(%x) : (f32) -> f32
// CHECK-NEXT:   %m24 = sarek.intrinsic "log1p"(%x) : (f32) -> f32
// CHECK-NEXT:   %m25 = sarek.intrinsic "atan2"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %m26 = sarek.intrinsic "pow"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %m27 = sarek.intrinsic "fmin"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %m28 = sarek.intrinsic "fmax"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %m29 = sarek.intrinsic "fmod"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %m30 = sarek.intrinsic "hypot"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %m31 = sarek.intrinsic "copysign"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %sqrt_h = sarek.intrinsic "sqrt"(%h) : (f16) -> f16
// CHECK-NEXT:   %exp_d = sarek.intrinsic "exp"(%d) : (f64) -> f64
// CHECK-NEXT:   %pow_h = sarek.intrinsic "pow"(%h, %h) : (f16, f16) -> f16
// CHECK-NEXT:   %fma = sarek.intrinsic "fma"(%x, %x, %x) : (f32, f32, f32) -> f32
// CHECK-NEXT:   %fma_d = sarek.intrinsic "fma"(%d, %d, %d) : (f64, f64, f64) -> f64
// CHECK-NEXT:   %m32 = sarek.intrinsic "abs"(%i) : (i32) -> i32
// CHECK-NEXT:   %m33 = sarek.intrinsic "abs"(%l) : (i64) -> i64
// CHECK-NEXT:   %m34 = sarek.intrinsic "abs"(%x) : (f32) -> f32
// CHECK-NEXT:   %m35 = sarek.intrinsic "min"(%i, %i) : (i32, i32) -> i32
// CHECK-NEXT:   %m36 = sarek.intrinsic "min"(%l, %l) : (i64, i64) -> i64
// CHECK-NEXT:   %m37 = sarek.intrinsic "min"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %m38 = sarek.intrinsic "max"(%i, %i) : (i32, i32) -> i32
// CHECK-NEXT:   %m39 = sarek.intrinsic "max"(%l, %l) : (i64, i64) -> i64
// CHECK-NEXT:   %m40 = sarek.intrinsic "max"(%d, %d) : (f64, f64) -> f64
// CHECK-NEXT:   %clz = sarek.intrinsic "clz"(%i) : (i32) -> i32
// CHECK-NEXT:   %clz_l = sarek.intrinsic "clz"(%l) : (i64) -> i32
// CHECK-NEXT:   %popc = sarek.intrinsic "popcount"(%l) : (i64) -> i32
// CHECK-NEXT: }

// -----

// Every atomic (returning the old value) on vectors and shared arrays of i32, i64, f32, f64.
sarek.kernel @atomics(%vi : !sarek.vec<i32> "vi", %vl : !sarek.vec<i64> "vl", %vf : !sarek.vec<f32> "vf", %vd : !sarek.vec<f64> "vd", %i : i32 "i", %l : i64 "l", %x : f32 "x", %d : f64 "d") {
  %n = sarek.constant 64 : i32
  %s = sarek.alloc_array "s"[%n] : !sarek.array<i32, shared>
  %sd = sarek.alloc_array "sd"[%n] : !sarek.array<f64, shared>
  %a41 = sarek.intrinsic "atomic_add"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a42 = sarek.intrinsic "atomic_sub"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a43 = sarek.intrinsic "atomic_min"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a44 = sarek.intrinsic "atomic_max"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a45 = sarek.intrinsic "atomic_exch"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a46 = sarek.intrinsic "atomic_and"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a47 = sarek.intrinsic "atomic_or"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a48 = sarek.intrinsic "atomic_xor"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
  %a49 = sarek.intrinsic "atomic_add"(%vl, %i, %l) : (!sarek.vec<i64>, i32, i64) -> i64
  %a50 = sarek.intrinsic "atomic_exch"(%vl, %i, %l) : (!sarek.vec<i64>, i32, i64) -> i64
  %a51 = sarek.intrinsic "atomic_add"(%vf, %i, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %a52 = sarek.intrinsic "atomic_exch"(%vf, %i, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %a53 = sarek.intrinsic "atomic_add"(%vd, %i, %d) : (!sarek.vec<f64>, i32, f64) -> f64
  %a54 = sarek.intrinsic "atomic_exch"(%vd, %i, %d) : (!sarek.vec<f64>, i32, f64) -> f64
  %a55 = sarek.intrinsic "atomic_add"(%s, %i, %i) : (!sarek.array<i32, shared>, i32, i32) -> i32
  %a56 = sarek.intrinsic "atomic_exch"(%s, %i, %i) : (!sarek.array<i32, shared>, i32, i32) -> i32
  %a57 = sarek.intrinsic "atomic_add"(%sd, %i, %d) : (!sarek.array<f64, shared>, i32, f64) -> f64
  %a58 = sarek.intrinsic "atomic_exch"(%sd, %i, %d) : (!sarek.array<f64, shared>, i32, f64) -> f64
  %cas = sarek.intrinsic "atomic_cas"(%vi, %i, %i, %i) : (!sarek.vec<i32>, i32, i32, i32) -> i32
  %cas_s = sarek.intrinsic "atomic_cas"(%s, %i, %i, %i) : (!sarek.array<i32, shared>, i32, i32, i32) -> i32
  %inc = sarek.intrinsic "atomic_inc"(%vi, %i) : (!sarek.vec<i32>, i32) -> i32
  %dec = sarek.intrinsic "atomic_dec"(%s, %i) : (!sarek.array<i32, shared>, i32) -> i32
}
// CHECK:      sarek.kernel @atomics(%vi: !sarek.vec<i32> "vi", %vl: !sarek.vec<i64> "vl", %vf: !sarek.vec<f32> "vf", %vd: !sarek.vec<f64> "vd", %i: i32 "i", %l: i64 "l", %x: f32 "x", %d: f64 "d") {
// CHECK-NEXT:   %n = sarek.constant 64 : i32
// CHECK-NEXT:   %s = sarek.alloc_array "s"[%n] : !sarek.array<i32, shared>
// CHECK-NEXT:   %sd = sarek.alloc_array "sd"[%n] : !sarek.array<f64, shared>
// CHECK-NEXT:   %a41 = sarek.intrinsic "atomic_add"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a42 = sarek.intrinsic "atomic_sub"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a43 = sarek.intrinsic "atomic_min"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a44 = sarek.intrinsic "atomic_max"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a45 = sarek.intrinsic "atomic_exch"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a46 = sarek.intrinsic "atomic_and"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a47 = sarek.intrinsic "atomic_or"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a48 = sarek.intrinsic "atomic_xor"(%vi, %i, %i) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:   %a49 = sarek.intrinsic "atomic_add"(%vl, %i, %l) : (!sarek.vec<i64>, i32, i64) -> i64
// CHECK-NEXT:   %a50 = sarek.intrinsic "atomic_exch"(%vl, %i, %l) : (!sarek.vec<i64>, i32, i64) -> i64
// CHECK-NEXT:   %a51 = sarek.intrinsic "atomic_add"(%vf, %i, %x) : (!sarek.vec<f32>, i32, f32) -> f32
// CHECK-NEXT:   %a52 = sarek.intrinsic "atomic_exch"(%vf, %i, %x) : (!sarek.vec<f32>, i32, f32) -> f32
// CHECK-NEXT:   %a53 = sarek.intrinsic "atomic_add"(%vd, %i, %d) : (!sarek.vec<f64>, i32, f64) -> f64
// CHECK-NEXT:   %a54 = sarek.intrinsic "atomic_exch"(%vd, %i, %d) : (!sarek.vec<f64>, i32, f64) -> f64
// CHECK-NEXT:   %a55 = sarek.intrinsic "atomic_add"(%s, %i, %i) : (!sarek.array<i32, shared>, i32, i32) -> i32
// CHECK-NEXT:   %a56 = sarek.intrinsic "atomic_exch"(%s, %i, %i) : (!sarek.array<i32, shared>, i32, i32) -> i32
// CHECK-NEXT:   %a57 = sarek.intrinsic "atomic_add"(%sd, %i, %d) : (!sarek.array<f64, shared>, i32, f64) -> f64
// CHECK-NEXT:   %a58 = sarek.intrinsic "atomic_exch"(%sd, %i, %d) : (!sarek.array<f64, shared>, i32, f64) -> f64
// CHECK-NEXT:   %cas = sarek.intrinsic "atomic_cas"(%vi, %i, %i, %i) : (!sarek.vec<i32>, i32, i32, i32) -> i32
// CHECK-NEXT:   %cas_s = sarek.intrinsic "atomic_cas"(%s, %i, %i, %i) : (!sarek.array<i32, shared>, i32, i32, i32) -> i32
// CHECK-NEXT:   %inc = sarek.intrinsic "atomic_inc"(%vi, %i) : (!sarek.vec<i32>, i32) -> i32
// CHECK-NEXT:   %dec = sarek.intrinsic "atomic_dec"(%s, %i) : (!sarek.array<i32, shared>, i32) -> i32
// CHECK-NEXT: }

// -----

// Warp shuffles on i32, i64, f32 and f64.
sarek.kernel @warp(%i : i32 "i", %l : i64 "l", %x : f32 "x", %d : f64 "d") {
  %w59 = sarek.intrinsic "warp_shuffle"(%x, %i) : (f32, i32) -> f32
  %w60 = sarek.intrinsic "warp_shuffle_up"(%x, %i) : (f32, i32) -> f32
  %w61 = sarek.intrinsic "warp_shuffle_down"(%x, %i) : (f32, i32) -> f32
  %w62 = sarek.intrinsic "warp_shuffle_xor"(%x, %i) : (f32, i32) -> f32
  %w63 = sarek.intrinsic "warp_shuffle_xor"(%i, %i) : (i32, i32) -> i32
  %w64 = sarek.intrinsic "warp_shuffle_xor"(%l, %i) : (i64, i32) -> i64
  %w65 = sarek.intrinsic "warp_shuffle_xor"(%d, %i) : (f64, i32) -> f64
  sarek.warp_barrier
}
// CHECK:      sarek.kernel @warp(%i: i32 "i", %l: i64 "l", %x: f32 "x", %d: f64 "d") {
// CHECK-NEXT:   %w59 = sarek.intrinsic "warp_shuffle"(%x, %i) : (f32, i32) -> f32
// CHECK-NEXT:   %w60 = sarek.intrinsic "warp_shuffle_up"(%x, %i) : (f32, i32) -> f32
// CHECK-NEXT:   %w61 = sarek.intrinsic "warp_shuffle_down"(%x, %i) : (f32, i32) -> f32
// CHECK-NEXT:   %w62 = sarek.intrinsic "warp_shuffle_xor"(%x, %i) : (f32, i32) -> f32
// CHECK-NEXT:   %w63 = sarek.intrinsic "warp_shuffle_xor"(%i, %i) : (i32, i32) -> i32
// CHECK-NEXT:   %w64 = sarek.intrinsic "warp_shuffle_xor"(%l, %i) : (i64, i32) -> i64
// CHECK-NEXT:   %w65 = sarek.intrinsic "warp_shuffle_xor"(%d, %i) : (f64, i32) -> f64
// CHECK-NEXT:   sarek.warp_barrier
// CHECK-NEXT: }
