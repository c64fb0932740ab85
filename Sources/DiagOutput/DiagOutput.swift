// The DiagOutput target; its owner fills it in.
