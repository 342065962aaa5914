# RUN: sarek ir %s:two_phase | filecheck %s --check-prefix=IR
# RUN: not sarek ir %s:by_block 2>&1 | filecheck %s --check-prefix=BLOCK
# RUN: not sarek ir %s:by_call 2>&1 | filecheck %s --check-prefix=CALL
# RUN: not sarek emit -t opencl %s:two_phase 2>&1 | filecheck %s --check-prefix=OPENCL
# grid_barrier() is sarek.grid_barrier: every thread of every block waits there (CUDA and PTX launch the kernel
# cooperatively); refused under control that varies between threads or blocks, and on targets without a
# cooperative launch, with what to do instead.

from sarek import Vec, device, f32, kernel
from sarek.gpu import block_dim_x, block_idx_x, global_thread_id, grid_barrier, grid_dim_x, thread_idx_x


@device
def sync() -> None:
    grid_barrier()


@kernel
def two_phase(x: Vec[f32], y: Vec[f32]):
    i = global_thread_id
    x[i] = f32(i)
    grid_barrier()
    y[i] = x[(block_idx_x + 1) % grid_dim_x * block_dim_x + thread_idx_x]

# IR:      sarek.store
# IR-NEXT: sarek.grid_barrier
# IR-NEXT: sarek.intrinsic "block_idx_x"


@kernel
def by_block(x: Vec[f32]):
    if block_idx_x == 0:
        grid_barrier()

# BLOCK: grid_barrier.py:33:9: error: grid_barrier() under divergent control flow (the condition at line 32 depends on block_idx_x): every thread of every block must reach it


@kernel
def by_call(x: Vec[f32], n: f32):
    if x[0] > n:
        sync()

# CALL: grid_barrier.py:41:9: error: a call to 'sync' (which synchronises) under divergent control flow (the condition at line 40 depends on a value read from memory): every thread of every block must reach it

# OPENCL: grid_barrier.py:22:5: error: OpenCL: grid-wide barriers not yet supported (OpenCL has no cooperative launch: blocks of one launch may run one after another); split the kernel into two launches at this point (a launch boundary is a grid-wide barrier), or run it on CUDA or PTX
