"""Small kernels the runtime runs to learn what a device's kernels see (`device.warp_size`). Imported only
when needed (it uses the front end)."""

from __future__ import annotations

from typing import Any

from sarek import Vec, i32, kernel
from sarek.gpu import thread_idx_x, warp_size


@kernel
def sarek_warp_probe(out: Vec[i32]):
    if thread_idx_x == 0:
        out[0] = warp_size


def warp_probe() -> Any:
    """A kernel writing `warp_size` to out[0]."""
    return sarek_warp_probe
