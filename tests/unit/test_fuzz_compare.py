"""The fuzzer's comparison of printed lines: exact, except the sign of a zero (fuzz seed 94: lavapipe's shaders
print 0.0 where the interpreters print -0.0 for `x * 0.0` with x < 0; Mesa drops SignedZeroInfNanPreserve)."""

from sarek.testing.runs import compare


def test_print_zero_sign_is_not_a_difference():
    ref = {"print": ["p1 -0.0 5 True", "p2 -0 1"]}
    assert compare(ref, {"print": ["p1 0.0 5 True", "p2 0 1"]}, {}, "vulkan:0") is None


def test_print_other_differences_still_count():
    ref = {"print": ["p1 -0.5 5 True"]}
    msg = compare(ref, {"print": ["p1 0.5 5 True"]}, {}, "vulkan:0")
    assert msg is not None and "print[0]" in msg
    assert compare({"print": ["a -10.0"]}, {"print": ["a 10.0"]}, {}, "vulkan:0") is not None
    assert compare({"print": ["a -0.01"]}, {"print": ["a 0.01"]}, {}, "vulkan:0") is not None
