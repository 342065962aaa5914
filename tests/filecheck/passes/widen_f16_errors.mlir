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
