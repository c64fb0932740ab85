// The DiagIngest target; its owner fills it in.
