// The DiagPredicate target; its owner fills it in.
