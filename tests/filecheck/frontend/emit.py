# RUN: sarek emit %s:saxpy -t cuda | filecheck %s --check-prefix=CUDA
# RUN: sarek emit %s:saxpy -t opencl | filecheck %s --check-prefix=OPENCL

from sarek import Vec, f32, i32, kernel
from sarek.gpu import global_thread_id


@kernel
def saxpy(x: Vec[f32], y: Vec[f32], alpha: f32, n: i32):
    i = global_thread_id
    if i < n:
        y[i] = alpha * x[i] + y[i]

# CUDA: saxpy
# CUDA: alpha
# OPENCL: __kernel
# OPENCL: saxpy
