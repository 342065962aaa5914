"""Devices, kernel parameter specs, argument checking and the generic launch path.

A `Device` runs a kernel of a sarek module on numpy arrays, `sarek.Vector`s and scalars. The base class
does everything that is the same on every device (parameter specs from the IR, argument checks with clear
errors, grid/block normalisation and limits, copy-back of the vectors the kernel may write); subclasses
implement buffers (`_alloc`, `_upload`, `_download`) and `_run`.

Parameter specs live in sarek.runtime.specs and argument checks in sarek.runtime.args; their names are
re-exported here, where the devices import them from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from sarek.diagnostics import SarekError, interrupting, user_api
from sarek.runtime.args import Dim3 as Dim3
from sarek.runtime.args import UNSET as UNSET
from sarek.runtime.args import check_args as check_args
from sarek.runtime.args import check_guards as check_guards
from sarek.runtime.args import dim3 as dim3
from sarek.runtime.args import env_debug
from sarek.runtime.args import same_layout as same_layout
from sarek.runtime.errors import DeviceError as DeviceError, LaunchError as LaunchError  # their home: a leaf module
from sarek.runtime.specs import KernelSpec as KernelSpec
from sarek.runtime.specs import Param as Param
from sarek.runtime.specs import element_dtype as element_dtype
from sarek.runtime.specs import extents as extents
from sarek.runtime.specs import kernel_names as kernel_names
from sarek.runtime.specs import kernel_spec as kernel_spec
from sarek.runtime.specs import module_hash as module_hash
from sarek.runtime.specs import resolve_kernel as resolve_kernel
from sarek.runtime.specs import scalar_dtype as scalar_dtype

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp


@dataclass(frozen=True)
class Limits:
    max_threads_per_block: int = 1024
    max_block: Dim3 = (1024, 1024, 64)
    max_grid: Dim3 = (2**31 - 1, 65535, 65535)
    max_global: int = 2**31 - 1  # total threads per dimension (ids are i32)


class Device:
    """A place kernels run. Subclasses: InterpDevice, OpenCLDevice, CudaDevice (and ptx/vulkan providers)."""

    name: str = "?"
    kind: str = "?"  # interp | opencl | cuda | ptx | vulkan
    #: target language compiled for this device (None: runs the IR)
    target: str | None = None
    #: compiles through sarek.runtime.compile.compile_source, so extra passes (process-wide, per launch) run
    takes_passes: bool = False
    #: the floating-point policy of what this device compiles: "default" (what nvcc/NVRTC users get: multiply-add
    #: contracted into fma, fast f32 math on ptx) or "exact" (every operation separately rounded, bit-identical
    #: to the interpreter); `get_device(name, fp="exact")` / `device.with_fp("exact")` give the exact variant
    fp: str = "default"
    #: the kinds whose compilers take the policy (the interpreters are always exact)
    FP_KINDS = ("cuda", "ptx")

    def __repr__(self) -> str:
        return f"<sarek device {self.name}: {self.description}>"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        """A device equals itself and the names that select it (`"opencl:0"`, `"opencl"`, `"interp"`), so
        `"interp" in sarek.devices()` reads as it should."""
        if isinstance(other, str):
            return other == self.name or other == self.name.split(":")[0]
        return other is self

    __hash__ = object.__hash__

    @property
    def description(self) -> str:
        return self.kind

    @property
    def limits(self) -> Limits:
        return Limits()

    def with_fp(self, fp: str) -> Device:
        """This device at floating-point policy `fp` ("default" or "exact"): the same device (memory, streams)
        compiling with that policy; a LaunchError where the device cannot honour it."""
        if fp not in ("default", "exact"):
            raise LaunchError(f"fp must be 'default' or 'exact', not {fp!r}")
        if fp == self.fp or self.kind.startswith("interp"):
            return self
        if self.kind not in self.FP_KINDS:
            raise LaunchError(f"fp={fp!r}: {self.name} has one floating-point policy (its driver's); "
                              f"fp= is for the {' and '.join(self.FP_KINDS)} devices")
        variants = cast("dict[str, Device]", self.__dict__.setdefault("_fp_variants", {}))
        if fp not in variants:
            import copy

            v = copy.copy(self)
            v.__dict__.pop("_fp_variants", None)
            v.fp = fp
            variants[fp] = v
        return variants[fp]

    @property
    def fp_key(self) -> str:
        """`kind:index` of this device plus `:exact` at the exact policy: what its compiled-code caches key on."""
        return f"{self.name}{':exact' if self.fp == 'exact' else ''}"

    @property
    def warp_size(self) -> int:
        """The sub-group (warp) width kernels see here (`warp_size` in a kernel), 1 where there are no
        sub-groups. Devices that know it set `_warp_size`; the others run a probe kernel once."""
        w = cast("int | None", self.__dict__.get("_warp_size"))
        if w is None:
            w = self._warp_size = _probe_warp_size(self)
        return w

    @property
    def memory_space(self) -> tuple[Any, ...] | None:
        """The memory foreign device arrays must live in to be passed in place (None: host memory only)."""
        return None

    @property
    def buffer_key(self) -> Any:
        """Devices sharing a key share memory: a `sarek.Vector` valid on one is valid on all (cuda:N, ptx:N)."""
        return id(self)

    # -- the public entry point

    @user_api
    def launch(self, module: ModuleOp, kernel: str, args: Sequence[Any], grid: Any = None, block: Any = None,
               threads: Any = None, stream: Any = None, declared_block: Dim3 | None = None,
               debug: bool | None = None) -> None:
        """Enqueue one launch (see `sarek.runtime.launch`); returns before the kernel ends where the device is
        asynchronous. A debug launch (`debug`, else $SAREK_DEBUG) or one of a kernel that prints runs the
        module's debug variant with the hidden debug buffer and waits for it (sarek.runtime.debug)."""
        from sarek.passes.debug_buffer import PRINT_BASE
        from sarek.runtime.debug import launch_plan

        plan = launch_plan(module, kernel, debug)
        if plan is not None:
            buf = plan.buffer()
            snap = plan.snapshot(kernel_spec(module, kernel).params, args)
            self.launch(plan.module, kernel, [*args, buf], grid, block, threads, stream, declared_block, False)
            if (room := plan.rerun_buffer(buf, snap)) is not None:  # the print area overflowed: run it again
                self.launch(plan.module, kernel, [*args, room], grid, block, threads, stream, declared_block, False)
                return plan.finish(room, self, buf.size - PRINT_BASE)
            return plan.finish(buf, self)
        self.launch_spec(kernel_spec(module, kernel), args, grid, block, threads, stream, declared_block)

    def launch_spec(self, spec: KernelSpec, args: Sequence[Any], grid: Any, block: Any, threads: Any, stream: Any,
                    declared_block: Dim3 | None) -> None:
        """A plain launch (no debug buffer) of a kernel spec: `launch`'s tail, and the warm start's whole launch
        (sarek.runtime.warm: a spec read from the persistent cache, its module not built)."""
        kernel = spec.name
        try:
            g, b = self.launch_dims(spec, grid, block, threads, declared_block)
            values = check_args(spec, args, self)
            check_sizes(spec, values, self)
            if spec.guards:
                check_guards(spec, values, g, b)
            self._launch_on(spec, values, g, b, self.resolve_stream(stream, values))
        except BaseException as e:  # Ctrl-C or a signal handler's timeout mid-launch: noted, passed through
            interrupting(e, f"a launch of kernel {kernel} on {self.name}")
            raise

    def launch_dims(self, spec: KernelSpec, grid: Any, block: Any, threads: Any,
                    declared: Dim3 | None) -> tuple[Dim3, Dim3]:
        """(grid, block) from the launch's grid/block/threads and the kernel's declared block, checked against
        the device's limits. Cached per (kernel, values): a repeated launch costs one dict look-up."""
        key = (id(self), grid, block, threads, declared)
        try:
            hit = spec.dims.get(key)
        except TypeError:  # a list somewhere: not hashable, checked every time
            key, hit = None, None
        if hit is not None and hit[0] is self:
            return hit[1], hit[2]
        b = dim3(block, "block") if block is not None else None
        if declared is not None:
            if b is not None and b != declared:
                raise LaunchError(f"kernel {spec.name} is declared with block={_show(declared)} (@kernel(block=...)); "
                                  f"this launch asks for block={_show(b)}")
            b = declared
        if grid is not None and threads is not None:
            raise LaunchError(f"kernel {spec.name}: give grid= (blocks) or threads= (total threads), not both")
        if grid is None and threads is None:
            raise LaunchError(f"kernel {spec.name}: the launch needs grid= (blocks per dimension) or threads= "
                              "(total threads; the grid is computed from the block)")
        if threads is not None:
            t = dim3(threads, "threads")
            if b is None:
                b = self.default_block(t)
            g = (cdiv(t[0], b[0]), cdiv(t[1], b[1]), cdiv(t[2], b[2]))
        else:
            g = dim3(grid, "grid")
        if b is None:
            b = (1, 1, 1)
        self.check_dims(spec, g, b)
        if key is not None:
            spec.dims[key] = (self, g, b)
        return g, b

    def default_block(self, threads: Dim3) -> Dim3:
        """The block of a `threads=` launch with no block given: 256 threads (16x16, 8x8x4), within limits."""
        n = 1 + (threads[1] > 1) + (threads[2] > 1)
        want = {1: (256, 1, 1), 2: (16, 16, 1), 3: (8, 8, 4)}[n]
        lim = self.limits
        while want[0] * want[1] * want[2] > lim.max_threads_per_block:
            want = (max(1, want[0] // 2), max(1, want[1] // 2) if n > 1 else 1, want[2])
        return want

    def check_dims(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> None:
        lim = self.limits
        threads = block[0] * block[1] * block[2]
        if spec.coop and threads % (self.warp_size * spec.coop):
            owner, size = ("warpgroups", "warpgroup size") if spec.coop == 4 else ("warps", "warp size")
            raise LaunchError(f"kernel {spec.name} uses cooperative matrices (owned by whole {owner}): its block "
                              f"{block} has {threads} threads, not a multiple of device {self.name}'s {size} "
                              f"{self.warp_size * spec.coop}; use a block of whole {owner} (e.g. "
                              f"{self.warp_size * 4})")
        if threads > lim.max_threads_per_block:
            raise LaunchError(f"kernel {spec.name}: block {block} has {threads} threads; device {self.name} "
                              f"allows at most {lim.max_threads_per_block} per block")
        for d, (x, m) in enumerate(zip(block, lim.max_block)):
            if x > m:
                raise LaunchError(f"kernel {spec.name}: block {block} exceeds device {self.name}'s limit "
                                  f"{lim.max_block} in dimension {'xyz'[d]}")
        for d, (x, m) in enumerate(zip(grid, self.grid_limit)):
            if x > m:
                raise LaunchError(f"kernel {spec.name}: grid {grid} exceeds device {self.name}'s limit "
                                  f"{lim.max_grid} in dimension {'xyz'[d]}")
        for d in range(3):
            if grid[d] * block[d] > lim.max_global:
                raise LaunchError(f"kernel {spec.name}: grid {grid} x block {block} gives more than "
                                  f"{lim.max_global} threads in dimension {'xyz'[d]} (thread ids are i32)")

    @property
    def grid_limit(self) -> Dim3:
        """The grid a launch may ask for (the hardware's, or more where the device splits dispatches)."""
        return self.limits.max_grid

    def vector_limit(self, p: Param) -> tuple[int, str] | None:
        """The most elements a vector argument of parameter `p` may have here and why (check_sizes), or None:
        only the i32 extents every device has. A target whose lowering computes element offsets in 32 bits
        (the shaders: sarek.registry's `index_bits`) takes at most 2^31 - 1."""
        from sarek.registry import target_info

        if self.target is not None and target_info(self.target).index_bits == 32:
            return I32_MAX, f"{self.name} runs {self.target.upper()}, which indexes a vector with 32-bit integers"
        return None

    # -- streams

    #: launches may run on several streams (queues) at once, so Vectors are ordered across them
    #: (sarek.runtime.streams); False where there is one queue (Vulkan) or launches run to the end (interp)
    multi_stream: bool = False

    def stream(self) -> Stream:
        """A new stream (queue) of this device; launches with `stream=` it run in order on it."""
        return Stream(self, None)

    def resolve_stream(self, stream: Any, values: list[Any]) -> Any:
        """The device's handle for a launch's `stream=` (None: the default stream)."""
        if stream is None:
            return None
        if isinstance(stream, Stream):
            if stream.device is not self and stream.device.buffer_key != self.buffer_key:
                raise LaunchError(f"stream= is a stream of {stream.device.name}, the launch is on {self.name}")
            return stream.handle
        raise LaunchError(f"device {self.name} runs launches in order on the host; stream= takes only a "
                          f"sarek stream of it (device.stream()), got {type(stream).__name__}")

    def stream_token(self, handle: Any) -> Any:
        """What `resolve_stream` gave, as the Vector records of sarek.runtime.streams compare it (one value
        for the default stream, however it was named)."""
        return handle

    def _order_after(self, producer: Any, consumer: Any) -> None:
        """Make later work on stream `consumer` wait for everything enqueued on `producer` so far (here by
        waiting on the host; the devices with streams enqueue the wait)."""
        self.synchronize_stream(producer)

    def _launch_on(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        self._launch(spec, args, grid, block)

    def fast_path(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> FastPath | None:
        """A launcher for repeated launches of resident Vectors and Python numbers (None: none here)."""
        return None

    def _launch(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3) -> None:
        raise NotImplementedError

    # -- buffers (devices with their own memory)

    def _alloc(self, nbytes: int) -> Any:
        raise NotImplementedError

    def _upload(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        raise NotImplementedError

    def _download(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        raise NotImplementedError

    def _free(self, buf: Any) -> None:
        pass

    def synchronize(self) -> None:
        """Wait until every launch enqueued on this device (on any of its streams) has finished."""

    def synchronize_stream(self, handle: Any) -> None:
        self.synchronize()

    def destroy_stream(self, handle: Any) -> None:
        pass

    def source(self, module: ModuleOp, kernel: str) -> str | None:
        """The generated source this device compiles (None for the interpreter)."""
        return None


class Stream:
    """An ordered queue of launches on one device (`device.stream()`); `handle` is the device's own object
    (a CUstream, a pyopencl CommandQueue; None for the default one). Exposes `__cuda_stream__` on CUDA."""

    def __init__(self, device: Device, handle: Any, owned: bool = False):
        self.device = device
        self.handle = handle
        self._owned = owned

    def synchronize(self) -> None:
        """Wait for every launch enqueued on this stream."""
        self.device.synchronize_stream(self.handle)

    def __cuda_stream__(self) -> tuple[int, int]:
        if self.device.kind not in ("cuda", "ptx"):
            raise AttributeError(f"__cuda_stream__: {self.device.name} is not a CUDA device")
        return (0, int(self.handle or 0))

    def __repr__(self) -> str:
        return f"<sarek stream on {self.device.name}>"

    def __del__(self) -> None:
        if self._owned:
            try:
                self.device.destroy_stream(self.handle)
            except Exception:
                pass


I32_MAX = 2**31 - 1


def check_sizes(spec: KernelSpec, values: list[Any], dev: Device) -> None:
    """Every vector argument's extents fit the i32 they travel as (`len(v)`, `a.shape[k]`), and its element
    count the device's `vector_limit`: a LaunchError naming the parameter and the limit (a length past i32
    used to wrap, or fail in the marshalling with a raw OverflowError)."""
    for p, a in zip(spec.params, values):
        if p.kind != "vec":
            continue
        ext = extents(p, a)
        where = f"kernel {spec.name}: argument '{p.name}' (#{p.index + 1})"
        for k, n in enumerate(ext):
            if n > I32_MAX:
                what = f"has {n} elements" if p.rank == 1 else f"has extent {n} in dimension {k} (shape {ext})"
                hint = ("pass it as an Array[T, 2] or more dimensions (each extent at most that), or in pieces"
                        if p.rank == 1 else "reshape it so that every extent is at most that, or pass it in pieces")
                raise LaunchError(f"{where} {what}; a vector's length and an array's extents are i32 in a kernel "
                                  f"(`len(v)`, `a.shape[k]`), at most {I32_MAX}: {hint}")
        limit = dev.vector_limit(p)
        if limit is not None:
            total = math.prod(ext)
            if total > limit[0]:
                raise LaunchError(f"{where} has {total} elements; {limit[1]}, at most {limit[0]} elements per "
                                  "vector: pass it in pieces, or use a device without that limit")


def _probe_warp_size(dev: Device) -> int:
    """`warp_size` as a kernel of a block of 64 (or the device's largest) threads sees it; 1 where the device
    refuses warp operations."""
    from sarek.runtime.probe import warp_probe

    out = np.zeros(1, np.int32)
    try:
        k = warp_probe()
        dev.launch(k.module, k.name, [out], grid=1, block=min(64, dev.limits.max_threads_per_block))
        dev.synchronize()
    except SarekError:
        return 1
    return max(1, int(out[0]))


def _show(d: Dim3) -> str:
    t = d[:1] if d[1:] == (1, 1) else d[:2] if d[2] == 1 else d
    return str(t[0]) if len(t) == 1 else str(tuple(t))


def cdiv(a: Any, b: Any) -> int:
    """Ceiling division for grids: `cdiv(n, 256)` blocks of 256 threads cover n."""
    if not all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in (a, b)):
        raise TypeError(f"cdiv(a, b) takes two ints, got {a!r}, {b!r}")
    if b <= 0:
        raise ValueError(f"cdiv(a, b): b must be positive, got {b}")
    return -(-int(a) // int(b))


class BufferDevice(Device):
    """A device with its own memory: arrays are uploaded for the launch and written ones copied back;
    `sarek.Vector`s stay resident and move only when another place needs them."""

    def _launch_on(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        """Binds the arguments and enqueues the kernel on `stream`. Waits only when numpy arrays were passed:
        the written ones are copied back, and their temporary buffers are freed after the kernel ends."""
        import sys

        from sarek.runtime import streams
        from sarek.runtime.vector import Vector, download_into, to_device_layout

        # a foreign device array exists only once sarek.runtime.interop made it (numpy-only launches skip its import)
        interop: Any = sys.modules.get("sarek.runtime.interop")

        bound: list[Any] = []
        temps: dict[int, tuple[Any, np.ndarray[Any, Any]]] = {}  # id(array) -> (buffer, array): one per array
        for p, a in zip(spec.params, args):
            if p.kind != "vec":
                bound.append(a)
            elif isinstance(a, Vector):
                bound.append((a.device_buffer(self), a.size))
            elif interop is not None and isinstance(a, interop.DeviceArray):
                bound.append((a.handle, *extents(p, a)))
            elif id(a) in temps:  # the same array passed twice: one buffer, as on the host
                bound.append((temps[id(a)][0], *extents(p, a)))
            else:
                dev_arr = to_device_layout(a)
                buf = self._alloc(max(dev_arr.nbytes, 1))
                temps[id(a)] = (buf, a)
                if a.nbytes:
                    self._upload(buf, dev_arr)
                bound.append((buf, *extents(p, a)))
        try:
            ordered = [(a, p.written) for p, a in zip(spec.params, args) if isinstance(a, Vector)]
            if self.multi_stream and (ordered or temps):
                token = self.stream_token(stream)
                streams.sequence(self, ordered, token)
                if temps and token != self.stream_token(None):  # their uploads went through the default stream
                    self._order_after(self.stream_token(None), token)
            self._run(spec, bound, grid, block, stream)
            for a, written in ordered:
                if written:
                    a.mark_written_on(self)
            if temps:
                self.synchronize_stream(stream)
                written = {id(a) for p, a in zip(spec.params, args) if p.written}
                for key, (buf, host) in temps.items():
                    if key in written and host.nbytes:
                        download_into(self, buf, host)
        finally:
            for buf, _ in temps.values():
                self._free(buf)

    def _run(self, spec: KernelSpec, bound: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        """Enqueue with `bound`: (buffer, length) for vectors ((buffer, extent 0, extent 1, ...) for an
        N-dimensional one), numpy scalars / 1-element structured arrays."""
        raise NotImplementedError


class FastPath:
    """The cached launch plan of one (kernel, device, grid, block) for the common repeated launch: every vector a
    `sarek.Vector` already valid on the device (native layout), every scalar a Python int or float in range.
    `__call__(args)` checks exactly that and submits, or returns False (then the full launch path runs, and
    it uploads, converts or words the error). `submit(bound)` is the device's enqueue of the bound values."""

    def __init__(self, dev: Device, spec: KernelSpec, grid: Dim3, block: Dim3, submit: Any,
                 codecs: dict[int, str] | None = None):
        kinds: list[tuple[int, Any, Any]] = []
        for p in spec.params:
            d = p.dtype
            if p.kind == "vec" and p.ntags is None and d != np.bool_ and p.rank == 1:
                kinds.append((0, d, (codecs or {}).get(p.index, "native")))
            elif p.kind == "scalar" and d.kind in "iu" and d != np.bool_ and not p.is_bf16:  # bf16: rounded
                info = np.iinfo(d)
                kinds.append((1, int(info.min), int(info.max)))
            elif p.kind == "scalar" and d.kind == "f" and d.itemsize >= 4:
                kinds.append((2, float(np.finfo(d).max), None))
            else:
                raise ValueError("no fast path")  # caught by make(): this kernel always takes the full path
        self.kinds = kinds
        self.n = len(kinds)
        self.dev = dev
        self.key = dev.buffer_key
        self.submit = submit
        self.written = [p.index for p in spec.params if p.written]
        #: (index, written) of every vector parameter, where launches are ordered across streams
        self.ordered = [(p.index, p.written) for p in spec.params if p.kind == "vec"] if dev.multi_stream else []
        self.token = dev.stream_token(None)  # the fast path launches on the default stream
        from sarek.runtime import streams

        self.sequence = streams.sequence
        self.clock = streams.clock(dev) if dev.multi_stream else None
        self.guards = spec.guards
        self.threads = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]
        from sarek.runtime.vector import Vector

        self.vector = Vector  # (an import statement per call cost a warm launch ~0.3 us)
        #: `foreign(args) -> bool`: the launch when a vector argument is not a resident Vector (CUDA/PTX:
        #: sarek.runtime.cuda_foreign, torch/CuPy/CAI/DLPack arrays); None: such launches take the full path
        self.foreign: Any = None

    @classmethod
    def make(cls, dev: Device, spec: KernelSpec, grid: Dim3, block: Dim3, submit: Any,
             codecs: dict[int, str] | None = None) -> FastPath | None:
        """The plan, or None when a parameter is of a kind the fast path does not take (records, bool ...);
        `codecs`: the buffer layout key of each vector parameter (default: the native layout)."""
        try:
            return cls(dev, spec, grid, block, submit, codecs)
        except ValueError:
            return None

    def __call__(self, args: Sequence[Any]) -> bool:
        if len(args) != self.n or env_debug():  # $SAREK_DEBUG set since: the full path runs the debug build
            return False
        bound: list[Any] = []
        key = self.key
        vector = self.vector
        pending = False  # a Vector another stream used (sarek.runtime.streams)
        for (kind, a1, a2), a in zip(self.kinds, args):
            if kind == 0:
                got = a.launch_buffer(key, a2, a1) if type(a) is vector else None
                if got is None:  # a foreign array (torch, CuPy ...): the device's foreign launcher, if it has one
                    return self.foreign is not None and self.foreign(args)
                if got[1] > I32_MAX:  # past i32: the full path words the refusal
                    return False
                bound.append(got)
                if a._pending:  # pyright: ignore[reportPrivateUsage]
                    pending = True
            elif kind == 1:
                if type(a) is not int or not a1 <= a <= a2:
                    return False
                bound.append(a)
            else:
                if type(a) is not float or not -a1 <= a <= a1:  # inf, nan, overflow: the full path decides
                    return False
                bound.append(a)
        for vi, si in self.guards:
            if args[si] > bound[vi][1] and self.threads > bound[vi][1]:
                return False  # the full path words the refusal
        if self.clock is not None:
            if pending:
                self.sequence(self.dev, [(args[i], w) for i, w in self.ordered], self.token)
            else:
                self.clock.default_used = True  # what streams.default_launch records
        self.submit(bound)
        for i in self.written:
            args[i].mark_written_key(key)
        return True
