// RUN: sarek-opt %s -p 'sarek-pipeline{target=wgsl}' -t wgsl | filecheck %s

// sarek.math.bit_reverse on i32 is WGSL's reverseBits (WGSL has no 64-bit integers: the gate refuses i64)

builtin.module {
  sarek.kernel @brev32(%a : !sarek.vec<i32> "a") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%i] : !sarek.vec<i32>
    %r = sarek.intrinsic "bit_reverse"(%x) : (i32) -> i32
    %p = sarek.elem_ref %a[%i] : !sarek.vec<i32>
    sarek.store %p, %r : !sarek.ref<i32>
  }
}

// CHECK: a[i32(sarek_gid.x)] = reverseBits(a[i32(sarek_gid.x)]);
