// RUN: sarek-opt %S/../Inputs/c_reserved_names.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s
// RUN: sarek-opt %S/../Inputs/c_reserved_names.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=CL
// Names C reserves are never printed as declared: fields get `<f>_f`, types `<T>_t` (`v_` in front when the
// target reserves the whole `<T>_*` family, OpenCL's `half_*`), constructors that are reserved or named like a
// binder `<variant>_<ctor>`, kernels `sarek_<name>` (what the runtimes look up).

// CHECK:      typedef struct {
// CHECK-NEXT:   float int_f;
// CHECK-NEXT:   int NULL_f;
// CHECK-NEXT:   float x;
// CHECK-NEXT: } float4_t;
// CHECK:      typedef struct {
// CHECK-NEXT:   float half_f;
// CHECK-NEXT: } half_t;
// CHECK:      enum { opt_default = 0, opt_Some = 1, Nothing = 2 };
// CHECK:        half_t Some_v;
// CHECK:      extern "C" __global__ void sarek_main(float4_t* __restrict__ v,
// CHECK:        v[sarek_i].x = sarek_a;
// CHECK:        v[sarek_i] = float4_t{sarek_a, sarek_i, sarek_a};
// CHECK:        float Some = 2.0f;
// CHECK:          case opt_default: {
// CHECK:          case opt_Some: {
// CHECK:            out[sarek_i] = sarek_s.data.Some_v.half_f;
// CHECK:            out[sarek_i] = Some;

// CL:        float v_half_f;
// CL-NEXT: } v_half_t;
// CL:      __kernel void sarek_main(__global float4_t* restrict v,
// CL:        v[{{.*}}] = (float4_t){.int_f = sarek_a, .NULL_f = {{.*}}, .x = sarek_a};
// CL:            out[{{.*}}] = sarek_s.data.Some_v.v_half_f;
