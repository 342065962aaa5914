"""2. module constants: dst = scale * src + offset, `scale`/`offset`/`use_offset` folded in as constants."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id

scale = 2.0
offset = 3
use_offset = True


@kernel
def scaled_copy(src: Vec[f32], dst: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        x = scale * src[i]
        if use_offset:
            x = x + f32(offset)
        dst[i] = x


def _args(n):
    rng = np.random.default_rng(2)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


CASES = [Case("scaled_copy", scaled_copy, _args, lambda a: {1: 2.0 * a[0] + 3.0}, n=1000)]
