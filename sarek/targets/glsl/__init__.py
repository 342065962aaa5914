"""The `glsl` target: the `sarek_glsl` dialect, the shader printer (GLSL and WGSL) and, in `target`, the xDSL
Target classes (target drivers: they run the pass pipeline)."""
