// RUN: sarek-opt %s -p 'sarek-widen-f16{target=opencl}' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-widen-f16{target=cuda}' | filecheck %s --check-prefix=CUDA

// f16 vectors hold u16 bits, scalars are f32; a read widens the bits exactly, a store rounds to nearest even,
// a cast to f16 and a let_mut of f16 round (bits and back), a constant is rounded when the pass runs, an f16
// scalar parameter is rounded on entry. CUDA keeps its half.
builtin.module {
  sarek.kernel @k(%x : !sarek.vec<f16> "x", %a : f16 "a", %f : f32 "f") {
    %z = sarek.constant 0 : i32
    %h = sarek.array_read %x[%z] : !sarek.vec<f16>
    %c = sarek.constant 0.1 : f16
    %s = sarek.binop add %h, %c : f16
    %m = sarek.binop mul %s, %a : f16
    %n = sarek.cast %f : f32 to f16
    %l = sarek.let_mut "l" %n : f16
    %p = sarek.elem_ref %x[%z] : !sarek.vec<f16>
    sarek.store %p, %m : !sarek.ref<f16>
  }
}
// CHECK:      sarek.kernel @k(%x: !sarek.vec<ui16> "x", %a: f32 "a", %f: f32 "f") {
// CHECK:        sarek.bitcast %a : f32 to i32
// CHECK:        %[[BITS:.*]] = sarek.array_read %x[%{{.*}}] : !sarek.vec<ui16>
// CHECK-NEXT:   sarek.cast %[[BITS]] : ui16 to i32
// CHECK:        %c = sarek.constant 0.099975586 : f32
// CHECK:        sarek.binop add %{{.*}}, %{{.*}} : f32
// CHECK:        sarek.let_mut "l" %{{.*}} : f32
// CHECK:        %[[R:.*]] = sarek.elem_ref %x[%{{.*}}] : !sarek.vec<ui16>
// CHECK:        %[[S:.*]] = sarek.cast %{{.*}} : i32 to ui16
// CHECK-NEXT:   sarek.store %[[R]], %[[S]] : !sarek.ref<ui16>
// CHECK-NOT:  f16
// CUDA:       sarek.kernel @k(%x: !sarek.vec<f16> "x", %a: f16 "a", %f: f32 "f") {
// CUDA:         sarek.store %{{.*}}, %m : !sarek.ref<f16>
