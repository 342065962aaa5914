"""PTX devices (`ptx:<n>`): the PTX that sarek's own backend emits (`-t ptx`), loaded by the CUDA driver's JIT
(`cuModuleLoadData`) and launched with `cuLaunchKernel`, through cuda-python (`cuda.bindings.driver`).

    from sarek.runtime.ptx import ptx_devices
    dev = ptx_devices()[0]                       # PtxDevice, name "ptx:0"
    dev.launch(module, "vector_add", [a, b, c, n], grid=(n // 256 + 1,), block=(256,))
    dev.source(module, "vector_add")             # the PTX text it runs

Buffers, limits and the argument checks are the CUDA device's (`sarek.runtime.cuda.CudaDevice`); this device
changes what is loaded (our PTX instead of an NVRTC cubin) and packs arguments for the PTX entry's `.param`
list: a vector is `.u64` pointer + `.s32` length, bool is `.s32` 0/1, f16 `.b16`, records/variants their
aligned-layout bytes. A module the driver refuses is re-checked with `ptxas` (when installed) so the error
names the offending PTX line.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sarek.runtime.core import DeviceError, KernelSpec
from sarek.runtime.cuda import CudaDevice, _driver, device_count  # pyright: ignore[reportPrivateUsage]
from sarek.runtime.cuda_plan import Plan


def ptx_devices() -> list[PtxDevice]:
    """One PtxDevice per CUDA device (an empty list raises from the driver, as cuda_devices does)."""
    return [PtxDevice(i) for i in range(device_count())]


def ptx_source(spec: KernelSpec, fp: str = "default", arch: str = "sm_90") -> str:
    """The PTX of the spec's module (every kernel in it) at floating-point policy `fp` for `.target arch`,
    through the compile cache when there is one (the options are in its key)."""
    from sarek.runtime.compile import compile_source

    if arch == "sm_90":  # the target's default: the key of every cache entry made before the option existed
        return compile_source(spec, "ptx", fp=fp)
    return compile_source(spec, "ptx", fp=fp, arch=arch)


def ptx_arch(cc: tuple[int, int]) -> str:
    """The `.target` sarek writes for a device of compute capability `cc`: sm_90a (which admits wgmma, and
    which only 9.0 devices load) on 9.0, sm_90 elsewhere."""
    return "sm_90a" if tuple(cc) == (9, 0) else "sm_90"


class PtxDevice(CudaDevice):
    kind = "ptx"
    target = "ptx"
    grid_counter = True  # a grid barrier's entry takes its counter's address last (sarek.lowering.ptx.kernel)

    @property
    def description(self) -> str:
        return f"{self.device_name} ({self.arch}, sarek PTX through the driver JIT)"

    def source(self, module: Any, kernel: str) -> str:
        from sarek.runtime.core import kernel_spec

        return ptx_source(kernel_spec(module, kernel), self.fp, self.ptx_arch)

    @property
    def ptx_arch(self) -> str:
        return ptx_arch(self.cc)

    def _image(self, spec: KernelSpec) -> bytes:
        return ptx_source(spec, self.fp, self.ptx_arch).encode()

    def _source_text(self, spec: KernelSpec) -> str:
        return ptx_source(spec, self.fp, self.ptx_arch)

    # -- the grid barrier's counter

    def _cooperative(self, plan: Plan) -> Any:
        """The cooperative launch of sarek's PTX grid barrier: the u32 its barriers count on, one per stream
        (launches on a stream run one after another), is zeroed on the launch's stream and its address written
        into the entry's last parameter (sarek.lowering.ptx.kernel.GRID_COUNTER)."""
        at = plan.counter_at
        assert at is not None, "a grid-barrier kernel's PTX plan has a counter parameter"

        def launch(fn: Any, g0: int, g1: int, g2: int, b0: int, b1: int, b2: int, shared: int, stream: Any,
                   params: Any, extra: Any) -> Any:
            d = _driver()
            key = 0 if stream is None else int(stream)
            ctr = plan.counters.get(key)
            if ctr is None:
                ctr = plan.counters[key] = self._alloc(4)
            plan.view[at:at + 8] = np.array([int(ctr)], np.uint64).tobytes()
            err = d.cuMemsetD32Async(ctr, 0, 1, stream)
            if int(err[0]) != 0:
                return err
            return d.cuLaunchCooperativeKernel(fn, g0, g1, g2, b0, b1, b2, shared, stream, params)

        return launch

    # -- loading

    def load(self, ptx: str) -> Any:
        """Load PTX text; returns the CUmodule. If the driver is older than the PTX's `.version`, retry once
        with `.version 8.0` (sm_90 needs >= 7.8; sarek's PTX uses nothing newer)."""
        d = _driver()
        self.activate()
        text = ptx
        for attempt in range(2):
            buf = np.frombuffer(text.encode() + b"\x00", dtype=np.uint8)
            err, mod = d.cuModuleLoadData(buf.ctypes.data)
            if int(err) == 0:
                return mod
            name = getattr(err, "name", str(err))
            if attempt == 0 and "UNSUPPORTED_PTX_VERSION" in name:
                import re

                text = re.sub(r"^\.version\s+\S+", ".version 8.0", text, count=1, flags=re.M)
                continue
            detail = ""
            try:
                from sarek.validate.ptx import check as ptxas_check

                ptxas_check(text)
            except Exception as e:  # ptxas missing or failing: its message is the useful part
                detail = f"\n{e}"
            raise DeviceError(f"the CUDA driver could not load the PTX ({name}){detail}", backend="ptx")
        raise AssertionError("unreachable")

    def _function(self, spec: KernelSpec) -> Any:
        key = f"ptx-function:{self.fp_key}:{self.ptx_arch}"
        if key in spec.cache:
            return spec.cache[key]
        from sarek.analysis.namer import entry_name

        mod = self.load(ptx_source(spec, self.fp, self.ptx_arch))
        ename = entry_name(spec.name, "ptx")
        err, fn = _driver().cuModuleGetFunction(mod, ename.encode())
        if int(err) != 0:
            raise DeviceError(f"entry '{ename}' of kernel '{spec.name}' not found in the PTX module ({err})",
                              backend="ptx")
        spec.cache[key] = (fn, mod, None)
        return spec.cache[key]
