#!/usr/bin/env bash
# On the H200 machine (no package registry): install the carried wheels and Vulkan loaders, register NVIDIA's
# OpenCL ICD, then run the command given (default: the GPU check script). Results go to $OUT when set.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -d .gl ]; then for f in .gl/*.deb; do dpkg -x "$f" / ; done; ldconfig; fi
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    || { echo "wheel install failed"; exit 1; }
  export PYTHONPATH="/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH}"
else
  export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
fi
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
if ! ldconfig -p | grep -q libnvidia-opencl; then echo "note: libnvidia-opencl.so.1 not in ldconfig"; fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
export PYTHONUNBUFFERED=1
if ! python3 -c "import wgpu; wgpu.gpu.request_adapter_sync()" >/dev/null 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
if [ $# -eq 0 ]; then set -- python3 scripts/gpu_check.py; fi
"$@"
