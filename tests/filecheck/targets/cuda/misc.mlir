// RUN: sarek-opt %S/../Inputs/cf_misc.mlir -p 'sarek-pipeline{target=cuda opt=off}' -t cuda | filecheck %s --match-full-lines
// cuda source of cf_misc.mlir (the whole output, line by line)

// CHECK: enum { None = 0, Some = 1 };
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   int tag;
// CHECK-NEXT:   union {
// CHECK-NEXT:     long long Some_v;
// CHECK-NEXT:   } data;
// CHECK-NEXT: } opt;
// CHECK-EMPTY:
// CHECK-NEXT: __device__ __host__ inline opt make_opt_None() {
// CHECK-NEXT:   opt r;
// CHECK-NEXT:   r.tag = None;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ __host__ inline opt make_opt_Some(long long v) {
// CHECK-NEXT:   opt r;
// CHECK-NEXT:   r.tag = Some;
// CHECK-NEXT:   r.data.Some_v = v;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ int gid() {
// CHECK-NEXT:   return (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void misc(long long* __restrict__ out, int sarek_out_length, float* __restrict__ f, int sarek_f_length, int flag) {
// CHECK-NEXT:   int sarek_i = gid();
// CHECK-NEXT:   long long tmp[8] = {0};
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT:   for (int k = 8; k > 0; k -= 2) {
// CHECK-NEXT:     tmp[(k - 1)] = ((long long)k + 5000000000LL);
// CHECK-NEXT:   }
// CHECK-NEXT:   opt sarek_o = (flag ? make_opt_Some(tmp[0]) : make_opt_None());
// CHECK-NEXT:   long long sarek_r;
// CHECK-NEXT:   switch (sarek_o.tag) {
// CHECK-NEXT:     case Some: {
// CHECK-NEXT:       long long xl = sarek_o.data.Some_v;
// CHECK-NEXT:       sarek_r = (xl * 2LL);
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:     default: {
// CHECK-NEXT:       sarek_r = -1LL;
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   {
// CHECK-NEXT:     out[sarek_i] = sarek_r;
// CHECK-NEXT:   }
// CHECK-NEXT:   __threadfence();
// CHECK-NEXT:   float sarek_fi = f[sarek_i];
// CHECK-NEXT:   f[sarek_i] = ((!(__float2int_rz(sarek_fi) != 0)) ? (-sarek_fi) : 0.0015f);
// CHECK-NEXT:   /* cuda native */
// CHECK-NEXT: }
