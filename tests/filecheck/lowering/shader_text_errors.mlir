// RUN: sarek-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Text that reaches generated source verbatim is verified to stay on its line: a shader comment and a
// pragma hint with a line break are refused (the rest would be printed as code).

builtin.module {
  sarek_wgsl.comment "x\nfn bad() {}"
}
// CHECK: comment text 'x\nfn bad() {}' must be printable ASCII on one line (no line breaks or backslashes: the rest would be printed as code)

// -----
builtin.module {
  sarek_glsl.comment "ok\\"
}
// CHECK: comment text 'ok\\' must be printable ASCII on one line

// -----
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a") {
    sarek.pragma ["unroll\nint x;"] {
    }
  }
}
// CHECK: pragma hint 'unroll\nint x;' must be printable ASCII on one line (it is printed as a #pragma line; a line break would start code of its own)
