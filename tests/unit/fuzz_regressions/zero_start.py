"""Issue 34 fuzz finding (feature "zeroinit", seed 24 of the corner generator): shared and local array slots
start at zero (docs/KERNELS.md). A thread reads its own slot before writing it; a second launch must read 0
again, not what the first launch left (pocl: `__local long s15[64];` is not cleared, so the second launch of
seed 24 gave twice the reference)."""

from sarek import Vec, i32, kernel
from sarek.gpu import local_array, shared, thread_idx_x


@kernel
def shared_starts_at_zero(o: Vec[i32]):
    t = thread_idx_x
    s = shared(i32, 64)
    v = s[t]
    s[t] = t + 1
    o[t] = v


@kernel
def local_starts_at_zero(o: Vec[i32]):
    t = thread_idx_x
    z = local_array(i32, 4)
    v = z[t % 4]
    z[t % 4] = t + 1
    o[t] = v + z[(t + 1) % 4] * 1000
