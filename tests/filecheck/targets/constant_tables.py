# RUN: sarek emit -t cuda %s:smooth | filecheck %s --check-prefix=CUDA
# RUN: sarek emit -t hip %s:smooth | filecheck %s --check-prefix=HIP
# RUN: sarek emit -t opencl %s:smooth | filecheck %s --check-prefix=OPENCL
# RUN: sarek emit -t metal %s:smooth | filecheck %s --check-prefix=METAL
# RUN: sarek emit -t ptx %s:smooth | filecheck %s --check-prefix=PTX
# RUN: sarek emit -t glsl %s:smooth | filecheck %s --check-prefix=GLSL
# Module-level tables indexed in a kernel live in constant memory (sarek-constant-tables), one copy per
# program at module scope; a helper's table too. GLSL keeps a per-thread table.

import numpy as np

from sarek import Vec, device, f32, i32, kernel
from sarek.gpu import global_thread_id

TAPS = (0.25, 0.5, 0.25)
OFFSETS = np.array([[-1, 0], [1, 2]], dtype=np.int32)
SIGN = (True, False)


@device
def weight(k: i32) -> f32:
    return TAPS[k]


@kernel
def smooth(x: Vec[f32], y: Vec[f32]):
    i = global_thread_id
    acc = 0.0
    for k in range(3):
        acc += weight(k) * x[i + OFFSETS[k % 2, i % 2] + 1]
    y[i] = acc if SIGN[i % 2] else -acc

# CUDA:      __constant__ float weight_TAPS[3] = {0.25f, 0.5f, 0.25f};
# CUDA-NEXT: __constant__ int smooth_SIGN[2] = {1, 0};
# CUDA-NEXT: __constant__ int smooth_OFFSETS[4] = {-1, 0, 1, 2};
# CUDA:      return weight_TAPS[k];
# CUDA:      smooth_OFFSETS[

# HIP:      __constant__ float weight_TAPS[3] = {0.25f, 0.5f, 0.25f};

# OPENCL:      __constant float weight_TAPS[3] = {0.25f, 0.5f, 0.25f};
# OPENCL-NEXT: __constant int smooth_SIGN[2] = {1, 0};
# OPENCL-NEXT: __constant int smooth_OFFSETS[4] = {-1, 0, 1, 2};

# METAL:      constant float weight_TAPS[3] = {0.25f, 0.5f, 0.25f};
# METAL-NEXT: constant int smooth_SIGN[2] = {true, false};
# METAL-NEXT: constant int smooth_OFFSETS[4] = {-1, 0, 1, 2};

# the bytes of each table (bool as a 32-bit 0/1), little-endian; read with ld.const
# PTX:      .const .align 4 .b8 smooth_SIGN[8] = {1, 0, 0, 0, 0, 0, 0, 0};
# PTX-NEXT: .const .align 4 .b8 smooth_OFFSETS[16] = {255, 255, 255, 255, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0};
# PTX-NEXT: .const .align 4 .b8 weight_TAPS[12] = {0, 0, 128, 62, 0, 0, 0, 63, 0, 0, 128, 62};
# PTX:      mov.u64 [[T:%ud[0-9]+]], weight_TAPS;
# PTX:      ld.const.f32

# GLSL-NOT: const float
# GLSL:     float TAPS[3];
