// The DiagCommandLine target; its owner fills it in.
