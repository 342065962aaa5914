"""`sarek_glsl`: the GLSL 450 compute target dialect (structured source text; see targets/glsl/common.py)."""

from sarek.targets.glsl.common import make_dialect, make_shader_ops

OPS = make_shader_ops("sarek_glsl")
SarekGlsl = make_dialect("sarek_glsl", OPS)
