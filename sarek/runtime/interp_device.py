"""The interpreter as a device: `interp` (fast executor) and `interp-ref` (reference executor), with 32-lane
warps; `interp:warp=N` / `interp-ref:warp=N` stand in for a device whose sub-groups have N lanes (pocl: 1,
lavapipe: 8, AMD: 64), so a kernel that assumes 32 lanes can be checked against that width."""

from __future__ import annotations

from typing import Any

from sarek.runtime.core import I32_MAX, Device, Dim3, KernelSpec, Limits, Param


class InterpDevice(Device):
    kind = "interp"
    target = None

    def __init__(self, executor: str = "fast", warp_size: int = 32):
        self.executor = executor
        self._warp_size = warp_size
        self.name = "interp" if executor == "fast" else "interp-ref"
        if warp_size != 32:  # standing in for a device of another sub-group width: `interp:warp=8`
            self.name += f":warp={warp_size}"

    @property
    def description(self) -> str:
        return f"sarek interpreter, {self.executor} executor (CPU)"

    @property
    def limits(self) -> Limits:
        return Limits(max_threads_per_block=1024, max_block=(1024, 1024, 64))

    def vector_limit(self, p: Param) -> tuple[int, str] | None:
        """The fast executor works on the numpy arrays in place (64-bit offsets); the reference one copies every
        vector into a Python list (about 8 bytes a slot and more), so it takes no more than a 32-bit device."""
        if self.executor == "fast":
            return None
        return I32_MAX, "interp-ref holds every vector as a Python list"

    def _launch(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3) -> None:
        """Runs to the end on the host: an interpreter launch is synchronous."""
        from sarek.interp import run
        from sarek.runtime.vector import Vector

        values: list[Any] = []
        for p, a in zip(spec.params, args):
            if p.kind == "vec":
                arr = a.host_array_for_write() if isinstance(a, Vector) else a
                values.append(arr)  # 1-D for a Vec (check_args flattens), N-D for an Array[T, N]; an array passed twice stays one object
            elif p.kind == "record":
                values.append(a[0])
            else:
                values.append(a)
        run(spec.module, spec.name, values, grid, block, executor=self.executor, warp_size=self._warp_size)
        for p, a in zip(spec.params, args):
            if p.written and isinstance(a, Vector):
                a.mark_written_on_host()
