"""The H200's devices the debug tests run on."""

import sarek.runtime as rt


def gpu_devices() -> list[str]:
    """cuda, ptx, NVIDIA OpenCL and both NVIDIA Vulkan devices (WGSL and GLSL)."""
    cpu = ("llvmpipe", "pocl", "portable computing language", "interpreter")
    hw = [d for d in rt.devices() if not any(c in repr(d).lower() for c in cpu)]
    names = [next(d.name for d in hw if d.kind == k) for k in ("cuda", "ptx", "opencl")]
    names += [next(d.name for d in hw if d.name.startswith(p)) for p in ("vulkan:", "vulkan-glsl:")]
    return names
