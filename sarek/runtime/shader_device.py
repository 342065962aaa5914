"""What the two Vulkan devices share: `vulkan:<n>` (WGSL through wgpu, sarek.runtime.vulkan) and
`vulkan-glsl:<n>` (GLSL -> SPIR-V on the Vulkan driver, sarek.runtime.vulkan_glsl).

`ShaderDevice` compiles a kernel through the shader lowering (one shader per (kernel, block shape, folded or
not); the block is a compile-time workgroup size), lays the arguments out in the lowering's buffer ABI (one
storage buffer per vector, binding = ordinal among vectors; lengths and scalars in the parameter block at the
abi's offsets; sarek.runtime.shader_codec), splits a grid beyond the device's workgroup count into dispatches
(sarek-fold-grid recomputes the ids), keeps `sarek.Vector`s resident in the shader layout and copies back the
plain arrays the kernel may write. A subclass supplies the driver side:

    _build(spec, src, abi) -> handle        a pipeline for the shader
    _dispatch(handle, abi, bufs, params, grid, cacheable)   enqueue one dispatch (asynchronous)
    _alloc(nbytes) / _free(buf) / write_bytes(buf, data) / read_bytes(buf, nbytes)
    synchronize(), _shader_limits() (ShaderLimits from the driver: block, grid, storage buffers, shared
    memory, which the launch and `_check_limits` read), features (adapter/driver feature names the abi's
    `features` use), _max_buffer_bytes()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from sarek.diagnostics import SarekError
from sarek.runtime.core import Device, DeviceError, Dim3, FastPath, KernelSpec, LaunchError, Limits
from sarek.runtime.shader_codec import ShaderCodec, scalar_bytes
from sarek.types import is_ndarray

if TYPE_CHECKING:  # xDSL's IR only for the annotations: a warm launch imports none of it
    from xdsl.dialects.builtin import ModuleOp

#: why a device may lack an abi feature (added to the refusal)
FEATURE_WHY = {"cooperative-matrix": "cooperative matrices need VK_KHR_cooperative_matrix: a GPU driver has it, "
                                     "lavapipe (a CPU device) has none; run `sarek.coop` kernels on a GPU's "
                                     "vulkan-glsl device"}


@dataclass(frozen=True)
class ShaderLimits:
    """What launches and the capability gate read from a Vulkan device (both devices fill it from their
    driver: VkPhysicalDeviceLimits, wgpu's adapter limits)."""

    invocations: int  # threads per workgroup
    block: Dim3  # the largest workgroup per dimension
    groups: Dim3  # workgroups per dispatch per dimension
    storage_buffers: int  # storage buffers (vector parameters) one kernel binds
    shared_bytes: int  # shared (workgroup) memory per block


class ShaderDevice(Device):
    """A Vulkan device running sarek's shaders (see the module docstring for what a subclass provides)."""

    kind = "vulkan"
    lang = "wgsl"
    takes_passes = True

    def __init__(self, index: int, lang: str):
        self.index = index
        self.lang = lang
        self.target = lang
        self.name = f"vulkan:{index}" if lang == "wgsl" else f"vulkan-glsl:{index}"
        self.features: set[str] = set()
        self._cache: dict[tuple[str, str, Dim3, bool, str], tuple[Any, dict[str, Any], str]] = {}
        self._codecs: dict[int, tuple[dict[str, Any], ShaderCodec]] = {}
        self._max_buffer: int | None = None
        self._limits: ShaderLimits | None = None

    # -------------------------------------------------------------------------------- compiling

    def compile_source(self, module: ModuleOp, kernel: str, block: Dim3,
                       fold: bool = False, passes: str = "") -> tuple[str, dict[str, Any]]:
        """(shader source, abi) for one kernel and block shape, from the compile service
        (sarek.runtime.compile.shader_artifact, uncached); refusals raise SarekError."""
        from sarek.runtime.compile import shader_artifact

        return shader_artifact(module, kernel, self.lang, block, fold, passes)

    def source(self, module: ModuleOp, kernel: str, block: Any = (256, 1, 1)) -> str:
        from sarek.runtime.core import dim3

        return self.compile_source(module, kernel, dim3(block, "block"))[0]

    def _pipeline(self, spec: KernelSpec, block: Dim3, fold: bool = False) -> tuple[Any, dict[str, Any], str]:
        """(pipeline handle, abi, source) of one kernel, block shape, fold and extra passes, compiled once per
        device."""
        from sarek.runtime.compile import spec_passes

        key = (spec.ir_hash, spec.name, block, fold, spec_passes(spec))
        if key in self._cache:
            return self._cache[key]
        src, abi = self._compiled(spec, block, fold)
        self._check_limits(spec, abi)
        missing = [f for f in abi["features"] if f not in self.features]
        if missing:
            why = "".join(f" ({FEATURE_WHY[f]})" for f in missing if f in FEATURE_WHY)
            raise DeviceError(f"kernel {spec.name} needs the device feature(s) {', '.join(missing)}, which "
                              f"{self.name} lacks{why}: it cannot run on this device", None, self.name)
        try:
            handle = self._build(spec, src, abi)
        except SarekError:
            raise
        except Exception as e:
            text = str(e)
            if "--- source ---" not in text:  # glslang/spirv-val errors already show the numbered source
                numbered = "\n".join(f"{i + 1:4}: {l}" for i, l in enumerate(src.splitlines()))
                text += f"\n--- source ---\n{numbered}"
            raise DeviceError(f"compiling kernel {spec.name} failed: {text}", None, self.name) from e
        out = (handle, abi, src)
        self._cache[key] = out
        return out

    def _build(self, spec: KernelSpec, src: str, abi: dict[str, Any]) -> Any:
        raise NotImplementedError

    # -------------------------------------------------------------------------------- the device's limits

    #: the driver's names of the limits `_check_limits` reads (storage buffers, shared memory), for the errors
    LIMIT_NAMES = ("max-storage-buffers-per-shader-stage", "max-compute-workgroup-storage-size")

    def _shader_limits(self) -> ShaderLimits:
        """The limits as the driver reports them (read once: `shader_limits`)."""
        raise NotImplementedError

    @property
    def shader_limits(self) -> ShaderLimits:
        if self._limits is None:
            self._limits = self._shader_limits()
        return self._limits

    @property
    def limits(self) -> Limits:
        lim = self.shader_limits
        return Limits(max_threads_per_block=lim.invocations, max_block=lim.block, max_grid=lim.groups)

    @property
    def max_storage_buffers(self) -> int:
        """Storage buffers (vector parameters) one kernel may bind on this device."""
        return self.shader_limits.storage_buffers

    @property
    def max_shared_bytes(self) -> int:
        """Shared (workgroup) memory per block, bytes."""
        return self.shader_limits.shared_bytes

    def _check_limits(self, spec: KernelSpec, abi: dict[str, Any]) -> None:
        """The gate's resource limits with this device's values (the kernel was compiled with
        `limits=device`: sarek-reject-features left them here): a LaunchError located at the kernel (its
        vectors) or at the shared array that crosses the limit, naming the driver's limit and value."""
        vecs = [p["name"] for p in abi["params"] if p["kind"] == "vec"]
        most = self.max_storage_buffers
        if len(vecs) > most:
            raise LaunchError(f"kernel '{spec.name}' has {len(vecs)} vector parameters; {self.name} binds at most "
                              f"{most} storage buffers per kernel ({self.LIMIT_NAMES[0]} = {most}): pass fewer "
                              f"vectors, e.g. pack arrays of one type into one vector (the first past the limit is "
                              f"'{vecs[most]}')", kernel_op(spec))
        # the lowering's count: shared arrays as the shader declares them (8/16-bit elements one per 32-bit word
        # unless packed for a coop fragment)
        need = abi.get("shared_bytes")
        if need is None:
            need = _declared_shared(spec)
        most = self.max_shared_bytes
        if need > most:
            words = " (its 8/16-bit shared elements take a 32-bit word each in this shader)" \
                if _declared_shared(spec) < need else ""
            raise LaunchError(f"kernel {spec.name} needs {need} bytes of shared memory per block{words}; {self.name} "
                              f"has {most} ({self.LIMIT_NAMES[1]}): declare smaller shared arrays",
                              _shared_past(spec, most))

    def _compiled(self, spec: KernelSpec, block: Dim3, fold: bool) -> tuple[str, dict[str, Any]]:
        """(source, abi) from the compile service's cache (sarek.runtime.compile.compile_shader)."""
        from sarek.runtime.compile import compile_shader

        return compile_shader(spec, self.lang, block, fold)

    # -------------------------------------------------------------------------------- launching

    def _launch(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3) -> None:
        from sarek.runtime.vector import Vector

        args, shapes = _flat_views(spec, args)
        hw = self.limits.max_grid
        fold = any(g > h for g, h in zip(grid, hw))
        handle, abi, _ = self._pipeline(spec, block, fold)
        chunks: list[tuple[Dim3, Dim3]] = _chunks(grid, hw) if fold else [((0, 0, 0), grid)]
        if fold:  # sarek-fold-grid's parameters: filled per dispatch below
            args = [*args, *(np.int32(0) for _ in range(3)), *(np.int32(g) for g in grid)]
        params = bytearray(max(abi["params_size"], 0))
        # plain arrays: uploaded per launch, one buffer per (array, layout) (an array passed twice is one buffer)
        temps: dict[tuple[int, str], tuple[ShaderCodec, Any, np.ndarray[Any, Any]]] = {}
        bufs: list[tuple[int, Any]] = []
        written = {p.index for p in spec.params if p.written}
        written_arrays = {id(args[p.index]) for p in spec.params if p.written}
        try:
            for p_abi in abi["params"]:
                a = args[p_abi["index"]]
                if p_abi["kind"] == "vec":
                    codec = self._codec(p_abi)
                    self._check_buffer_size(spec, p_abi["name"], codec.device_nbytes(a))
                    if isinstance(a, Vector):
                        buf = a.device_buffer(self, codec)
                    elif (id(a), codec.key) in temps:
                        buf = temps[(id(a), codec.key)][1]
                    else:
                        buf = self._alloc(codec.device_nbytes(a))
                        temps[(id(a), codec.key)] = (codec, buf, a)
                        if a.size:
                            codec.upload(self, buf, a)
                    for off, n in zip(p_abi.get("dim_offsets", [p_abi["len_offset"]]), shapes.get(id(a), (len(a),))):
                        np.frombuffer(params, np.int32, 1, off)  # bounds check
                        params[off:off + 4] = np.int32(n).tobytes()
                    bufs.append((p_abi["binding"], buf))
                else:
                    raw = scalar_bytes(a, p_abi)
                    params[p_abi["offset"]:p_abi["offset"] + len(raw)] = raw
            extra = [p for p in abi["params"] if p["index"] >= len(spec.params)]
            for base, count in chunks:
                for p_abi in extra[:3]:
                    axis: int = p_abi["index"] - len(spec.params)
                    v = base[axis]
                    params[p_abi["offset"]:p_abi["offset"] + 4] = v.to_bytes(4, "little", signed=True)
                self._dispatch(spec, handle, abi, bufs, params, count, not temps)
            for p_abi in abi["params"]:
                a = args[p_abi["index"]]
                if p_abi["index"] in written and isinstance(a, Vector):
                    a.mark_written_on(self)  # stays on the device until the host or another device reads it
            for codec, buf, host in temps.values():
                if id(host) in written_arrays and host.size:  # the write analysis says the kernel may store there
                    codec.download(self, buf, host)
        finally:
            for _, buf, _ in temps.values():
                self._free(buf)

    def _dispatch(self, spec: KernelSpec, handle: Any, abi: dict[str, Any], bufs: list[tuple[int, Any]],
                  params: bytearray, grid: Dim3, cacheable: bool) -> None:
        """Enqueue one dispatch of `grid` workgroups with `bufs` ((binding, buffer)) and the parameter bytes;
        `cacheable`: every buffer outlives the launch (resident Vectors), so bindings may be kept."""
        raise NotImplementedError

    def fast_path(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> FastPath | None:
        if any(g > h for g, h in zip(grid, self.limits.max_grid)):
            return None  # split dispatches: the full path
        handle, abi, _ = self._pipeline(spec, block)
        size = max(abi["params_size"], 0)
        codecs = {p["index"]: self._codec(p).key for p in abi["params"] if p["kind"] == "vec"}
        order = [(p["index"], p) for p in abi["params"]]
        dispatch = self._dispatch

        def submit(bound: list[Any]) -> None:
            params = bytearray(size)
            bufs: list[tuple[int, Any]] = []
            for i, p_abi in order:
                if p_abi["kind"] == "vec":
                    buf, n = bound[i]
                    params[p_abi["len_offset"]:p_abi["len_offset"] + 4] = n.to_bytes(4, "little", signed=True)
                    bufs.append((p_abi["binding"], buf))
                else:
                    raw = scalar_bytes(bound[i], p_abi)
                    params[p_abi["offset"]:p_abi["offset"] + len(raw)] = raw
            dispatch(spec, handle, abi, bufs, params, grid, True)

        return FastPath.make(self, spec, grid, block, submit, codecs)

    def _codec(self, p_abi: dict[str, Any]) -> ShaderCodec:
        """One codec per parameter of a cached pipeline's abi (the abi dicts live as long as the pipeline)."""
        held = self._codecs.get(id(p_abi))
        if held is None or held[0] is not p_abi:
            held = self._codecs[id(p_abi)] = (p_abi, ShaderCodec(p_abi))
        return held[1]

    def _check_buffer_size(self, spec: KernelSpec, name: str, nbytes: int) -> None:
        """A vector is one storage buffer binding: beyond the device's limit the driver fails with a raw error
        when binding it; say which vector and the limit instead."""
        most = self.max_buffer_bytes
        if nbytes > most:
            raise LaunchError(f"kernel {spec.name}: vector '{name}' takes {nbytes} bytes on {self.name}; a storage "
                              f"buffer there holds at most {most} bytes")

    @property
    def max_buffer_bytes(self) -> int:
        """The most bytes one vector (one storage buffer binding) may take on this device."""
        if self._max_buffer is None:
            self._max_buffer = self._max_buffer_bytes()
        return self._max_buffer

    def _max_buffer_bytes(self) -> int:
        raise NotImplementedError

    # -------------------------------------------------------------------------------- buffers

    def write_bytes(self, buf: Any, data: bytes) -> None:
        """Copy `data` to the start of `buf` (in order with the launches enqueued before)."""
        raise NotImplementedError

    def read_bytes(self, buf: Any, nbytes: int) -> bytes:
        """The first `nbytes` of `buf` once every launch enqueued before has finished."""
        raise NotImplementedError

    @property
    def memory_space(self) -> tuple[Any, ...]:
        return ("vulkan", id(self))

    @property
    def grid_limit(self) -> Dim3:
        """Beyond the device's workgroup count per dimension a launch is split into dispatches
        (sarek-fold-grid recomputes the ids): only the i32 thread-id limit remains."""
        return (2**31 - 1, 2**31 - 1, 2**31 - 1)


def kernel_op(spec: KernelSpec) -> Any:
    """The kernel's op in its module (for the location of a launch-time refusal), or None."""
    from sarek.dialect.sarek import KernelOp

    return next((o for o in spec.module.ops if isinstance(o, KernelOp) and o.sym_name.data == spec.name), None)


def _declared_shared(spec: KernelSpec) -> int:
    """The shared bytes the kernel's arrays declare at their element sizes (a warm start's record has them: no
    module built for it; else the module's)."""
    from sarek.analysis.features import shared_bytes

    got = spec.cache.get("shared-bytes")
    return int(got) if got is not None else shared_bytes(spec.module, spec.name)


def _shared_past(spec: KernelSpec, most: int) -> Any:
    """The first shared array whose bytes, with those declared before it, pass `most` (else the kernel)."""
    from sarek.analysis.features import shared_arrays

    k = kernel_op(spec)
    if k is None:
        return None
    return next((op for op, total in shared_arrays(spec.module, k) if total > most), k)


def glsl_block_limit(block: Dim3) -> Dim3:
    """glslangValidator's own limits on the workgroup size (gl_MaxComputeWorkGroupSize = 1024, 1024, 64)."""
    return (min(block[0], 1024), min(block[1], 1024), min(block[2], 64))


def _flat_views(spec: KernelSpec, args: list[Any]) -> tuple[list[Any], dict[int, tuple[int, ...]]]:
    """N-dimensional arrays as 1-D views of their elements (one view per array; the codecs work on 1-D
    arrays), and the shape of each view's array (id(view) -> shape) for the extents the kernel is passed."""
    views: dict[int, Any] = {}
    shapes: dict[int, tuple[int, ...]] = {}
    out = list(args)
    for p in spec.params:
        a = args[p.index]
        if p.rank > 1 and is_ndarray(a):
            if id(a) not in views:
                views[id(a)] = a.reshape(-1)
                shapes[id(views[id(a)])] = a.shape
            out[p.index] = views[id(a)]
    return out, shapes


def _chunks(grid: Dim3, hw: Dim3) -> list[tuple[Dim3, Dim3]]:
    """The dispatches covering `grid` with at most `hw` workgroups per dimension: (first block, counts)."""
    def spans(n: int, m: int) -> list[tuple[int, int]]:
        return [(b, min(m, n - b)) for b in range(0, n, m)]

    return [((x, y, z), (cx, cy, cz)) for z, cz in spans(grid[2], hw[2]) for y, cy in spans(grid[1], hw[1])
            for x, cx in spans(grid[0], hw[0])]


__all__ = ["ShaderDevice", "ShaderLimits", "glsl_block_limit", "kernel_op"]
