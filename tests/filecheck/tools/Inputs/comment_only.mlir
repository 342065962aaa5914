// Only a comment: no operation (sarek-opt reports an empty input).
