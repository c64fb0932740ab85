#!/usr/bin/env python3
"""Load client of Benchmarks/syslog-otlp.sh (standard library only).

  syslog_sender.py syslog SOCKET COUNT            RFC 3164 datagrams, as glibc's syslog() sends them
  syslog_sender.py ndjson SOCKET COUNT            the same records as NDJSON lines on diagd's socket, then a sync
  syslog_sender.py wait-diagd SOCKET COUNT        waits until diagd has read COUNT syslog datagrams
                                                  (received + lost + invalid), then until they are committed (a sync)
  syslog_sender.py otlp HOST:PORT COUNT           the same records as OTLP/HTTP protobuf, batches of 512 (the SDKs'
                                                  batch size) on one keep-alive connection, each POST waiting for its
                                                  200 (diagd answers once committed), as an SDK's exporter thread does
Prints `sent=N seconds=S` (or `lost=N` for wait-diagd). A blocking socket: when the receiver's
queue is full the kernel makes the sender wait, as it does for syslog(3).
"""
import http.client, json, os, socket, struct, sys, time

def message(i):
    return "sync-core[%d]: Export batch %d of store 747A4381-44A2-45AD-A66B-ACB8E572F462 uploaded: 4 posts, 6 attachments" % (os.getpid(), i)

def send_syslog(path, count):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.connect(path)
    start = time.time()
    for i in range(count):
        s.send(("<14>Dec  1 20:00:00 " + message(i)).encode())
    print("sent=%d seconds=%.3f" % (count, time.time() - start))

def stream(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s, s.makefile("rb")

def reply(reader):
    line = reader.readline()
    if not line:
        sys.exit("diagd closed the connection")
    return json.loads(line)

def send_ndjson(path, count):
    s, reader = stream(path)
    start = time.time()
    batch = []
    for i in range(count):
        batch.append(json.dumps({"eventMessage": message(i), "messageType": "Info", "sender": "sync-core", "category": "user"}))
        if len(batch) == 1000:
            s.sendall(("\n".join(batch) + "\n").encode())
            batch = []
    s.sendall(("\n".join(batch) + "\n" if batch else "").encode() + b'{"sync":1}\n')
    while "synced" not in reply(reader):
        pass
    print("sent=%d seconds=%.3f" % (count, time.time() - start))

def wait_diagd(path, count):
    while True:
        s, reader = stream(path)
        s.sendall(b'{"stats":true}\n')
        stats = reply(reader)["stats"]
        s.close()
        if stats["syslogReceived"] + stats["syslogInvalid"] >= count:
            break
        time.sleep(0.01)
    s, reader = stream(path)
    s.sendall(b'{"sync":1}\n')
    while "synced" not in reply(reader):
        pass
    print("lost=%d" % stats["syslogLost"])

def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)

def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload

def attribute(key, value):
    return field(1, key.encode()) + field(2, field(1, value.encode()))

RESOURCE = field(1, field(1, attribute("service.name", "sync-core")))
RECORD_TAIL = field(6, attribute("diag.sender", "sync-core")) + field(6, attribute("diag.category", "user"))

def log_record(i):
    # time_unix_nano (fixed64), severity_number INFO (9), body, attributes: the NDJSON records' fields.
    return b"\x09" + struct.pack("<Q", time.time_ns()) + b"\x10\x09" + field(5, field(1, message(i).encode())) + RECORD_TAIL

def send_otlp(address, count):
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port))
    start = time.time()
    for first in range(0, count, 512):
        scope = b"".join(field(2, log_record(i)) for i in range(first, min(first + 512, count)))
        body = field(1, RESOURCE + field(2, scope))
        connection.request("POST", "/v1/logs", body, {"Content-Type": "application/x-protobuf"})
        response = connection.getresponse()
        answer = response.read()
        if response.status != 200:
            sys.exit("diagd answered %d: %r" % (response.status, answer[:300]))
    print("sent=%d seconds=%.3f" % (count, time.time() - start))

mode, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
{"syslog": send_syslog, "ndjson": send_ndjson, "wait-diagd": wait_diagd, "otlp": send_otlp}[mode](path, count)
