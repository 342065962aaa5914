// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// pragma, superstep blocks, native and the cooperative-matrix ops.

sarek.kernel @k() {
  sarek.pragma ["unroll", ""] {
  }
}
// CHECK: pragma hint name must not be empty

// -----

sarek.kernel @k() {
  sarek.block superstep "uniform" {
  }
  sarek.barrier
}
// CHECK: superstep kind must be "" or "divergent", got "uniform"

// -----

sarek.kernel @k() {
  "sarek.block"() <{superstep = "Divergent"}> ({
  ^bb0:
  }) : () -> ()
  sarek.barrier
}
// CHECK: superstep kind must be "" or "divergent", got "Divergent"

// -----

sarek.kernel @k() {
  sarek.block superstep {
  }
  sarek.mem_fence
  sarek.barrier
}
// CHECK: a superstep sarek.block must be followed by its implicit sarek.barrier

// -----

sarek.kernel @k() {
  sarek.block {
    sarek.block superstep divergent {
    }
  }
  sarek.barrier
}
// CHECK: a superstep sarek.block must be followed by its implicit sarek.barrier

// -----

sarek.kernel @k() {
  "sarek.block"() <{superstep = 1 : i32}> ({
  ^bb0:
  }) : () -> ()
  sarek.barrier
}
// CHECK: 1 : i32 should be of base attribute string

// -----

sarek.kernel @k() {
  "sarek.native"() <{texts = {cuda = 1 : i32}}> : () -> ()
}
// CHECK: native text for 'cuda' must be a string

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "" a 16x16 : f16
}
// CHECK: fragment name must not be empty

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "f" c 16x16 : f16
}
// CHECK: fragment use must be a, b or acc, got 'c'

// -----

sarek.kernel @k() {
  "sarek.coopmat_decl"() <{frag = "f", use = "a", rows = 0 : i32, cols = 16 : i32, element_type = f16}> : () -> ()
}
// CHECK: fragment shape must be positive

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "f" a 16x16 : !sarek.vec<f16>
}
// CHECK: fragment element type must be a scalar, got !sarek.vec<f16>

// -----

sarek.kernel @k(%v : !sarek.vec<f16> "v", %i : i32 "i") {
  sarek.coopmat_load "fa" from %v[%i] stride %i : !sarek.vec<f16>
}
// CHECK: fragment 'fa' is not declared by a sarek.coopmat_decl

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i32 "i") {
  sarek.coopmat_decl "fa" a 16x16 : f16
  sarek.coopmat_load "fa" from %v[%i] stride %i : !sarek.vec<f32>
}
// CHECK: fragment 'fa' holds f16, the buffer f32

// -----

sarek.kernel @k(%v : !sarek.vec<f16> "v", %i : i32 "i") {
  sarek.coopmat_decl "fc" acc 16x16 : f32
  sarek.coopmat_store "fc" to %v[%i] stride %i : !sarek.vec<f16>
}
// CHECK: fragment 'fc' holds f32, the buffer f16

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i32 "i") {
  sarek.coopmat_store "fc" to %v[%i] stride %i : !sarek.vec<f32>
}
// CHECK: fragment 'fc' is not declared by a sarek.coopmat_decl

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "fa" a 16x16 : f16
  sarek.coopmat_decl "fb" b 16x16 : f16
  sarek.coopmat_decl "fc" acc 16x16 : f32
  sarek.coopmat_muladd "fd" = "fa" * "fb" + "fc"
}
// CHECK: fragment 'fd' is not declared by a sarek.coopmat_decl

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "fa" a 16x16 : f16
  sarek.coopmat_decl "fb" a 16x16 : f16
  sarek.coopmat_decl "fc" acc 16x16 : f32
  sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
}
// CHECK: fragment 'fb' is a 'a' fragment, 'b' expected

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "fa" a 16x16 : f16
  sarek.coopmat_decl "fb" b 16x16 : f16
  sarek.coopmat_decl "fc" acc 16x16 : f32
  sarek.coopmat_decl "fd" b 16x16 : f32
  sarek.coopmat_muladd "fd" = "fa" * "fb" + "fc"
}
// CHECK: fragment 'fd' is a 'b' fragment, 'acc' expected

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "fa" a 16x8 : f16
  sarek.coopmat_decl "fb" b 16x8 : f16
  sarek.coopmat_decl "fc" acc 16x8 : f32
  sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
}
// CHECK: fragment shapes do not compose: A 16x8, B 16x8, C 16x8, D 16x8

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "fa" a 16x8 : f16
  sarek.coopmat_decl "fb" b 8x32 : f16
  sarek.coopmat_decl "fc" acc 16x32 : f32
  sarek.coopmat_decl "fd" acc 32x16 : f32
  sarek.coopmat_muladd "fd" = "fa" * "fb" + "fc"
}
// CHECK: fragment shapes do not compose: A 16x8, B 8x32, C 16x32, D 32x16

// -----

sarek.kernel @k(%v : !sarek.vec<f16> "v", %i : i64 "i") {
  sarek.coopmat_decl "fa" a 16x16 : f16
  "sarek.coopmat_load"(%v, %i, %i) <{frag = "fa"}> : (!sarek.vec<f16>, i64, i64) -> ()
}
// CHECK: operand 'index' at position 1 does not verify:
// CHECK-NEXT: Expected attribute i32 but got i64

// -----

sarek.kernel @k(%x : f16 "x") {
  sarek.coopmat_decl "fc" acc 16x16 : f32
  sarek.coopmat_fill "fc", %x : f16
}
// CHECK: fragment 'fc' holds f32, the value is f16

// -----

sarek.kernel @k(%x : f32 "x") {
  sarek.coopmat_fill "fc", %x : f32
}
// CHECK: fragment 'fc' is not declared by a sarek.coopmat_decl
