// The DiagForward target (forwarding to rsyslog and OTLP, diag export); its owners fill it in.
