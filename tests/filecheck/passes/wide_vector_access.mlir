// RUN: sarek-opt %s -p sarek-wide-vector-access | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %s -t ptx | filecheck %s --check-prefix=PTX

// Whole-element reads and stores of a Vec of a 16-, 8- or 4-byte record of equal scalars are marked with
// their width; a read of one field, a 12-byte f32x3, a record with a bool and a shared array are not.
sarek.record @f32x4 {x : f32, y : f32, z : f32, w : f32}
sarek.record @f32x3 {x : f32, y : f32, z : f32}
sarek.record @i32x2 {x : i32, y : i32}
sarek.record @u8x4 {x : ui8, y : ui8, z : ui8, w : ui8}
sarek.record @flagged {a : f32, b : i1}
sarek.kernel @k(%x : !sarek.vec<!sarek.record<@f32x4>> "x", %y : !sarek.vec<!sarek.record<@f32x4>> "y",
                %t : !sarek.vec<!sarek.record<@f32x3>> "t", %p : !sarek.vec<!sarek.record<@i32x2>> "p",
                %c : !sarek.vec<!sarek.record<@u8x4>> "c", %f : !sarek.vec<!sarek.record<@flagged>> "f",
                %o : !sarek.vec<f32> "o") {
  %i = sarek.intrinsic "global_thread_id"() : () -> i32
  %a = sarek.array_read %x[%i] : !sarek.vec<!sarek.record<@f32x4>>
  %r = sarek.elem_ref %y[%i] : !sarek.vec<!sarek.record<@f32x4>>
  sarek.store %r, %a : !sarek.ref<!sarek.record<@f32x4>>
  %b = sarek.array_read %y[%i] : !sarek.vec<!sarek.record<@f32x4>>
  %bx = sarek.field %b "x" : f32
  %ta = sarek.array_read %t[%i] : !sarek.vec<!sarek.record<@f32x3>>
  %tr = sarek.elem_ref %t[%i] : !sarek.vec<!sarek.record<@f32x3>>
  sarek.store %tr, %ta : !sarek.ref<!sarek.record<@f32x3>>
  %pa = sarek.array_read %p[%i] : !sarek.vec<!sarek.record<@i32x2>>
  %px = sarek.field %pa "x" : i32
  %py = sarek.field %pa "y" : i32
  %ca = sarek.array_read %c[%i] : !sarek.vec<!sarek.record<@u8x4>>
  %cr = sarek.elem_ref %c[%i] : !sarek.vec<!sarek.record<@u8x4>>
  sarek.store %cr, %ca : !sarek.ref<!sarek.record<@u8x4>>
  %fa = sarek.array_read %f[%i] : !sarek.vec<!sarek.record<@flagged>>
  %fr = sarek.elem_ref %f[%i] : !sarek.vec<!sarek.record<@flagged>>
  sarek.store %fr, %fa : !sarek.ref<!sarek.record<@flagged>>
  %s = sarek.binop add %px, %py : i32
  %sf = sarek.cast %s : i32 to f32
  %sum = sarek.binop add %bx, %sf : f32
  %or = sarek.elem_ref %o[%i] : !sarek.vec<f32>
  sarek.store %or, %sum : !sarek.ref<f32>
}
// CHECK:      %a = sarek.array_read %x[%i] : !sarek.vec<!sarek.record<@f32x4>> attributes {sarek.wide_access = 128 : i32}
// CHECK:      sarek.store %r, %a : !sarek.ref<!sarek.record<@f32x4>> attributes {sarek.wide_access = 128 : i32}
// CHECK-NEXT: %b = sarek.array_read %y[%i] : !sarek.vec<!sarek.record<@f32x4>>{{$}}
// CHECK-NEXT: %bx = sarek.field %b "x" : f32
// CHECK-NEXT: %ta = sarek.array_read %t[%i] : !sarek.vec<!sarek.record<@f32x3>>{{$}}
// CHECK:      sarek.store %tr, %ta : !sarek.ref<!sarek.record<@f32x3>>{{$}}
// CHECK-NEXT: %pa = sarek.array_read %p[%i] : !sarek.vec<!sarek.record<@i32x2>> attributes {sarek.wide_access = 64 : i32}
// CHECK:      %ca = sarek.array_read %c[%i] : !sarek.vec<!sarek.record<@u8x4>> attributes {sarek.wide_access = 32 : i32}
// CHECK:      sarek.store %cr, %ca : !sarek.ref<!sarek.record<@u8x4>> attributes {sarek.wide_access = 32 : i32}
// CHECK-NEXT: %fa = sarek.array_read %f[%i] : !sarek.vec<!sarek.record<@flagged>>{{$}}
// CHECK:      sarek.store %fr, %fa : !sarek.ref<!sarek.record<@flagged>>{{$}}

// CUDA: sarek_ld128_f32x4(f32x4* p) { union { uint4 v; f32x4 t; } u; u.v = *(uint4*)p; return u.t; }
// CUDA: sarek_st128_f32x4(f32x4* p, f32x4 t) { union { uint4 v; f32x4 t; } u; u.t = t; *(uint4*)p = u.v; }
// CUDA: sarek_ld64_i32x2(i32x2* p) { union { uint2 v; i32x2 t; } u;
// CUDA: sarek_ld32_u8x4(u8x4* p) { union { unsigned int v; u8x4 t; } u;
// CUDA:      sarek_st128_f32x4(&y[sarek_i], sarek_ld128_f32x4(&x[sarek_i]));
// CUDA-NEXT: float sarek_bx = y[sarek_i].x;
// CUDA-NEXT: t[sarek_i] = t[sarek_i];
// CUDA-NEXT: i32x2 sarek_pa = sarek_ld64_i32x2(&p[sarek_i]);
// CUDA-NEXT: sarek_st32_u8x4(&c[sarek_i], sarek_ld32_u8x4(&c[sarek_i]));
// CUDA-NEXT: f[sarek_i] = f[sarek_i];

// OPENCL: static inline f32x4 sarek_ld128_f32x4(__global f32x4* p) { union { uint4 v; f32x4 t; } u; u.v = *(__global uint4*)p; return u.t; }
// OPENCL: static inline void sarek_st128_f32x4(__global f32x4* p, f32x4 t) {
// OPENCL: sarek_st128_f32x4(&y[(int)get_global_id(0)], sarek_ld128_f32x4(&x[(int)get_global_id(0)]));

// PTX lowering: one .v4/.v2 access where the lanes are 32-bit scalars (x is never written: the read-only path);
// u8x4 lane by lane (its lanes are bytes), the one-field read and f32x3 as before.
// PTX:      ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%ud{{[0-9]+}}];
// PTX:      st.global.v4.f32 [%ud{{[0-9]+}}], {%f1, %f2, %f3, %f4};
// PTX-NEXT: ld.global.f32
// PTX:      ld.global.nc.v2.s32 {%s{{[0-9]+}}, %s{{[0-9]+}}}, [%ud{{[0-9]+}}];
// PTX:      ld.global.u8
// PTX-NOT:  .v4
// PTX:      ret;
