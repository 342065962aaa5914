# RUN: sarek ir %s:steps | filecheck %s
# RUN: not sarek ir %s:superstep_diverged 2>&1 | filecheck %s --check-prefix=DIVERGED

from sarek import Vec, f32, kernel, superstep
from sarek.gpu import global_thread_id, shared, thread_idx_x


@kernel
def steps(a: Vec[f32], out: Vec[f32]):
    tile = shared(f32, 64)
    with superstep():
        tile[thread_idx_x] = a[global_thread_id] if thread_idx_x > 16 else 0.0
    with superstep(divergent=True):
        if thread_idx_x < 32:
            tile[thread_idx_x] = tile[thread_idx_x + 32]
    out[global_thread_id] = tile[thread_idx_x]

# the marker survives in the IR; the implicit barrier follows each superstep
# CHECK:      {{^    }}sarek.block superstep {
# CHECK:      sarek.if_expr
# CHECK:      {{^    }}}
# CHECK-NEXT: {{^    }}sarek.barrier
# CHECK-NEXT: {{^    }}sarek.block superstep divergent {
# CHECK:      sarek.if
# CHECK:      {{^    }}}
# CHECK-NEXT: {{^    }}sarek.barrier


@kernel
def superstep_diverged(a: Vec[f32], out: Vec[f32]):
    tile = shared(f32, 64)
    with superstep():
        if thread_idx_x > 16:
            tile[thread_idx_x] = a[global_thread_id]
    out[global_thread_id] = tile[thread_idx_x]

# DIVERGED: superstep.py:33:9: error: thread-divergent 'if' inside superstep() (the condition at line 33 depends on thread_idx_x): the barrier at the end of the superstep would be in diverged control flow; write 'with superstep(divergent=True):' if the divergence is intended
# DIVERGED-NEXT: if thread_idx_x > 16:
# DIVERGED-NEXT: {{^ +}}^
