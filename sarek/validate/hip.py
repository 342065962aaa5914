"""`check(source)`: HIP source compiled by nvcc over sarek's hip_runtime-over-CUDA shim (see cuda.py)."""

from sarek.validate.cuda import check_hip as check

__all__ = ["check"]
