// The DiagStore target; its owner fills it in.
