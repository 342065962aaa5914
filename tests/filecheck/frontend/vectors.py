# RUN: sarek ir %s:step | filecheck %s
# RUN: sarek emit %s:step -t cuda | filecheck %s --check-prefix=CUDA
# RUN: sarek emit %s:step -t opencl | filecheck %s --check-prefix=OPENCL
# RUN: sarek emit %s:step -t glsl | filecheck %s --check-prefix=GLSL
# RUN: sarek emit %s:step -t wgsl | filecheck %s --check-prefix=WGSL
# RUN: sarek emit %s:step -t ptx | filecheck %s --check-prefix=PTX

from sarek import Vec, f32, f32x3, f32x4, i32, kernel
from sarek import math as sm
from sarek.gpu import global_thread_id


@kernel
def step(pos: Vec[f32x3], vel: Vec[f32x3], q: Vec[f32x4], dt: f32, n: i32):
    i = global_thread_id
    if i < n:
        p = pos[i] + vel[i] * dt
        p.y = -p.y
        pos[i] = sm.normalize(p) if all(p > 0.0) else f32x3(sm.dot(p, p))
        q[i] = 2.0 * q[i]

# The operators are expanded lane by lane into record ops: fields, scalar ops, make_record.
# CHECK:      sarek.record @f32x3 {x : f32, y : f32, z : f32}
# CHECK:      sarek.record @f32x4 {x : f32, y : f32, z : f32, w : f32}
# CHECK:      %[[P:[0-9]+]] = sarek.array_read %pos[%i] : !sarek.vec<!sarek.record<@f32x3>>
# CHECK:      %[[V:[0-9]+]] = sarek.array_read %vel[%i] : !sarek.vec<!sarek.record<@f32x3>>
# CHECK:      sarek.field %[[V]] "x" : f32
# CHECK:      sarek.binop mul {{.*}}, %dt : f32
# CHECK:      sarek.make_record @f32x3(
# CHECK:      sarek.binop add
# CHECK:      %p = sarek.let_mut "p" {{.*}} : !sarek.record<@f32x3>
# CHECK:      sarek.unop neg {{.*}} : f32
# CHECK:      sarek.field_ref %p "y" : !sarek.ref<f32>
# `p > 0.0`: a boolx3 of three comparisons, `all` their conjunction
# CHECK:      sarek.binop gt {{.*}} : f32
# CHECK:      sarek.make_record @boolx3(
# CHECK:      sarek.binop and
# normalize: each lane over sqrt(dot(p, p))
# CHECK:      sarek.intrinsic "sqrt"
# CHECK-COUNT-3: sarek.binop div
# the broadcast f32x3(s): one value three times
# CHECK:      sarek.make_record @f32x3(%[[S:[0-9]+]], %[[S]], %[[S]])

# CUDA:       typedef struct {
# CUDA-NEXT:    float x;
# CUDA-NEXT:    float y;
# CUDA-NEXT:    float z;
# CUDA-NEXT:  } f32x3;
# CUDA:       sarek_ld128_f32x4(f32x4* p) { union { uint4 v; f32x4 t; } u;
# CUDA:       f32x3* __restrict__ pos
# CUDA:       sarek_st128_f32x4(&q[i], f32x4{

# OPENCL:     } f32x3;
# OPENCL:     static inline f32x4 sarek_ld128_f32x4(__global f32x4* p) { union { uint4 v; f32x4 t; } u; u.v = *(__global uint4*)p;
# OPENCL:     sarek_st128_f32x4(&q[i], (f32x4){

# GLSL:       struct f32x3 {
# GLSL:       buffer Buffer_pos { f32x3 pos[]; };
# GLSL:       f32x3(

# WGSL:       struct f32x3 {
# WGSL:       var<storage, read_write> pos : array<f32x3>;

# PTX:        .entry step(
# PTX:        sqrt.rn.f32
