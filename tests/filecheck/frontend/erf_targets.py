# RUN: sarek emit %s:k -t cuda | filecheck %s --check-prefix=CUDA
# RUN: sarek emit %s:k -t opencl | filecheck %s --check-prefix=OPENCL
# RUN: sarek emit %s:k -t wgsl | filecheck %s --check-prefix=WGSL
# RUN: sarek emit %s:k -t glsl | filecheck %s --check-prefix=GLS
# RUN: sarek emit %s:k -t metal | filecheck %s --check-prefix=MSL
# RUN: sarek emit %s:k -t ptx | filecheck %s --check-prefix=PTX
# erf/erfc/atanh: the C family's libm where it has them, else the math library's routines (sarek-expand-math):
# WGSL and Metal build them in f32 (no doubles), GLSL and PTX call the f64 ones through a widening.

from sarek import Vec, f32, kernel
from sarek import math as sm
from sarek.gpu import global_thread_id


@kernel
def k(x: Vec[f32]):
    i = global_thread_id
    x[i] = sm.erf(x[i]) + sm.erfc(x[i]) + sm.atanh(x[i])

# CUDA: erff(
# CUDA: erfcf(
# CUDA: atanhf(
# OPENCL: erf(
# OPENCL: erfc(
# OPENCL: atanh(
# WGSL: fn sarek_erf_f32(
# WGSL: fn sarek_erfc_f32(
# WGSL: fn sarek_atanh_f32(
# GLS: double sarek_erf_f64(
# GLS: double sarek_erfc_f64(
# GLS: double sarek_atanh_f64(
# MSL-NOT: erf(
# MSL: sarek_erf_f32(
# MSL: sarek_erfc_f32(
# MSL: sarek_atanh_f32(
# PTX-NOT: erf
# PTX: cvt.f64.f32
