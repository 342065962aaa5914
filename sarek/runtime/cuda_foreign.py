"""The launch fast path of CUDA and PTX kernels on foreign device arrays (PyTorch tensors, CuPy arrays, objects
with `__cuda_array_interface__` or a CUDA `__dlpack__`), issue 31: a warm launch on torch tensors took the full
path (argument check, interop adapter, stream resolution) at 6-15x the cost of one on `sarek.Vector`s.

`ForeignLaunch(args)` reads each array's pointer and length and launches on the stream the full path would
pick (`CudaDevice.resolve_stream`: PyTorch's current stream when a torch tensor is an argument, CuPy's for a
CuPy array, else the legacy default stream; a CAI v3 producer stream other than that one is waited on with an
event), asking those per call exactly as the full path does. Anything it does not read with certainty (an
array of another device, dtype or layout, non-contiguous, read-only but written, empty, past i32, a `Vector`
among the arguments, an array kind the full path has not seen yet) returns False: the full path then runs and
words the error. Only rank-1 vector parameters of plain element types are covered (FastPath's kinds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sarek.runtime import interop
from sarek.runtime.core import I32_MAX, KernelSpec
from sarek.runtime.streams import cupy_stream, legacy, torch_stream_getter

#: the array kinds (sarek.runtime.interop._kind_of) read through the interop adapter itself
_ADAPTED = frozenset({"cupy", "cai", "dlpack"})


class ForeignLaunch:
    """The foreign-array launcher of one FastPath: `kinds` are FastPath's per-parameter kinds, `submit(bound,
    handle)` the device's enqueue on the CUstream `handle` (int), `wait(producer, consumer)` its event wait."""

    def __init__(self, spec: KernelSpec, kinds: list[tuple[int, Any, Any]], index: int, threads: int,
                 submit: Callable[[list[Any], int], None], wait: Callable[[int, int], None]):
        self.kinds = kinds
        self.written = [p.written for p in spec.params]
        self.index = index
        self.space = ("cuda", index)
        self.threads = threads
        self.guards = spec.guards
        self.submit = submit
        self.wait = wait
        self.known = interop._KINDS  # pyright: ignore[reportPrivateUsage]  # type -> kind, filled by the full path
        self.torch_dtypes = interop._TORCH_DTYPES  # pyright: ignore[reportPrivateUsage]
        self._torch_stream: Callable[[int], int] | None = None

    def torch_stream(self) -> int:
        """PyTorch's current stream on this device (`streams.torch_stream`, its call kept)."""
        ask = self._torch_stream
        if ask is None:
            ask = self._torch_stream = torch_stream_getter()
        return int(ask(self.index))

    def __call__(self, args: Any) -> bool:
        bound: list[Any] = []
        handle: int | None = None  # the stream of the first torch tensor or CuPy array (resolve_stream's rule)
        producers: list[int] = []  # CAI v3 producer streams
        known = self.known
        for (kind, a1, a2), written, a in zip(self.kinds, self.written, args):
            if kind == 0:
                if a2 != "native" or a1.fields is not None:
                    return False
                k = known.get(type(a))  # pyright: ignore[reportUnknownArgumentType]
                if k == "torch":
                    if not a.is_cuda or self.torch_dtypes.get(a.dtype) != a1 or a.get_device() != self.index \
                            or not a.is_contiguous():
                        return False
                    got = (a.data_ptr(), a.numel())
                    if handle is None:
                        handle = self.torch_stream()
                elif k in _ADAPTED:
                    try:
                        da = interop.adapt(a)
                    except Exception:  # noqa: BLE001 - the full path words it
                        return False
                    if not isinstance(da, interop.DeviceArray) or da.space != self.space or da.dtype != a1 \
                            or not da.contiguous or (written and da.readonly):
                        return False
                    got = (da.handle, da.size)
                    if handle is None and da.what == "a CuPy array":
                        handle = cupy_stream()
                    prod = da.stream
                    if prod is not None and isinstance(prod, int):
                        producers.append(prod)
                else:  # a Vector (the Vector fast path declined it), numpy, an array kind not seen yet
                    return False
                if not 0 < got[1] <= I32_MAX:
                    return False
                bound.append(got)
            elif kind == 1:
                if type(a) is not int or not a1 <= a <= a2:
                    return False
                bound.append(a)
            else:
                if type(a) is not float or not -a1 <= a <= a1:
                    return False
                bound.append(a)
        for vi, si in self.guards:
            if args[si] > bound[vi][1] and self.threads > bound[vi][1]:
                return False
        h = handle or 0
        for prod in producers:
            if legacy(prod) != legacy(h):
                self.wait(prod, h)
        self.submit(bound, h)
        return True

