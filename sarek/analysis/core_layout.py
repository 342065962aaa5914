"""The core-matrix layout of a 2-D shared array (`shared(T, (R, C), layout="core")`): what Hopper's warpgroup
MMA reads through a no-swizzle matrix descriptor.

The array is cut into core matrices of 8 rows x 16 bytes (W = 16 / sizeof(T) elements per row), each stored
contiguously (128 bytes, row after row), the core matrices in row-major order: element (r, c) is at element
`core_offset(r, c, C, W)` = ((r // 8) * (C // W) + c // W) * 8 W + (r % 8) * W + c % W. A run of W elements
starting at a column multiple of W stays contiguous (a 16-byte `copy_async` chunk stays whole), and for i, j
multiples of 8 and W, element (i + r, j + c) is at core_offset(i, j) + core_offset(r, c): a fragment at (i, j)
is `index + core_offset(r, c)`. In a descriptor (bytes): K-major `a` (rows m): leading byte offset (next core
matrix along K) 128, stride byte offset (next 8 rows) C / W * 128; MN-major `b` (rows k): leading byte offset
(next 8 rows of k) C / W * 128, stride byte offset (next core matrix along N) 128.
"""

from __future__ import annotations


#: rows of a core matrix; bytes of each of its rows
CORE_ROWS = 8
CORE_BYTES = 16
#: the names `shared(..., layout=)` accepts
LAYOUTS = ("row", "core")



def core_width(elt_bytes: int) -> int:
    """Elements per core-matrix row."""
    return CORE_BYTES // elt_bytes


def core_offset(r: int, c: int, cols: int, width: int) -> int:
    """The element offset of (r, c) in a core-layout array of `cols` columns, `width` elements per core row."""
    return ((r // CORE_ROWS) * (cols // width) + c // width) * (CORE_ROWS * width) + (r % CORE_ROWS) * width + \
        c % width


def core_shape_error(rows: int, cols: int, elt_bytes: int) -> str | None:
    """Why a rows x cols array of `elt_bytes` elements cannot take the core layout, or None."""
    w = core_width(elt_bytes) if elt_bytes <= CORE_BYTES else 0
    if w == 0 or rows % CORE_ROWS or cols % w:
        return (f"a core-layout shared array has rows a multiple of {CORE_ROWS} and columns a multiple of {w or 1} "
                f"(16 bytes of its elements), not {rows}x{cols}")
    return None
