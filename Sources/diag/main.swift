import DiagCLI

Diag.main()
