// The DiagBundle target; its owner fills it in.
