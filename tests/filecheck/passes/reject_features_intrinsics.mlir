// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=cuda}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=CUDA

// Math intrinsics a language has only narrower are refused by the capability gate at the call
// (sarek.analysis.features.INTRINSIC_GAPS); the shader lowering asserts it. CUDA has both on 64 bits.
builtin.module {
  sarek.kernel @k(%x : i64 "x") {
    %c = sarek.intrinsic "clz"(%x) : (i64) -> i32 loc("m.py":4:9)
  }
}
// GLSL: m.py:4:9: error: GLSL: 'clz' on i64 is not supported (GLSL's findMSB and bitCount take 32-bit integers)
// CUDA: sarek.intrinsic "clz"

// -----

builtin.module {
  sarek.kernel @k(%x : i64 "x") {
    %c = sarek.intrinsic "popcount"(%x) : (i64) -> i32 loc("m.py":8:9)
  }
}
// GLSL: m.py:8:9: error: GLSL: 'popcount' on i64 is not supported (GLSL's findMSB and bitCount take 32-bit integers)
// CUDA: sarek.intrinsic "popcount"

// -----

// 32 bits: held
builtin.module {
  sarek.kernel @k(%x : i32 "x") {
    %c = sarek.intrinsic "clz"(%x) : (i32) -> i32
  }
}
// GLSL: sarek.intrinsic "clz"
