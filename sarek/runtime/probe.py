"""Small kernels the runtime runs to learn what a device's kernels see (`device.warp_size`)."""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def warp_probe() -> Any:
    """A kernel writing `warp_size` to out[0] (built on first use: the front end is imported only then)."""
    from sarek import Vec, i32, kernel
    from sarek.gpu import thread_idx_x, warp_size

    @kernel
    def sarek_warp_probe(out: Vec[i32]):
        if thread_idx_x == 0:
            out[0] = warp_size

    return sarek_warp_probe
