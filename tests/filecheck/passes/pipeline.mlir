// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %s --check-prefix=SRC
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda verify-each=true}' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pipeline{target=vulkan}' --verify-diagnostics | filecheck %s --check-prefix=BAD

// sarek-pipeline{target=cuda} ends in the sarek_c dialect; -t cuda prints lowered IR as it is.
builtin.module {
  sarek.kernel @scale(%v : !sarek.vec<f32> "v", %k : f32 "k") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %n = sarek.array_len %v : !sarek.vec<f32>
    %ok = sarek.binop lt %i, %n : i32
    sarek.if %ok {
      %x = sarek.array_read %v[%i] : !sarek.vec<f32>
      %y = sarek.binop mul %x, %k : f32
      %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
      sarek.store %p, %y : !sarek.ref<f32>
    }
  }
}

// CHECK:      sarek_c.func "extern \22C\22 __global__" "void" @scale(%{{.*}} : "float* __restrict__" "v", %{{.*}} : "int" "sarek_v_length", %{{.*}} : "float" "k") {
// CHECK:        sarek_c.expr "(int)(blockIdx.x * blockDim.x + threadIdx.x)" : "int"
// CHECK:        sarek_c.decl "sarek_i" %{{.*}} : "int"
// CHECK:        sarek_c.binary "<" %{{.*}}, %{{.*}} : "int"
// CHECK:        sarek_c.if
// CHECK:          sarek_c.assign
// CHECK-NOT:  sarek.kernel

// SRC:      extern "C" __global__ void scale(float* __restrict__ v, int sarek_v_length, float k) {
// SRC-NEXT:   int sarek_i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// SRC-NEXT:   if (sarek_i < sarek_v_length) {
// SRC-NEXT:     v[sarek_i] = (v[sarek_i] * k);
// SRC-NEXT:   }
// SRC-NEXT: }

// BAD: error: sarek-pipeline: unknown target 'vulkan' (known: cuda, glsl, hip, metal, opencl, ptx, wgsl)

// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' --print-between-passes 2>&1 | filecheck %s --check-prefix=STEPS
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda opt=off}' --print-between-passes 2>&1 | filecheck %s --check-prefix=NOOPT
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda opt=maybe}' --verify-diagnostics | filecheck %s --check-prefix=BADOPT
// The optimisation passes run after the feature gate and sarek-expand-math, each shown as a step; opt=off
// drops them.
// STEPS:      IR after sarek-expand-math:
// STEPS:      IR after sarek-canonicalize:
// STEPS:      IR after sarek-cse:
// STEPS:      IR after sarek-unroll:
// STEPS:      IR after sarek-canonicalize:
// STEPS:      IR after sarek-licm:
// STEPS:      IR after sarek-strength-reduce:
// STEPS:      IR after sarek-cse:
// STEPS:      IR after sarek-canonicalize:
// STEPS:      IR after sarek-order-type-decls:
// NOOPT:      IR after sarek-expand-math:
// NOOPT-NEXT: builtin.module
// NOOPT-NOT:  IR after sarek-canonicalize:
// BADOPT: error: sarek-pipeline: opt must be on or off, not 'maybe'
