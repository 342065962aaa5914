"""The runtime's exceptions, a leaf module: every runtime module (and sarek.runtime.debug) raises them without
importing the launch machinery of sarek.runtime.core, which re-exports them."""

from __future__ import annotations

from sarek.diagnostics import SarekError


class LaunchError(SarekError):
    """A launch the runtime refuses (bad arguments, grid/block beyond limits, unknown device)."""

    __module__ = "sarek"


class DeviceError(SarekError):
    """A device failed to compile or run a kernel (the toolchain's message is included)."""

    __module__ = "sarek"
