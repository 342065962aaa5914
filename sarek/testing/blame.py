"""Pass blame: which pass of a target's pipeline changes a kernel's result.

`blame(file, device, reference)` runs the failing device's pipeline (`sarek.passes.pipeline.pipeline_passes`)
one pass at a time on a clone of the kernel's module and runs the interpreter on the IR after each pass that
still produces sarek-dialect IR; the first pass whose output changes the result (or whose IR the interpreter
cannot run) is named. When the IR stays right up to the lowering, the fault is in "lowering/printer" (the
target dialect's lowering, its printer, or the device's compiler and driver). `sarek-lower-print` is skipped
(the interpreter device lowers prints itself). Once `sarek-pack-narrow` (shader targets) has made a kernel's
narrow vectors packed words (its `sarek.packed` attribute), the IR runs on the reference interpreter, which
takes the host's narrow arrays as those words (runs.run_module_interp).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def blame(path: Path, device: str, reference: str = "interp") -> str:
    from sarek.passes.pipeline import pipeline_passes
    from sarek.testing.runs import DEVICE_TARGET, compare, device_kind, load_kernel, run_module_interp
    from sarek.registry import make_context

    target = DEVICE_TARGET.get(device_kind(device))
    if target is None:
        return f"no pipeline: {device} is an interpreter (compare interp with interp-ref by hand)"
    kernel, case = load_kernel(path)
    module: Any = kernel.module.clone()
    want = run_module_interp(module, kernel.name, kernel, case)
    ctx = make_context()
    for p in pipeline_passes(target, block=f"{case['block']},1,1", kernel=kernel.name):
        name = str(getattr(p, "name", type(p).__name__))
        if name == "sarek-lower-print":  # instrumentation: the interpreter device lowers prints itself
            continue
        if name.startswith("sarek-lower-") and name != "sarek-lower-warp":
            return f"lowering/printer ({name} or the {target} printer, compiler or driver): the sarek IR after " \
                   f"every earlier pass still gives the reference result"
        try:
            p.apply(ctx, module)
            module.verify()
        except Exception as e:
            return f"{name}: raised {type(e).__name__}: {str(e)[:300]}"
        try:
            # a clone: the interpreters and the runtime cache what they derive from a module by the module (or
            # its ops' identities), so the IR after a pass that changes ops in place would run as the IR before it
            got = run_module_interp(module.clone(), kernel.name, kernel, case)
        except Exception as e:
            return f"{name}: the interpreter cannot run its output ({type(e).__name__}: {str(e)[:200]})"
        d = compare(want, got, case, reference)
        if d is not None:
            return f"{name}: changes the result ({d})"
    return f"lowering/printer (the {target} printer, compiler or driver)"
