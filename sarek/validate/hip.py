"""`check(source)`: HIP source compiled by ROCm's `hipcc` to AMDGPU code objects, for a wave64 and a wave32
architecture so warp code is checked at both widths.

`hipcc --offload-arch=gfx90a --offload-arch=gfx1030 --offload-device-only -c` (Debian 12's ROCm 5.2:
`apt-get install hipcc libamdhip64-dev rocm-device-libs`, done by scripts/setup.sh). gfx90a (MI200) runs
64-lane wavefronts; gfx1030 (RDNA2) runs 32-lane ones. RDNA3's gfx1100 would be the newer wave32 choice, but
ROCm 5.2's device libraries have no gfx1100 bitcode (`cannot find ROCm device library for gfx1100`), so
gfx1030 stands in for it. Cooperative matrices are CDNA-only (MFMA): such a source is compiled for gfx90a and
gfx940 instead. A missing hipcc or a failed compile raises `ValidationError` with the output.
"""

from __future__ import annotations

import os
import shutil as shutil  # tool_path looks the tool up through it (tests patch `shutil.which` here)

from sarek.validate import run_tool, tool_path

#: (architecture, wavefront size) pairs every HIP source is compiled for
ARCHS = (("gfx90a", 64), ("gfx1030", 32))
#: a source with cooperative matrices (CDNA's MFMA, which RDNA lacks: its gfx1030 build stops at sarek's #error)
#: is compiled for CDNA instead: gfx90a, and gfx940, whose 8-bit MFMA has another shape (16x16x32)
COOP_ARCHS = ("gfx90a", "gfx940")


def hipcc_path() -> str:
    return tool_path("hipcc", "/usr/bin/hipcc", "hipcc not found (needed to validate HIP): apt-get install -y hipcc "
                     "libamdhip64-dev rocm-device-libs (scripts/setup.sh does)")


def check(source: str, archs: tuple[str, ...] | None = None) -> None:
    """Raise ValidationError unless the HIP `source` compiles for every architecture in `archs` (default: ARCHS,
    or COOP_ARCHS for a source using MFMA)."""
    if archs is None:
        archs = COOP_ARCHS if "__builtin_amdgcn_mfma" in source else tuple(a for a, _ in ARCHS)
    exe = hipcc_path()
    run_tool(source, "kernel.hip", lambda d, src: [exe, *(f"--offload-arch={a}" for a in archs), "--offload-device-only",
                                                   "-c", "-x", "hip", src, "-o", os.path.join(d, "kernel.o")],
             f"hipcc --offload-arch={','.join(archs)} failed")


__all__ = ["ARCHS", "COOP_ARCHS", "check", "hipcc_path"]
