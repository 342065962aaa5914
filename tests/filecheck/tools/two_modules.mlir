// RUN: not sarek-opt %s -t cuda 2>&1 | filecheck %s --check-prefix=ON-CUDA
// RUN: not sarek-opt %s -t hip 2>&1 | filecheck %s --check-prefix=ON-HIP
// RUN: not sarek-opt %s -t opencl 2>&1 | filecheck %s --check-prefix=ON-OPENCL
// RUN: not sarek-opt %s -t metal 2>&1 | filecheck %s --check-prefix=ON-METAL
// RUN: not sarek-opt %s -t glsl 2>&1 | filecheck %s --check-prefix=ON-GLSL
// RUN: not sarek-opt %s -t wgsl 2>&1 | filecheck %s --check-prefix=ON-WGSL
// RUN: not sarek-opt %s -t ptx 2>&1 | filecheck %s --check-prefix=ON-PTX
// RUN: not sarek-opt %s -p 'sarek-pipeline{target=glsl}' 2>&1 | filecheck %s --check-prefix=PIPE

// Two modules in one file (the parser wraps them in a third): every target refuses the input instead of
// emitting nothing (GLSL and WGSL printed an empty shader with exit status 0).
builtin.module {
  sarek.kernel @a(%n : i32 "n") {
  }
}
builtin.module {
  sarek.kernel @b(%n : i32 "n") {
  }
}

// ON-CUDA: error: CUDA: the input holds 2 modules; a target takes one (put the kernels in one builtin.module, or split the file with `// -----` and --split-input-file)
// ON-HIP: error: HIP: the input holds 2 modules
// ON-OPENCL: error: OpenCL: the input holds 2 modules
// ON-METAL: error: Metal: the input holds 2 modules
// ON-GLSL: error: GLSL: the input holds 2 modules
// ON-WGSL: error: WGSL: the input holds 2 modules
// ON-PTX: error: PTX: the input holds 2 modules
// PIPE: error: GLSL: the input holds 2 modules
