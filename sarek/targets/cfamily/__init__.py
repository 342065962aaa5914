"""The C-family targets `-t cuda`, `-t hip`, `-t opencl`, `-t metal`: one dialect (`dialect`), one printer
(`printer`), four spelling tables (`languages`); their xDSL Target classes are in `target` (a target driver:
it runs the pass pipeline, so the dialect and printer modules below it must not import it)."""
