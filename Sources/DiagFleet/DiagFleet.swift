// The DiagFleet target (bundles in PostgreSQL); its owner fills it in.
