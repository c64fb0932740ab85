// The DiagQuery target; its owner fills it in.
