"""The names of the float math intrinsics, plain data: `sarek.math` builds its functions from them at
`import sarek` without the dialect (sarek.dialect.intrinsics, which imports xDSL, types them)."""

from __future__ import annotations

UNARY_FLOAT = (
    "sin cos tan asin acos atan sinh cosh tanh exp exp2 log log2 log10 sqrt rsqrt cbrt "
    "floor ceil round trunc fabs expm1 log1p erf erfc atanh lgamma"
).split()
BINARY_FLOAT = "atan2 pow fmin fmax fmod hypot copysign".split()
