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
        .top .num{text-align:right;color:var(--muted);width:60px}.top .share{width:35%}.top .share span{display:block;height:8px;background:#90a4ae;border-radius:4px}
        .empty,.more{color:var(--muted)}pre.notes{white-space:pre-wrap;margin:0;font:13px ui-monospace,Menlo,Consolas,monospace}
        footer{text-align:center;color:var(--muted);font-size:12px;padding:8px 0 24px}
        """ + triageStyle

    /// The triage view: lanes of bars placed in percent of the window inside tracks the script
    /// widens and shifts to zoom and pan.
    static let triageStyle = """
        :root{--activity:#43a047;--interval:#1e88e5}.sub-count{color:var(--muted);font-weight:400;font-size:13px}
        .swatch.activity{background:var(--activity)}.swatch.interval{background:var(--interval)}
        .tv-controls{display:flex;gap:6px;align-items:center;margin-bottom:6px}.tv-controls button,.tv-filter button{border:1px solid var(--line);background:#fff;border-radius:4px;padding:2px 10px;cursor:pointer}
        #tv-range{color:var(--muted);font-size:12px;margin-left:8px}
        .tv-lanes{border:1px solid var(--line);border-radius:4px;user-select:none;cursor:grab}
        .lane{display:flex;border-top:1px solid var(--line)}.lane:first-child{border-top:none}
        .lane-name{width:130px;flex:none;padding:2px 8px;font-size:12px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;background:#fbfcfd;border-right:1px solid var(--line)}
        .lane-body{position:relative;flex:1;overflow:hidden;min-height:20px}
        .tv-track{position:absolute;top:2px;bottom:0;left:0;width:100%}
        .tv-axis{height:20px}.tick{position:absolute;top:2px;font-size:11px;color:var(--muted);white-space:nowrap;border-left:1px solid #cfd8e3;padding-left:3px}
        .bar{position:absolute;height:13px;min-width:2px;border-radius:2px;font-size:10px;line-height:13px;color:#fff;padding:0 3px;overflow:hidden;white-space:nowrap;text-overflow:clip;cursor:pointer}
        .bar.activity{background:var(--activity);opacity:.85}.bar.interval{background:var(--interval)}
        .bar.selected,.mark.selected{outline:2px solid #ff9800;z-index:2}
        .mark{position:absolute;width:3px;height:11px;margin-left:-1px;cursor:pointer}.mark.error{background:var(--error)}.mark.fault{background:var(--fault)}
        .tv-detail{margin:8px 0 14px;padding:8px 10px;background:#fbfcfd;border:1px solid var(--line);border-radius:4px;font:12.5px ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word}
        .slowest{font-size:13px;margin-bottom:14px}.slowest th{font-weight:600}.slowest .num{text-align:right;white-space:nowrap}.slowest .origin{color:var(--muted);font-weight:400;font-size:11px}
        .slowest tr.name-row{border-top:1px solid var(--line)}.slowest tr.slow{cursor:pointer;color:var(--muted);font-size:12px}.slowest tr.slow:hover{background:#eef5fd}
        .slowest .message{font:12px ui-monospace,Menlo,Consolas,monospace;word-break:break-word}
        .tv-filter{display:flex;gap:8px;align-items:center;margin:6px 0}#tv-filter{flex:1;max-width:420px;padding:3px 8px;border:1px solid var(--line);border-radius:4px}#tv-count{color:var(--muted);font-size:12px}
        .records-wrap{max-height:460px;overflow:auto;border:1px solid var(--line);border-radius:4px}
        .records{font-size:12px}.records thead th{position:sticky;top:0;background:#fff;border-bottom:2px solid var(--line);color:var(--muted);font-weight:500}
        .records td{border-bottom:1px solid var(--line)}.records .time{white-space:nowrap;font-family:ui-monospace,Menlo,Consolas,monospace;color:var(--muted)}
        .records .message{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-word}.records .origin{color:var(--muted)}
        .records tr.error td:nth-child(2){color:var(--error);font-weight:600}.records tr.fault td:nth-child(2){color:var(--fault);font-weight:600}
        .records tr.signpost td:nth-child(2){color:var(--interval)}.records tr.selected{background:#fff3e0}
        """
}
