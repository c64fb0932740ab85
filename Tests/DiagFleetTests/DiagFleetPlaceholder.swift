// DiagFleetTests; the fleet owner fills them in.
