// The DiagImport target; its owner fills it in.
