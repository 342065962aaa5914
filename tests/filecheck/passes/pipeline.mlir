// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %s --check-prefix=SRC
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

// CHECK:      "sarek_c.func"() <{func_name = "scale", prefix = "extern \22C\22 __global__", ret = "void", param_types = ["float* __restrict__", "int", "float"], param_names = ["v", "sarek_v_length", "k"], param_suffixes = ["", "", ""]}> ({
// CHECK:        "sarek_c.expr"() <{template = "(int)(blockIdx.x * blockDim.x + threadIdx.x)"}>
// CHECK:        "sarek_c.decl"(%{{.*}}) <{var_name = "sarek_i"}>
// CHECK:        "sarek_c.binary"(%{{.*}}, %{{.*}}) <{op = "<"}>
// CHECK:        "sarek_c.if"
// CHECK:          "sarek_c.assign"
// CHECK-NOT:  sarek.kernel

// SRC:      extern "C" __global__ void scale(float* __restrict__ v, int sarek_v_length, float k) {
// SRC-NEXT:   int sarek_i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// SRC-NEXT:   if (sarek_i < sarek_v_length) {
// SRC-NEXT:     v[sarek_i] = (v[sarek_i] * k);
// SRC-NEXT:   }
// SRC-NEXT: }

// BAD: error: sarek-pipeline: unknown target 'vulkan' (known: cuda, glsl, hip, metal, opencl, ptx, wgsl)
