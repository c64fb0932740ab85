import DiagCLI

Diag.prepareProcess()
Diag.main()
