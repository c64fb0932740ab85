import DiagCLI

await Diag.main()
