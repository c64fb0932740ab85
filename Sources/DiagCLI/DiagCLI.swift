// The DiagCLI target; its owner fills it in.
