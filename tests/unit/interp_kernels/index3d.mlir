// every index intrinsic of a 3D grid of 3D blocks; o[8*g + k], g the linear global id
builtin.module {
  sarek.kernel @index3d(%o : !sarek.vec<i32> "o") {
    %tx = sarek.intrinsic "thread_idx_x"() : () -> i32
    %ty = sarek.intrinsic "thread_idx_y"() : () -> i32
    %tz = sarek.intrinsic "thread_idx_z"() : () -> i32
    %gx = sarek.intrinsic "global_idx_x"() : () -> i32
    %gy = sarek.intrinsic "global_idx_y"() : () -> i32
    %gz = sarek.intrinsic "global_idx_z"() : () -> i32
    %sx = sarek.intrinsic "global_size_x"() : () -> i32
    %sy = sarek.intrinsic "global_size_y"() : () -> i32
    %sz = sarek.intrinsic "global_size_z"() : () -> i32
    %bx = sarek.intrinsic "block_idx_x"() : () -> i32
    %by = sarek.intrinsic "block_idx_y"() : () -> i32
    %bz = sarek.intrinsic "block_idx_z"() : () -> i32
    %dx = sarek.intrinsic "block_dim_x"() : () -> i32
    %dy = sarek.intrinsic "block_dim_y"() : () -> i32
    %dz = sarek.intrinsic "block_dim_z"() : () -> i32
    %nx = sarek.intrinsic "grid_dim_x"() : () -> i32
    %ny = sarek.intrinsic "grid_dim_y"() : () -> i32
    %nz = sarek.intrinsic "grid_dim_z"() : () -> i32
    %gt = sarek.intrinsic "global_thread_id"() : () -> i32
    %gs = sarek.intrinsic "global_size"() : () -> i32
    %yz = sarek.binop mul %gz, %sy : i32
    %yz2 = sarek.binop add %yz, %gy : i32
    %yzx = sarek.binop mul %yz2, %sx : i32
    %g = sarek.binop add %yzx, %gx : i32
    %c8 = sarek.constant 8 : i32
    %c1 = sarek.constant 1 : i32
    %c100 = sarek.constant 100 : i32
    %j0 = sarek.binop mul %g, %c8 : i32
    %t1 = sarek.binop mul %tz, %c100 : i32
    %t2 = sarek.binop add %t1, %ty : i32
    %t3 = sarek.binop mul %t2, %c100 : i32
    %tt = sarek.binop add %t3, %tx : i32
    %p0 = sarek.elem_ref %o[%j0] : !sarek.vec<i32>
    sarek.store %p0, %tt : !sarek.ref<i32>
    %b1 = sarek.binop mul %bz, %c100 : i32
    %b2 = sarek.binop add %b1, %by : i32
    %b3 = sarek.binop mul %b2, %c100 : i32
    %bb = sarek.binop add %b3, %bx : i32
    %j1 = sarek.binop add %j0, %c1 : i32
    %p1 = sarek.elem_ref %o[%j1] : !sarek.vec<i32>
    sarek.store %p1, %bb : !sarek.ref<i32>
    %d1 = sarek.binop mul %dz, %c100 : i32
    %d2 = sarek.binop add %d1, %dy : i32
    %d3 = sarek.binop mul %d2, %c100 : i32
    %dd = sarek.binop add %d3, %dx : i32
    %j2 = sarek.binop add %j1, %c1 : i32
    %p2 = sarek.elem_ref %o[%j2] : !sarek.vec<i32>
    sarek.store %p2, %dd : !sarek.ref<i32>
    %n1 = sarek.binop mul %nz, %c100 : i32
    %n2 = sarek.binop add %n1, %ny : i32
    %n3 = sarek.binop mul %n2, %c100 : i32
    %nn = sarek.binop add %n3, %nx : i32
    %j3 = sarek.binop add %j2, %c1 : i32
    %p3 = sarek.elem_ref %o[%j3] : !sarek.vec<i32>
    sarek.store %p3, %nn : !sarek.ref<i32>
    %j4 = sarek.binop add %j3, %c1 : i32
    %p4 = sarek.elem_ref %o[%j4] : !sarek.vec<i32>
    sarek.store %p4, %gt : !sarek.ref<i32>
    %j5 = sarek.binop add %j4, %c1 : i32
    %p5 = sarek.elem_ref %o[%j5] : !sarek.vec<i32>
    sarek.store %p5, %gs : !sarek.ref<i32>
    %j6 = sarek.binop add %j5, %c1 : i32
    %p6 = sarek.elem_ref %o[%j6] : !sarek.vec<i32>
    sarek.store %p6, %sz : !sarek.ref<i32>
    %j7 = sarek.binop add %j6, %c1 : i32
    %p7 = sarek.elem_ref %o[%j7] : !sarek.vec<i32>
    sarek.store %p7, %g : !sarek.ref<i32>
  }
}
