extension ReportPage {
    /// The page's only style sheet, inline so the file needs nothing else to render.
    static let style = """
        :root{--fault:#7b1fa2;--error:#d32f2f;--default:#607d8b;--info:#1e88e5;--debug:#b0bec5;--ink:#1d2733;--muted:#5f6b7a;--line:#e3e8ee;--bg:#f6f8fa}
        *{box-sizing:border-box}body{margin:0;font:14px/1.45 -apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
        header{background:linear-gradient(90deg,#15202b,#253a52);color:#fff;padding:22px 32px}
        header h1{margin:0;font-size:22px;font-weight:600}.sub{margin:4px 0 0;color:#c9d4e0}
        main{max-width:1080px;margin:0 auto;padding:8px 24px 32px}
        section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px 20px;margin:16px 0}
        h2{font-size:16px;margin:0 0 12px}h3{font-size:14px;margin:0}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;vertical-align:top}
        .facts th{width:130px;color:var(--muted);font-weight:500}.facts code{font:13px ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
        .chips{display:flex;flex-wrap:wrap;gap:8px;background:none;border:none;padding:0}
        .chip{border-radius:6px;padding:6px 14px;background:#fff;border:1px solid var(--line);border-top:4px solid var(--default);min-width:96px}
        .chip b{display:block;font-size:20px;font-weight:600}.chip{color:var(--muted);font-size:12px}
        .chip.total{border-top-color:var(--ink)}.chip.fault{border-top-color:var(--fault)}.chip.error{border-top-color:var(--error)}
        .chip.info{border-top-color:var(--info)}.chip.debug{border-top-color:var(--debug)}.chip.fault b,.chip.error b{color:var(--error)}
        .legend{color:var(--muted);margin:-6px 0 10px}.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin:0 4px 0 10px;vertical-align:-1px}
        .swatch.fault,rect.fault{background:var(--fault);fill:var(--fault)}.swatch.error,rect.error{background:var(--error);fill:var(--error)}
        .swatch.default,rect.default{background:var(--default);fill:var(--default)}.swatch.info,rect.info{background:var(--info);fill:var(--info)}
        .swatch.debug,rect.debug{background:var(--debug);fill:var(--debug)}
        .component{margin:10px 0 18px}.component-head{display:flex;justify-content:space-between;align-items:baseline;margin-bottom:4px}
        .component-head span{color:var(--muted);font-size:12px}.bad{color:var(--error)}
        svg{width:100%;height:90px;background:#fbfcfd;border:1px solid var(--line);border-radius:4px}.axis{stroke:#cfd8e3}
        .axis-labels{display:flex;justify-content:space-between;color:var(--muted);font-size:11px}
        .errors{font-size:13px}.errors thead th{border-bottom:2px solid var(--line);color:var(--muted);font-weight:500}
        .errors td{border-bottom:1px solid var(--line)}.errors .time{white-space:nowrap;font:12px ui-monospace,Menlo,Consolas,monospace;color:var(--muted)}
        .errors .message{font:12.5px ui-monospace,Menlo,Consolas,monospace;word-break:break-word}.errors .origin{color:var(--muted);font-size:12px}
        tr.fault{background:#f8f0fb}.tag{color:#fff;border-radius:3px;padding:1px 6px;font-size:11px;font-weight:600}
        .tag.error{background:var(--error)}.tag.fault{background:var(--fault)}.count{background:var(--error);color:#fff;border-radius:10px;padding:1px 8px;font-size:12px}
        .columns{display:grid;grid-template-columns:repeat(3,1fr);gap:20px}.top td{padding:2px 6px;font-size:13px;word-break:break-all}
        .top .num{text-align:right;color:var(--muted);width:60px}.top .bar{width:35%}.top .bar span{display:block;height:8px;background:#90a4ae;border-radius:4px}
        .empty,.more{color:var(--muted)}pre.notes{white-space:pre-wrap;margin:0;font:13px ui-monospace,Menlo,Consolas,monospace}
        footer{text-align:center;color:var(--muted);font-size:12px;padding:8px 0 24px}
        """
}
