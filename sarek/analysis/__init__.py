"""Pure queries over sarek IR, shared by passes, lowerings, the interpreter, the runtime and the front end.

- `features`: `kernel_uses(feature, module)`, the (target, feature) capability table, `check_target`,
  the shared `%native` refusal and `native_text`.
- `layout`: the aligned C layout of records and variants (`layout_of`), numpy dtypes (`numpy_dtype`).
- `types` / `type_order`: `referenced_type_names`, the dependency order of type declarations.
- `payload`: where a constructor's payloads live per target layout (`payload_fields`).
- `names`: `mangle_name`, the one place `Module.point` becomes `Module_point`.
- `reserved`: each target language's reserved identifiers (the one keyword table).
- `namer`: the naming rules, once: `sanitize`, `Namer.fresh` (`_<k>`), length limits, `entry_name`, the shader
  `escape`, and the attributes sarek-legalize-names records for the lowerings to read.
- `binders`: binder names of a module and in-place renaming.
- `convergence`: collective operations under thread-divergent control flow.
"""
