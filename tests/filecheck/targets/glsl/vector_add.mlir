// RUN: sarek-opt %s -t glsl | filecheck %s
// RUN: sarek-opt %s -t 'glsl{block="64,2,1"}' | filecheck %s --check-prefix=BLOCK
// RUN: sarek-opt %s -p sarek-lower-glsl | filecheck %s --check-prefix=IR
// RUN: sarek-opt %s -p sarek-lower-glsl | sarek-opt -t glsl | filecheck %s

builtin.module {
  sarek.kernel @vector_add(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %tid = sarek.let "tid" %g : i32
    %lt = sarek.binop lt %tid, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %a[%tid] : !sarek.vec<f32>
      %y = sarek.array_read %b[%tid] : !sarek.vec<f32>
      %s = sarek.binop add %x, %y : f32
      %p = sarek.elem_ref %c[%tid] : !sarek.vec<f32>
      sarek.store %p, %s : !sarek.ref<f32>
      %l = sarek.array_len %c : !sarek.vec<f32>
    }
  }
}

// CHECK:      #version 450
// CHECK-NEXT: // kernel vector_add; workgroup size 256x1x1 is a compile-time specialization (option block=X,Y,Z)
// CHECK-NEXT: layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;
// CHECK-NEXT: layout(std430, set = 0, binding = 0) buffer Buffer_a { float a[]; };
// CHECK-NEXT: layout(std430, set = 0, binding = 1) buffer Buffer_b { float b[]; };
// CHECK-NEXT: layout(std430, set = 0, binding = 2) buffer Buffer_c { float c[]; };
// CHECK-NEXT: layout(push_constant) uniform PushConstants { int a_len; int b_len; int c_len; int n; } pc;
// CHECK-NEXT: #define a_len pc.a_len
// CHECK-NEXT: #define b_len pc.b_len
// CHECK-NEXT: #define c_len pc.c_len
// CHECK-NEXT: #define n pc.n
// CHECK-NEXT: void main() {
// CHECK-NEXT:   int tid = int(gl_GlobalInvocationID.x);
// CHECK-NEXT:   if ((tid < n)) {
// CHECK-NEXT:     c[tid] = (a[tid] + b[tid]);
// CHECK-NEXT:   }
// CHECK-NEXT: }

// BLOCK: layout(local_size_x = 64, local_size_y = 2, local_size_z = 1) in;

// IR:      sarek_glsl.shader @vector_add abi "{{.*}}\22block\22: [256, 1, 1]
// IR:        sarek_glsl.directive "#version 450"
// IR:        sarek_glsl.func "void main()" {
// IR-NEXT:     sarek_glsl.stmt "int tid = int(gl_GlobalInvocationID.x)"
// IR-NEXT:     sarek_glsl.if "(tid < n)" {
// IR-NEXT:       sarek_glsl.stmt "c[tid] = (a[tid] + b[tid])"
