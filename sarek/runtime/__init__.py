"""sarek's runtime: devices, `launch`, `Vector`, the compile cache.

    devices()               every device this machine offers: interp, interp-ref, opencl:<n>, cuda:<n>,
                            ptx:<n>, vulkan:<n> ...
    get_device(name)        by name ("interp", "opencl:1", "cuda", "cuda:0" ...); a bare kind is its first device
    default_device()        $SAREK_DEVICE, else interp
    launch(kernel, args, grid=, block=, device=, threads=, stream=)
    synchronize(device=None), cdiv(a, b), Stream (device.stream())
    Vector                  device-resident data with lazy transfers

Optional device providers are imported lazily: `sarek.runtime.ptx.ptx_devices()` and
`sarek.runtime.vulkan.vulkan_devices()` when those modules exist; others can `register_provider`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable, Sequence
from typing import Any, cast

from sarek.runtime.core import (UNSET, BufferDevice, Device, DeviceError, KernelSpec, LaunchError, Limits, Stream,
                                cdiv, kernel_spec)
from sarek.runtime import vector as _vector
from sarek.runtime.vector import Vector
from sarek.diagnostics import interrupting, user_api

__all__ = [
    "BufferDevice", "Device", "DeviceError", "KernelSpec", "LaunchError", "Limits", "Vector", "default_device",
    "devices", "get_device", "kernel_spec", "launch", "register_provider", "device_names", "Stream", "cdiv",
    "synchronize",
]

# kind -> (module, function returning a list of devices); imported only when devices are listed
_PROVIDERS: dict[str, tuple[str, str]] = {
    "opencl": ("sarek.runtime.opencl", "opencl_devices"),
    "cuda": ("sarek.runtime.cuda", "cuda_devices"),
    "ptx": ("sarek.runtime.ptx", "ptx_devices"),
    "vulkan": ("sarek.runtime.vulkan", "vulkan_devices"),
}
_EXTRA: dict[str, Callable[[], Sequence[Device]]] = {}
_devices: list[Device] | None = None
_BY_KIND: dict[str, list[Device]] = {}  # providers asked one by one (get_device before devices())
#: why a provider offered no device (kind -> message), filled by devices()
unavailable: dict[str, str] = {}


def register_provider(kind: str, provider: Callable[[], Sequence[Device]]) -> None:
    """Add a device provider (called by `devices()`); names its devices `<kind>:<n>`."""
    global _devices
    _EXTRA[kind] = provider
    _BY_KIND.pop(kind, None)
    _devices = None


def _from_provider(kind: str, fn: Callable[[], Sequence[Device]], registered: bool = False) -> list[Device]:
    """A provider's devices; a failure makes `kind` unavailable with the reason. A `registered` provider is the
    user's own code, so its exceptions are its failures (reported), not interruptions of sarek's set-up."""
    try:
        got = list(fn())
    except Exception as e:  # a broken driver must not hide the other devices
        if not registered and interrupting(e, f"the set-up of the {kind} devices"):
            raise  # the user's (a timeout's) exception: nothing is cached, the next call sets them up again
        unavailable[kind] = f"{type(e).__name__}: {e}"
        return []
    if not got:
        unavailable.setdefault(kind, "no device found")
    return got


def devices(refresh: bool = False) -> list[Device]:
    """Every device this machine offers, `interp` first."""
    global _devices
    if _devices is not None and not refresh:
        return list(_devices)
    if refresh:
        unavailable.clear()
        _BY_KIND.clear()
    found: list[Device] = _interp_devices()
    for kind in [*_PROVIDERS, *_EXTRA]:
        found += _provider_devices(kind)
    _devices = found
    return list(found)


_INTERP: list[Device] = []
_INTERP_WIDTHS: dict[str, Device] = {}


def _interp_devices() -> list[Device]:
    if not _INTERP:
        from sarek.runtime.interp_device import InterpDevice

        _INTERP.extend([InterpDevice("fast"), InterpDevice("reference")])
    return list(_INTERP)


def _provider_devices(kind: str) -> list[Device]:
    """The devices of one provider (asked once per process; `devices(refresh=True)` asks again)."""
    if kind in _BY_KIND:
        return _BY_KIND[kind]
    got: list[Device] = []
    if kind in _EXTRA:
        got = _from_provider(kind, _EXTRA[kind], registered=True)
    elif kind in _PROVIDERS:
        mod, fn = _PROVIDERS[kind]
        try:
            if importlib.util.find_spec(mod) is None:
                unavailable[kind] = f"{mod} is not installed"
            else:
                f = getattr(importlib.import_module(mod), fn, None)
                if f is None:
                    unavailable[kind] = f"{mod} has no {fn}()"
                else:
                    got = _from_provider(kind, f)
        except Exception as e:
            if interrupting(e, f"the set-up of the {kind} devices"):
                raise
            unavailable[kind] = f"{type(e).__name__}: {e}"
    _BY_KIND[kind] = got
    return got


def _glsl_devices_first() -> list[Device]:
    """The vulkan-glsl devices without wgpu's (sarek.runtime.vulkan.glsl_devices_first); a failure makes
    vulkan-glsl unavailable with the reason, as in `vulkan_devices`."""
    mod, _ = _PROVIDERS["vulkan"]  # imported by name, as the providers are (no import cycle)
    return _from_provider("vulkan-glsl", getattr(importlib.import_module(mod), "glsl_devices_first"))


def device_names() -> list[str]:
    return [d.name for d in devices()]


@user_api
def get_device(name: str | Device | None = None, fp: str | None = None) -> Device:
    """A device by name; a bare kind ("opencl", "cuda") is its first device; None is the default. `fp="exact"`
    gives the device at the exact floating-point policy (cuda/ptx: every operation separately rounded,
    bit-identical to the interpreter; see Device.fp), `fp="default"` the default policy."""
    if fp is not None:
        return get_device(name).with_fp(fp)
    if name is None:
        return default_device()
    if isinstance(name, Device):
        return name
    if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise LaunchError(f"device must be a name or a sarek.Device, got {name!r}")
    want = name.strip()
    if want == "interp-fast":
        want = "interp"
    elif want in ("interp-reference", "reference"):
        want = "interp-ref"
    kind = want.split(":")[0]
    if kind in ("interp", "interp-ref") and want.startswith(f"{kind}:warp="):
        return _interp_at_width(kind, want)
    if _devices is None and kind.startswith("interp"):
        all_ = _interp_devices()
    elif _devices is None and (kind in _PROVIDERS or kind in _EXTRA):
        all_ = _interp_devices() + _provider_devices(kind)
    elif _devices is None and kind == "vulkan-glsl":
        all_ = _interp_devices() + (_BY_KIND["vulkan"] if "vulkan" in _BY_KIND else _glsl_devices_first())
    else:
        all_ = devices()
    for d in all_:
        if d.name == want:
            return d
    for d in all_:
        if d.kind == want or d.name.split(":")[0] == want:
            return d
    all_ = devices()
    why = f" ({unavailable[kind]})" if kind in unavailable else ""
    raise LaunchError(f"no device '{name}' on this machine{why}; available: {', '.join(d.name for d in all_)}")


def _interp_at_width(kind: str, want: str) -> Device:
    """`interp:warp=N` / `interp-ref:warp=N`: the interpreter with N-lane warps (made once per name)."""
    from sarek.runtime.interp_device import InterpDevice

    n = want.split("=", 1)[1]
    if not n.isdigit() or not 1 <= int(n) <= 1024:
        raise LaunchError(f"'{want}': the warp width must be an integer from 1 to 1024, e.g. {kind}:warp=8")
    if want not in _INTERP_WIDTHS:  # not in devices(): a stand-in is asked for by name
        _INTERP_WIDTHS[want] = InterpDevice("fast" if kind == "interp" else "reference", warp_size=int(n))
    return _INTERP_WIDTHS[want]


def default_device() -> Device:
    """`$SAREK_DEVICE` when set, else the interpreter."""
    env = os.environ.get("SAREK_DEVICE", "").strip()
    if env:
        try:
            return get_device(env)
        except LaunchError as e:
            raise LaunchError(f"SAREK_DEVICE={env}: {e.message}") from None
    return get_device("interp")


LAUNCH_KEYWORDS = ("grid", "block", "threads", "device", "stream", "debug", "passes")


@user_api
def launch(kernel: Any, args: Sequence[Any], grid: Any = None, block: Any = UNSET, device: Any = None, *,
           threads: Any = None, stream: Any = None, debug: bool | None = None, passes: str | None = None,
           **unknown: Any) -> None:
    """Enqueue `kernel` (a front-end kernel, `(ModuleOp, name)` or a one-kernel ModuleOp) on `device`.

    `grid` (blocks) or `threads` (total threads; the grid is `cdiv(threads, block)`) must be given; `block`
    (threads per block) defaults to the kernel's declared block (`@kernel(block=...)`), else 1 with `grid` and
    256 (16x16, 8x8x4) with `threads`. Each is an int or a 1-3 tuple. numpy arrays are passed in and those the
    kernel may write are copied back (the launch waits for that); `sarek.Vector`s and foreign device arrays
    (PyTorch, CuPy, Numba, JAX, pyopencl) are used in place and the launch returns without waiting on cuda,
    ptx, opencl and vulkan. `stream=` orders it on a stream (see docs/RUNTIME.md). `debug=True` (default:
    $SAREK_DEBUG) runs the bounds-checked debug build and raises its first failed check as a LaunchError.
    `passes=` (xDSL pipeline syntax: sarek's passes or installed plugins') runs extra passes in this launch's
    compile, after the process-wide ones (sarek.runtime.compile); they join the compile cache's key.
    """
    from sarek.diagnostics import SarekError
    from sarek.runtime.core import resolve_kernel

    if unknown:
        bad = ", ".join(sorted(unknown))
        raise LaunchError(f"launch() got unknown keyword argument(s) {bad}; the keywords are "
                          f"{', '.join(LAUNCH_KEYWORDS)}")
    if block is None:
        raise LaunchError("block must be an int or a tuple of 1 to 3 ints, got None (leave it out for the default)")
    generic = getattr(kernel, "__dict__", {}).get("_generic")  # Kernel.launch knows it (a warm start: no front end)
    if generic if generic is not None else getattr(kernel, "type_params", None):  # the instance the dtypes pick
        kernel = kernel.bind_launch(tuple(args))
    spec = _warm_spec(kernel, debug)
    module, name = resolve_kernel(kernel) if spec is None else (None, spec.name)
    if passes is not None:
        if not isinstance(passes, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise LaunchError(f"passes= takes a pass list (a str, e.g. \"my-pass{{k=2}},sarek-cse\"), got {passes!r}")
        if spec is None:
            from sarek.runtime.debug import launch_plan

            if launch_plan(cast(Any, module), name, debug) is not None:
                raise LaunchError(f"kernel {name}: passes= applies to plain launches, not to a debug launch or "
                                  "a kernel that prints (set them process-wide: sarek.runtime.compile."
                                  "set_extra_passes)")
            spec = kernel_spec(cast(Any, module), name)
    declared = getattr(kernel, "declared_block", None)
    block = None if block is UNSET else block
    dev = get_device(device)
    if passes is not None and spec is not None:
        from sarek.runtime.compile import with_passes

        spec = with_passes(spec, passes)
        if spec.passes and not dev.takes_passes:
            raise LaunchError(f"kernel {name}: {dev.name} does not run extra passes (passes=) yet; the devices that "
                              "compile through sarek's compile service do: cuda, ptx, opencl, vulkan, vulkan-glsl")
    args = args if isinstance(args, list) else list(args)
    try:
        if spec is not None:  # a plain launch of a front-end kernel: its spec, maybe from the warm cache
            dev.launch_spec(spec, args, grid, block, threads, stream, declared)
        else:
            dev.launch(cast(Any, module), name, args, grid, block, threads, stream, declared, debug)
    except SarekError as e:
        if type(e) is not SarekError:  # LaunchError, DeviceError, CompileError, InterpError: as they are
            raise
        # a pass or target refusing the kernel for this device: a compile error, shown like k.source()'s
        # (the Python source line and a caret)
        from sarek.diagnostics import CompileError

        raise CompileError.from_sarek_error(e) from None


def _warm_spec(kernel: Any, debug: bool | None) -> KernelSpec | None:
    """The spec of a plain launch of a front-end kernel (sarek.runtime.warm: read from the persistent cache
    before the front end runs), None for a debug launch, a kernel that prints, or one that is not cacheable."""
    from sarek.runtime.args import env_debug
    from sarek.runtime.warm import launch_spec, prints

    if debug or (debug is None and env_debug()) or getattr(kernel, "fn", None) is None or \
            not callable(getattr(kernel, "warm_closure", None)):  # a front-end Kernel made from a function
        return None
    spec = launch_spec(kernel)
    return None if spec is None or prints(spec) else spec


def fast_path(kernel: Any, device: Any, grid: Any, block: Any, threads: Any, passes: str | None = None) -> Any:
    """The cached launch plan (`FastPath`) for repeated launches of `kernel` with these launch values and extra
    passes, or None (Kernel.launch keeps it, after a full launch checked them; a launch it does not cover takes
    the full path)."""
    from sarek.runtime.core import resolve_kernel

    dev = get_device(device)
    spec = _warm_spec(kernel, False)
    if spec is None:
        module, name = resolve_kernel(kernel)
        spec = kernel_spec(module, name)
    if passes:
        from sarek.runtime.compile import with_passes

        spec = with_passes(spec, passes)
    g, b = dev.launch_dims(spec, grid, None if block is UNSET else block, threads,
                           getattr(kernel, "declared_block", None))
    return dev.fast_path(spec, g, b)


@user_api
def synchronize(device: Any = None) -> None:
    """Wait for every launch enqueued on `device` (default: every device used so far)."""
    if device is not None:
        get_device(device).synchronize()
        return
    for d in [*_INTERP, *(d for ds in _BY_KIND.values() for d in ds)]:
        d.synchronize()


_vector.resolve_device = get_device  # Vector.from_dlpack names devices through the registry above
