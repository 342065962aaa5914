/* sarek's HIP f16 shim over CUDA */
#pragma once
#include <cuda_fp16.h>
