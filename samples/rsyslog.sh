#!/usr/bin/env bash
# A private rsyslogd receiving RFC 5424 over TCP (imtcp) on a loopback port, writing each
# message as received to DIR/messages, for trying `diagd --forward`:
#   bash samples/rsyslog.sh start DIR [PORT]    # then: diagd --forward rfc5424+tcp://127.0.0.1:PORT
#   bash samples/rsyslog.sh stop DIR
set -euo pipefail
command=${1:?usage: rsyslog.sh start DIR [PORT] | stop DIR}
dir=${2:?usage: rsyslog.sh start DIR [PORT] | stop DIR}
[ -x /usr/sbin/rsyslogd ] || { echo "rsyslog.sh: /usr/sbin/rsyslogd is missing (make setup installs rsyslog)" >&2; exit 1; }
case "$command" in
start)
    port=${3:-5514}
    mkdir -p "$dir/work"
    dir=$(cd "$dir" && pwd)
    cat >"$dir/rsyslog.conf" <<CONF
global(workDirectory="$dir/work")
module(load="imtcp")
input(type="imtcp" port="$port" address="127.0.0.1")
template(name="received" type="string" string="%timestamp:::date-rfc3339% %hostname% %app-name%[%procid%] %msgid% %structured-data% %msg%\n")
action(type="omfile" file="$dir/messages" template="received")
CONF
    /usr/sbin/rsyslogd -f "$dir/rsyslog.conf" -i "$dir/rsyslogd.pid"
    for _ in $(seq 50); do (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && exit 0; sleep 0.1; done
    echo "rsyslog.sh: rsyslogd did not listen on 127.0.0.1:$port (see its messages above)" >&2; exit 1
    ;;
stop)
    kill "$(cat "$dir/rsyslogd.pid")"
    ;;
*)
    echo "rsyslog.sh: unknown command '$command'; accepted: start, stop" >&2; exit 64 ;;
esac
