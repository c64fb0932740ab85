// The SyncDemoKit target; its owner fills it in.
