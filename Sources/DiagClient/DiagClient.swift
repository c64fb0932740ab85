// The DiagClient target; its owner fills it in.
