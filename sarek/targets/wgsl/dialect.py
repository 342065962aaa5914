"""`sarek_wgsl`: the WGSL compute target dialect (structured source text; see targets/glsl/common.py)."""

from sarek.targets.glsl.common import make_dialect, make_shader_ops

OPS = make_shader_ops("sarek_wgsl")
SarekWgsl = make_dialect("sarek_wgsl", OPS)
