// RUN: sarek-opt %s -p 'sarek-widen-f16{target=wgsl}' --split-input-file --verify-diagnostics
// sarek-widen-f16's refusals: f16 record fields and variant payloads (only vectors and arrays hold the bits).

builtin.module {
  sarek.record @half_pair {a : f32, b : f16} loc("k.py":3:1)
  // expected-error@-1 {{WGSL: record 'half_pair' has an f16 field, which WGSL stores as its 16 bits only in vectors and arrays; make the field f32, or u16 holding the bits}}
  sarek.kernel @k() {
  }
}

// -----
builtin.module {
  sarek.variant @maybe_half {Half(f16), Nothing} loc("k.py":4:1)
  // expected-error@-1 {{WGSL: variant 'maybe_half' has an f16 payload, which WGSL cannot store; make the payload f32}}
  sarek.kernel @k() {
  }
}

// -----
// f16x2 (a built-in vector: its declaration is sarek's own line) is refused at its first use in the kernel.
builtin.module {
  sarek.record @f16x2 {x : f16, y : f16} loc("sarek/vectors.py":46:1)
  sarek.kernel @k(%v : !sarek.vec<f16> "v") {
    %0 = sarek.constant 0 : i32
    %1 = sarek.array_read %v[%0] : !sarek.vec<f16>
    %2 = sarek.make_record @f16x2(%1, %1) loc("k.py":9:9)
    // expected-error@-1 {{WGSL: f16x2 values not supported on WGSL, which stores f16 as its 16 bits only in vectors and arrays, not in a record's lanes: use f32x2 (f32(h) per lane), or a Vec[f16] of pairs}}
  }
}
