// RUN: sarek-opt %s -t wgsl | filecheck %s
// RUN: sarek-opt %s -t 'wgsl{block="64,2,1"}' | filecheck %s --check-prefix=BLOCK
// RUN: sarek-opt %s -p sarek-lower-wgsl | filecheck %s --check-prefix=IR
// RUN: sarek-opt %s -p sarek-lower-wgsl | sarek-opt -t wgsl | filecheck %s

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

// CHECK:      // kernel vector_add; workgroup size 256x1x1 is a compile-time specialization (option block=X,Y,Z)
// CHECK-NEXT: @group(0) @binding(0) var<storage, read_write> a : array<f32>;
// CHECK-NEXT: @group(0) @binding(1) var<storage, read_write> b : array<f32>;
// CHECK-NEXT: @group(0) @binding(2) var<storage, read_write> c : array<f32>;
// CHECK-NEXT: struct Params {
// CHECK-NEXT:   sarek_a_length : i32,
// CHECK-NEXT:   sarek_b_length : i32,
// CHECK-NEXT:   sarek_c_length : i32,
// CHECK-NEXT:   n : i32,
// CHECK-NEXT: }
// CHECK-NEXT: @group(0) @binding(3) var<uniform> params : Params;
// CHECK:      @compute @workgroup_size(256, 1, 1)
// CHECK-NEXT: fn main(@builtin(global_invocation_id) sarek_gid_in : vec3<u32>, {{.*}}) {
// CHECK:        let tid : i32 = i32(sarek_gid.x);
// CHECK-NEXT:   if ((tid < params.n)) {
// CHECK-NEXT:     c[tid] = (a[tid] + b[tid]);
// CHECK-NEXT:   }
// CHECK-NEXT: }

// BLOCK: @compute @workgroup_size(64, 2, 1)

// IR:      sarek_wgsl.shader @vector_add abi "{{.*}}\22block\22: [256, 1, 1]
// IR:        sarek_wgsl.func "@compute @workgroup_size(256, 1, 1)\0Afn main({{.*}}" {
// IR:          sarek_wgsl.stmt "let tid : i32 = i32(sarek_gid.x)"
// IR-NEXT:     sarek_wgsl.if "(tid < params.n)" {
// IR-NEXT:       sarek_wgsl.stmt "c[tid] = (a[tid] + b[tid])"
