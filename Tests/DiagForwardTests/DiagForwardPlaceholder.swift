// DiagForwardTests; the forwarding owners fill them in.
