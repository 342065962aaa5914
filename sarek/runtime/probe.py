"""Small kernels the runtime runs to learn what a device's kernels see (`device.warp_size`)."""

from __future__ import annotations

import functools
from typing import Any

WARP_PROBE = """
builtin.module {
  sarek.kernel @sarek_warp_probe(%out : !sarek.vec<i32> "out") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %z = sarek.constant 0 : i32
    %first = sarek.binop eq %t, %z : i32
    sarek.if %first {
      %w = sarek.intrinsic "warp_size"() : () -> i32
      %p = sarek.elem_ref %out[%z] : !sarek.vec<i32>
      sarek.store %p, %w : !sarek.ref<i32>
    }
  }
}
"""


class _Probe:
    """A launchable (module, name) pair, `.module` and `.name` (`sarek.launch((p.module, p.name), [out])`); a
    leaf of the runtime: core runs it through a device's own `launch`."""

    def __init__(self, module: Any, name: str):
        self.module, self.name = module, name


@functools.cache
def warp_probe() -> _Probe:
    """A kernel writing `warp_size` to out[0] (thread 0 of block 0)."""
    from sarek.registry import parse_module

    return _Probe(parse_module(WARP_PROBE, "<sarek warp probe>"), "sarek_warp_probe")
