// A tuning spec with a syntax error on line 6 (the `->` result list of the
// matcher is cut short). Tools handed it must say so, naming this file.
module attributes {transform.with_named_sequence, iree_codegen.tuning_spec_with_default_entrypoint} {
  transform.named_sequence @apply_op_config(%op: !transform.any_op {transform.readonly}, %config: !transform.any_param {transform.readonly}) {
    transform.annotate %op "compilation_info" = %config : !transform.any_op, !transform.any_param
    transform.yield %op, : !transform.any_op
  }
}
