// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=cuda}' --verify-diagnostics --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=glsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=TARGET

// sarek-lower-cfamily run on its own: what the pipeline's earlier passes would have handled is refused.

// A warp shuffle that sarek-lower-warp has not turned into a guarded helper.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<i32> "v") {
    %z = sarek.constant 0 : i32
    %x = sarek.array_read %v[%z] : !sarek.vec<i32>
    %y = sarek.intrinsic "warp_shuffle_xor"(%x, %z) : (i32, i32) -> i32 loc("w.py":4:9)
  }
}
// CHECK: w.py:4:9: error: CUDA: 'warp_shuffle_xor' must be lowered by sarek-lower-warp before the CUDA lowering

// TARGET: error: sarek-lower-cfamily: unknown target 'glsl' (known: cuda, hip, opencl, metal)
