"""sarek.devices() lists Device objects that also compare equal to the names selecting them."""

import sarek
import sarek.runtime


def test_devices_compare_with_their_names():
    ds = sarek.devices()
    assert "interp" in ds and "interp-ref" in ds
    assert "opencl" in ds and "opencl:0" in ds  # pocl here; a kind matches its numbered devices
    assert "vulkan:0" in ds and "vulkan-glsl:0" in ds
    assert "no-such-device" not in ds
    interp = sarek.runtime.get_device("interp")
    assert interp == "interp" and interp != "interp-ref"
    assert ds[0] == ds[0] and ds[0] != ds[1]
    assert len({*ds}) == len(ds)  # still hashable, by identity
