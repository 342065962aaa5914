"""`check(source)`: HIP source compiled by ROCm's `hipcc` to AMDGPU code objects, for a wave64 and a wave32
architecture so warp code is checked at both widths.

`hipcc --offload-arch=gfx90a --offload-arch=gfx1030 --offload-device-only -c` (Debian 12's ROCm 5.2:
`apt-get install hipcc libamdhip64-dev rocm-device-libs`, done by scripts/setup.sh). gfx90a (MI200) runs
64-lane wavefronts; gfx1030 (RDNA2) runs 32-lane ones. RDNA3's gfx1100 would be the newer wave32 choice, but
ROCm 5.2's device libraries have no gfx1100 bitcode (`cannot find ROCm device library for gfx1100`), so
gfx1030 stands in for it. A missing hipcc or a failed compile raises `ValidationError` with the output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from sarek.validate import ValidationError

#: (architecture, wavefront size) pairs every HIP source is compiled for
ARCHS = (("gfx90a", 64), ("gfx1030", 32))


def hipcc_path() -> str:
    p = shutil.which("hipcc") or ("/usr/bin/hipcc" if os.path.exists("/usr/bin/hipcc") else None)
    if p is None:
        raise ValidationError("hipcc not found (needed to validate HIP): apt-get install -y hipcc "
                              "libamdhip64-dev rocm-device-libs (scripts/setup.sh does)")
    return p


def _numbered(source: str) -> str:
    return "\n".join(f"{i + 1:4}: {line}" for i, line in enumerate(source.splitlines()))


def check(source: str, archs: tuple[str, ...] = tuple(a for a, _ in ARCHS)) -> None:
    """Raise ValidationError unless the HIP `source` compiles for every architecture in `archs`."""
    exe = hipcc_path()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernel.hip")
        with open(src, "w") as f:
            f.write(source)
        cmd = [exe, *(f"--offload-arch={a}" for a in archs), "--offload-device-only", "-c", "-x", "hip", src,
               "-o", os.path.join(d, "kernel.o")]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise ValidationError(f"hipcc --offload-arch={','.join(archs)} failed (exit {r.returncode}):\n"
                                  f"{(r.stderr + r.stdout).strip()}\n--- source ---\n{_numbered(source)}")


__all__ = ["ARCHS", "check", "hipcc_path"]
