"""`vulkan-glsl:<n>`: sarek's GLSL on the Vulkan driver itself (sarek.runtime.vulkan_driver, the `vulkan`
binding): glslangValidator's SPIR-V (checked by spirv-val) goes straight to the driver, with no translation
layer between, so what glslang emits (NoContraction for `precise`, OpAtomicCompareExchange's result, the
RelaxedPrecision decoration) reaches the driver as written.

    dev = sarek.get_device("vulkan-glsl")
    dev.limits, dev.warp_size                     # from the driver (warp size = the subgroup size)
    dev.cooperative_matrix_shapes                 # CoopMatShape per VK_KHR_cooperative_matrix configuration

Cooperative matrices (`sarek.coop`): the shader needs the `cooperative-matrix` feature (VK_KHR_cooperative_matrix;
lavapipe has none: refused at launch) and each native multiply-accumulate it uses (the abi's `coopmat`) must
be one the driver offers at subgroup scope (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR), else a
DeviceError lists what it offers.
    with dev.gpu_timer() as t: ...launches...     # GPU timestamps: t.ms after the block, t.kernels_ms

Buffers, parameters and grid folding are the other Vulkan device's (sarek.runtime.shader_device): one storage
buffer per vector at binding = ordinal among vectors, lengths and scalars in push constants. A launch records
one command buffer per (kernel, buffers, parameter bytes, grid) and re-submits it on the next identical launch;
launches return at once and the host waits (a timeline semaphore) only to read data or on synchronize().
Driver failures (VK_ERROR_*, device lost, out of memory) are DeviceErrors naming the kernel.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Generator
from contextlib import contextmanager
from typing import Any, cast

from sarek.runtime.core import DeviceError, Dim3, FastPath, KernelSpec, LaunchError, Stream
from sarek.runtime.shader_device import ShaderDevice, ShaderLimits, glsl_block_limit, kernel_op
from sarek.runtime.vulkan_driver import Buffer, CoopMatShape, DriverDevice, DriverError, PhysicalInfo, Pipeline


def _dim3(v: Any) -> Dim3:
    x, y, z = (int(a) for a in v)
    return (x, y, z)


def glsl_devices() -> list[VulkanGlslDevice]:
    """`vulkan-glsl:<n>` per physical device the Vulkan loader finds, GPUs first (discrete, integrated, virtual,
    then CPU ones such as lavapipe), as OpenCL devices are numbered."""
    from sarek.runtime.vulkan_physical import physical_devices

    rank = {"discrete": 0, "integrated": 1, "virtual": 2, "other": 3, "cpu": 4}
    infos = sorted(physical_devices(), key=lambda i: rank.get(i.device_type, 3))
    return [VulkanGlslDevice(info, i) for i, info in enumerate(infos)]


def compile_glsl(src: str, preserve: tuple[int, ...] = ()) -> bytes:
    """GLSL -> SPIR-V through the compile route (glslangValidator, spirv-val), cached by source text; `preserve`:
    the float widths whose signed zeros, infinities and NaNs the driver must keep."""
    from sarek.runtime import cache
    from sarek.validate.glsl import TARGET_ENV, compile_spirv

    key = cache.make_key("spirv", TARGET_ENV, repr(preserve), src)
    return cache.get_or_build("spirv", key, lambda: compile_spirv(src, preserve))


def shader_features(info: PhysicalInfo) -> set[str]:
    """The driver's features under the names the shader abi's `features` use (wgpu's: shader-f64 ...)."""
    f = info.features
    out = {"immediates", "timestamp-query"}
    if "shaderFloat64" in f:
        out.add("shader-f64")
    if "shaderInt64" in f:
        out.add("shader-int64")
    if {"basic", "shuffle"} <= info.subgroup_ops:
        out |= {"subgroup", "subgroup-barrier"}
    if "shaderBufferFloat32AtomicAdd" in f:
        out.add("shader-float32-atomic")
    if "shaderFloat16" in f and "storageBuffer16BitAccess" in f:
        out.add("shader-f16")
    if "shaderInt8" in f and "storageBuffer8BitAccess" in f:
        out.add("shader-int8")
    if "cooperativeMatrix" in f and info.coopmat:
        out.add("cooperative-matrix")
    return out


def coopmat_refusal(shapes: list[list[Any]], offered: tuple[CoopMatShape, ...], kernel: str) -> str | None:
    """Why the driver cannot run the native multiply-accumulates `shapes` ([M, N, K, input, accumulator] from
    the abi's `coopmat`) at subgroup scope, or None."""
    have = {(o.m, o.n, o.k, o.a, o.c) for o in offered if o.scope == "subgroup" and o.a == o.b and o.c == o.result
            and not o.saturating}
    for m, n, k, a, c in shapes:
        if (m, n, k, a, c) not in have:
            listed = "; ".join(f"{x.a} x {x.c} at {x.m}x{x.n}x{x.k}" for x in offered if x.scope == "subgroup") or \
                "none"
            return (f"kernel {kernel} multiplies {a} into {c} at {m}x{n}x{k} (GL_KHR_cooperative_matrix, subgroup "
                    f"scope), which the driver does not offer (it offers: {listed})")
    return None


class VulkanGlslDevice(ShaderDevice):
    """`vulkan-glsl:<n>` on one Vulkan physical device (see the module docstring)."""

    #: recorded command buffers kept per device (least recently used dropped first)
    MAX_RECORDED = 256

    def __init__(self, info: PhysicalInfo, index: int):
        super().__init__(index, "glsl")
        self.info = info
        self.features = shader_features(info)
        self._warp_size = info.subgroup_size if "basic" in info.subgroup_ops else 1
        self._drv: DriverDevice | None = None
        #: (pipeline, buffers, parameter bytes, grid) -> (command buffer, descriptor set)
        self._recorded: OrderedDict[tuple[Any, ...], tuple[Any, Any]] = OrderedDict()
        self._by_buffer: dict[int, set[tuple[Any, ...]]] = {}
        self._timer: GpuTimer | None = None
        self._last_key: tuple[Any, ...] | None = None  # the recording key of the last launch recorded

    @property
    def description(self) -> str:
        a = self.info.api
        return f"vulkan (glsl, driver) on {self.info.name} [{self.info.device_type}, Vulkan {a[0]}.{a[1]}.{a[2]}]"

    LIMIT_NAMES = ("maxPerStageDescriptorStorageBuffers", "maxComputeSharedMemorySize")

    def _shader_limits(self) -> ShaderLimits:
        """VkPhysicalDeviceLimits (storage buffers: sarek's one descriptor set holds them all, so
        maxDescriptorSetStorageBuffers too; the block within glslang's own limits)."""
        lim = self.info.limits
        return ShaderLimits(invocations=int(lim["maxComputeWorkGroupInvocations"]),
                            block=glsl_block_limit(_dim3(lim["maxComputeWorkGroupSize"])),
                            groups=_dim3(lim["maxComputeWorkGroupCount"]),
                            storage_buffers=min(int(lim["maxPerStageDescriptorStorageBuffers"]),
                                                int(lim["maxDescriptorSetStorageBuffers"])),
                            shared_bytes=int(lim["maxComputeSharedMemorySize"]))

    @property
    def cooperative_matrix_shapes(self) -> tuple[CoopMatShape, ...]:
        """The cooperative-matrix configurations the driver offers (empty without VK_KHR_cooperative_matrix)."""
        return self.info.coopmat

    def lacks(self) -> set[str]:
        """Conformance features this device lacks: 64-bit atomics (the GLSL lowering's atomics are 32-bit), and
        what the driver does not offer."""
        out = {"i64"}
        if "shader-f64" not in self.features:
            out.add("f64")
        if "subgroup" not in self.features:
            out.add("warp")
        if "cooperative-matrix" not in self.features or not any(c.a == "f16" for c in self.info.coopmat):
            out.add("coop")
        if "cooperative-matrix" not in self.features or not any(c.a in ("u8", "i8") for c in self.info.coopmat):
            out.add("coop-int8")
        return out

    def stream(self) -> Stream:
        """A stream of this device (launches run in order on its one queue); opens the VkDevice now, as a CUDA
        device's stream makes its context, so the first launch does not (the benchmarks time it apart)."""
        _ = self.driver
        return super().stream()

    @property
    def driver(self) -> DriverDevice:
        if self._drv is None:
            try:
                self._drv = DriverDevice(self.info)
            except DriverError as e:
                raise DeviceError(f"opening the Vulkan device: {e}", None, self.name) from None
        return self._drv

    # -------------------------------------------------------------------------------- compiling

    def _build(self, spec: KernelSpec, src: str, abi: dict[str, Any]) -> Pipeline:
        push = max(abi["params_size"], 0)
        why = coopmat_refusal(abi.get("coopmat", []), self.info.coopmat, spec.name)
        if why is not None:
            raise DeviceError(f"{why}: it cannot run on this device", None, self.name)
        spirv = compile_glsl(src, self.info.float_preserve)
        vecs = sum(1 for p in abi["params"] if p["kind"] == "vec")
        try:
            return self.driver.pipeline(spirv, vecs, push, spec.name)
        except DriverError as e:
            raise DeviceError(f"kernel {spec.name}: {e}", None, self.name) from None

    def _check_limits(self, spec: KernelSpec, abi: dict[str, Any]) -> None:
        """The shared checks, and the parameter block against the driver's push-constant size."""
        super()._check_limits(spec, abi)
        push = max(abi["params_size"], 0)
        most = int(self.info.limits["maxPushConstantsSize"])
        if push > most:
            raise LaunchError(f"kernel {spec.name} passes {push} bytes of scalars and vector lengths; {self.name} "
                              f"takes at most {most} bytes of push constants (maxPushConstantsSize = {most}): pass "
                              "fewer scalars or vectors, or the scalars in a Vector", kernel_op(spec))

    # -------------------------------------------------------------------------------- launching

    def _dispatch(self, spec: KernelSpec, handle: Any, abi: dict[str, Any], bufs: list[tuple[int, Any]],
                  params: bytearray, grid: Dim3, cacheable: bool) -> None:
        drv = self.driver
        try:
            if self._timer is not None:
                held = drv.descriptor_set(handle, bufs)
                cb = drv.record(handle, held, bytes(params), grid, one_shot=True, timestamps=self._timer.slot())
                drv.submit(cb)
                drv.free_commands(cb)
                drv.free_set(held)
                return
            key = (id(handle), *(id(b) for _, b in bufs), bytes(params), grid) if cacheable else None
            rec = self._recorded.get(key) if key is not None else None
            if rec is None:
                held = drv.descriptor_set(handle, bufs)
                cb = drv.record(handle, held, bytes(params), grid, one_shot=key is None)
                if key is None:
                    drv.submit(cb)
                    drv.free_commands(cb)
                    drv.free_set(held)
                    return
                rec = self._remember(key, (cb, held), bufs)
            else:
                assert key is not None
                self._recorded.move_to_end(key)
            self._last_key = key
            drv.submit(rec[0])
        except DriverError as e:
            raise DeviceError(f"kernel {spec.name}: {e}", None, self.name) from None

    def fast_path(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> FastPath | None:
        """The shared plan, plus: the bound values (buffers, lengths, scalars) of a launch already recorded map
        to its command buffer, which is submitted without building the push constants again."""
        fp = super().fast_path(spec, grid, block)
        if fp is None:
            return None
        full = fp.submit
        keys: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        recorded = self._recorded
        drv = self.driver

        def submit(bound: list[Any]) -> None:
            k: tuple[Any, ...] = tuple((id(cast("tuple[Any, int]", b)[0]), cast("tuple[Any, int]", b)[1])
                                       if type(b) is tuple else b for b in bound)
            rk = keys.get(k)
            rec = recorded.get(rk) if rk is not None else None
            if rec is None or self._timer is not None:
                self._last_key = None
                full(bound)  # records and remembers it (sarek.runtime.shader_device), or times it
                if self._last_key is not None:
                    if len(keys) >= self.MAX_RECORDED:
                        keys.pop(next(iter(keys)))
                    keys[k] = self._last_key
                return
            try:
                drv.submit(rec[0])
            except DriverError as e:
                raise DeviceError(f"kernel {spec.name}: {e}", None, self.name) from None

        fp.submit = submit
        return fp

    def _remember(self, key: tuple[Any, ...], rec: tuple[Any, Any], bufs: list[tuple[int, Any]]) -> tuple[Any, Any]:
        self._recorded[key] = rec
        for _, b in bufs:
            self._by_buffer.setdefault(id(b), set()).add(key)
        if len(self._recorded) > self.MAX_RECORDED:
            self._forget(next(iter(self._recorded)))
        return rec

    def _forget(self, key: tuple[Any, ...]) -> None:
        rec = self._recorded.pop(key, None)
        if rec is not None:
            self.driver.free_commands(rec[0])
            self.driver.free_set(rec[1])

    def _max_buffer_bytes(self) -> int:
        return int(self.info.limits["maxStorageBufferRange"])

    # -------------------------------------------------------------------------------- buffers

    def _alloc(self, nbytes: int) -> Buffer:
        try:
            return self.driver.buffer(nbytes)
        except DriverError as e:
            raise DeviceError(f"{e} ({nbytes} bytes)", None, self.name) from None

    def _free(self, buf: Buffer) -> None:
        for key in self._by_buffer.pop(id(buf), ()):
            self._forget(key)  # its command buffers name the buffer: dropped with it
        self.driver.free(buf)

    def write_bytes(self, buf: Buffer, data: bytes) -> None:
        try:
            self.driver.write(buf, data)
        except DriverError as e:
            raise DeviceError(str(e), None, self.name) from None

    def read_bytes(self, buf: Buffer, nbytes: int) -> bytes:
        try:
            return self.driver.read(buf, nbytes)
        except DriverError as e:
            raise DeviceError(str(e), None, self.name) from None

    def synchronize(self) -> None:
        """Wait for every launch submitted so far."""
        if self._drv is None:
            return
        try:
            self._drv.wait()
        except DriverError as e:
            raise DeviceError(str(e), None, self.name) from None

    # -------------------------------------------------------------------------------- timing

    @contextmanager
    def gpu_timer(self) -> Generator[GpuTimer]:
        """Launches inside the block write GPU timestamps around their dispatch; after the block `t.ms` is the
        first dispatch's start to the last one's end and `t.kernels_ms` each dispatch's own time."""
        t = GpuTimer(self.driver)
        self._timer = t
        try:
            yield t
        finally:
            self._timer = None
            t.finish()


class GpuTimer:
    """Timestamp pairs of the dispatches of one `gpu_timer()` block (sarek.runtime.vulkan_driver queries)."""

    def __init__(self, drv: DriverDevice):
        self.drv = drv
        self.used = 0
        self.ms = 0.0
        self.kernels_ms: list[float] = []
        self.wall_ms = 0.0
        self._t0 = time.perf_counter()

    def slot(self) -> tuple[int, int]:
        if self.used + 2 > self.drv.QUERIES:
            raise LaunchError(f"gpu_timer(): at most {self.drv.QUERIES // 2} launches per block")
        self.used += 2
        return (self.used - 2, self.used - 1)

    def finish(self) -> None:
        self.drv.wait()
        self.wall_ms = (time.perf_counter() - self._t0) * 1e3
        if self.used and self.drv.timestamp_bits:
            ts = self.drv.timestamps_ns(0, self.used)
            self.kernels_ms = [(ts[i + 1] - ts[i]) / 1e6 for i in range(0, self.used, 2)]
            self.ms = (ts[-1] - ts[0]) / 1e6


__all__ = ["GpuTimer", "VulkanGlslDevice", "compile_glsl", "glsl_devices"]
