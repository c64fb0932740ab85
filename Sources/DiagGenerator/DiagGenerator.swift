// The DiagGenerator target; its owner fills it in.
