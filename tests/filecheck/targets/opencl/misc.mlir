// RUN: sarek-opt %S/../Inputs/cf_misc.mlir -p 'sarek-pipeline{target=opencl opt=off}' -t opencl | filecheck %s --match-full-lines
// opencl source of cf_misc.mlir (the whole output, line by line)

// CHECK: enum { None = 0, Some = 1 };
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   int tag;
// CHECK-NEXT:   union {
// CHECK-NEXT:     long Some_v;
// CHECK-NEXT:   } data;
// CHECK-NEXT: } opt;
// CHECK-EMPTY:
// CHECK-NEXT: static inline opt make_opt_None() {
// CHECK-NEXT:   opt r;
// CHECK-NEXT:   r.tag = None;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline opt make_opt_Some(long v) {
// CHECK-NEXT:   opt r;
// CHECK-NEXT:   r.tag = Some;
// CHECK-NEXT:   r.data.Some_v = v;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: int gid() {
// CHECK-NEXT:   return (int)get_global_id(0);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __kernel void misc(__global long* restrict out, int sarek_out_length, __global float* restrict f, int sarek_f_length, int flag) {
// CHECK-NEXT:   int sarek_i = gid();
// CHECK-NEXT:   long tmp[8] = {0};
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT:   for (int k = 8; k > 0; k -= 2) {
// CHECK-NEXT:     tmp[(k - 1)] = ((long)k + 5000000000L);
// CHECK-NEXT:   }
// CHECK-NEXT:   opt sarek_o = (flag ? make_opt_Some(tmp[0]) : make_opt_None());
// CHECK-NEXT:   long sarek_r;
// CHECK-NEXT:   switch (sarek_o.tag) {
// CHECK-NEXT:     case Some: {
// CHECK-NEXT:       long xl = sarek_o.data.Some_v;
// CHECK-NEXT:       sarek_r = (xl * 2L);
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:     default: {
// CHECK-NEXT:       sarek_r = -1L;
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   {
// CHECK-NEXT:     out[sarek_i] = sarek_r;
// CHECK-NEXT:   }
// CHECK-NEXT:   mem_fence(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:   float sarek_fi = f[sarek_i];
// CHECK-NEXT:   f[sarek_i] = ((!(convert_int_sat_rtz(sarek_fi) != 0)) ? (-sarek_fi) : 0.0015f);
// CHECK-NEXT:   /* opencl native */
// CHECK-NEXT: }
