# RUN: sarek emit %s:k -t cuda | filecheck %s --check-prefix=CUDA
# RUN: sarek emit %s:k -t opencl | filecheck %s --check-prefix=OPENCL
# RUN: sarek emit %s:k -t wgsl | filecheck %s --check-prefix=WGSL
# RUN: sarek emit %s:k -t glsl | filecheck %s --check-prefix=GLS
# RUN: sarek emit %s:k -t metal | filecheck %s --check-prefix=MSL
# RUN: sarek emit %s:k -t ptx | filecheck %s --check-prefix=PTX
# RUN: sarek ir %s:k | filecheck %s --check-prefix=IR
# RUN: not sarek ir %s:bad_exponent 2>&1 | filecheck %s --check-prefix=BADEXP
# RUN: not sarek ir %s:bad_frexp 2>&1 | filecheck %s --check-prefix=BADFREXP
# ldexp is every language's own but PTX's (the math library's bit routine there); lgamma the C family's libm
# where it has it, else the library's (f64 on GLSL and PTX, the f32 build on WGSL and Metal); frexp is the front
# end's: the exponent field of the bits, a tuple[f32, i32].

from sarek import Vec, f32, i32, kernel
from sarek import math as sm
from sarek.gpu import global_thread_id


@kernel
def k(x: Vec[f32], e: Vec[i32]):
    i = global_thread_id
    m, ex = sm.frexp(x[i])
    x[i] = sm.ldexp(x[i], e[i]) + sm.lgamma(x[i]) + m
    e[i] = ex

# IR:      sarek.record @tuple_f32_i32 {e0 : f32, e1 : i32}
# IR:      sarek.bitcast %{{[0-9]+}} : f32 to i32
# IR:      sarek.constant 23 : i32
# IR:      sarek.binop shr
# IR:      sarek.constant 255 : i32
# IR:      sarek.make_record @tuple_f32_i32
# IR:      sarek.intrinsic "ldexp"(%{{[0-9]+}}, %{{[0-9]+}}) : (f32, i32) -> f32
# IR:      sarek.intrinsic "lgamma"(%{{[0-9]+}}) : (f32) -> f32
# CUDA: ldexpf(
# CUDA: lgammaf(
# OPENCL: ldexp(
# OPENCL: lgamma(
# WGSL: fn sarek_lgamma_f32(
# WGSL: ldexp(
# GLS: double sarek_lgamma_f64(
# GLS: ldexp(
# MSL: sarek_lgamma_f32(
# MSL: ldexp(
# PTX-NOT: {{lgamma|ldexp}}
# PTX: cvt.f64.f32


@kernel
def bad_exponent(x: Vec[f32]):
    x[0] = sm.ldexp(x[0], 2.5)

# BADEXP: error: sm.ldexp() needs an integer exponent second, got f32 (write sm.ldexp(x, i32(n)))


@kernel
def bad_frexp(e: Vec[i32]):
    e[0] = sm.frexp(e[0])[1]

# BADFREXP: error: sm.frexp() needs a float (f16, bf16, f32 or f64), got i32
