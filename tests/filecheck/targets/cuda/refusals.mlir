// RUN: sarek-opt %S/../Inputs/cf_refusals.mlir -p 'sarek-pipeline{target=cuda}' -t cuda --verify-diagnostics --split-input-file | filecheck %s
// The cuda refusals of the C-family lowering and of the feature gate, one per split of the input.

// CHECK: r.py:2:5: error: CUDA: shared array 's' must be declared in a kernel, not in a helper
// CHECK: r.py:5:5: error: CUDA: the size of array 'a' must be a constant
// CHECK: r.py:9:9: error: CUDA: recursive helper @f is not supported
// CHECK: r.py:12:3: error: CUDA: %native not supported: this sarek.native carries no cuda source text, and a backend emits only text written for its own target
// CHECK: r.py:15:10: error: CUDA: 'atomic_and' on f32 is not supported (bitwise atomics need an integer element type; atomic_and/or/xor on the bits of a float is atomic_cas in a loop over sarek.bitcast)
