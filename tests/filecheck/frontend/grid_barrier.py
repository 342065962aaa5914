# RUN: not sarek ir %s:k 2>&1 | filecheck %s
# grid_barrier() is refused, located, with what to do instead (no device launches cooperatively yet).

from sarek import Vec, f32, kernel
from sarek.gpu import global_thread_id, grid_barrier


@kernel
def k(x: Vec[f32]):
    x[global_thread_id] = 1.0
    grid_barrier()

# CHECK: grid_barrier.py:11:5: error: grid_barrier() is not supported yet: it needs a cooperative launch (CUDA's cudaLaunchCooperativeKernel), which no sarek device makes yet; split the kernel into two launches at this point (a launch boundary is a grid-wide barrier)
