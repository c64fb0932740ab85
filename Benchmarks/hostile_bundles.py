#!/usr/bin/env python3
"""Writes the hostile bundles of issue 13, one file (or folder) per case, as a stranger could.

Usage: hostile_bundles.py OUTPUT_FOLDER [--small] [--only NAME,NAME…]

Each case is what a bundle's author controls: the tar stream (names, types, order, sizes), the
manifest, Info.json and the SQLite chunks. Python's standard library only (tarfile, sqlite3,
gzip, hashlib, json), so that the bytes come from outside diag's own writer. `--small` keeps
every archive under a few hundred kilobytes, for the fuzzer's seeds (Fuzz/Bundle/corpus): the
fuzzer runs with small extraction limits, so the bombs and oversize entries need less to trip
them. The good chunk and the version-1 chunk are Fuzz/Chunk/corpus's (written by this store).

Prints one line per case: NAME<TAB>EXPECTED<TAB>KIND<TAB>what it is, where EXPECTED is the exit
code both `diag verify` and `diag show` must end with, or VERIFY/SHOW when they differ (verify
checks a bundle against its manifest and the chunks' schema; a record over the value bound or an
Info.json that is no store's is found by reading, as show does), and KIND is `archive`, `folder`,
or `archive:ENV=VALUE` when the case is run with that environment (a lowered unpack bound).
Cases whose SQL would leave a mark if any of it ran write MARKER into their rows.
"""
import gzip
import hashlib
import io
import json
import os
import sqlite3
import sys
import tarfile
import zlib

MARKER = "BUNDLE-SQL-WAS-EVALUATED"
TOP = "diagnose_hostile"
STORE = "system_logs.logarchive"
CHUNK = f"{STORE}/Persist/0000000000000001.chunk.sqlite"
HERE = os.path.dirname(os.path.abspath(__file__))
CHUNK_SEEDS = os.path.join(HERE, "..", "Fuzz", "Chunk", "corpus")

RECORDS_TABLE = """CREATE TABLE records (
  id INTEGER PRIMARY KEY, timestamp INTEGER NOT NULL, receiptTime INTEGER,
  messageType INTEGER NOT NULL, eventType INTEGER NOT NULL,
  process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER,
  sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT,
  threadID INTEGER, activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER,
  eventMessage TEXT NOT NULL, formatString TEXT,
  signpostID INTEGER, signpostName TEXT, signpostType TEXT,
  metadata TEXT,
  signpostScope TEXT
)"""
VERSION1_TABLE = """CREATE TABLE log (time REAL NOT NULL, level TEXT NOT NULL, proc TEXT, pid INTEGER,
  sender TEXT, subsystem TEXT, category TEXT, tid INTEGER, activity INTEGER, msg TEXT)"""
VERSION1_ROW = ("INSERT INTO log VALUES (1764409201.5, 'error', 'transport', 42, 'Sender', 'com.example', 'net', 7, 3, "
                "'upload failed');")
# Every column the view must have to pass for the records table.
VIEW_COLUMNS = ("i AS id, 1764409201000000000 + i AS timestamp, NULL AS receiptTime, 0 AS messageType, 1024 AS eventType, "
                "'viewer' AS process, 1 AS processID, NULL AS processImagePath, 0 AS userID, NULL AS sender, "
                "NULL AS senderImagePath, NULL AS subsystem, NULL AS category, 1 AS threadID, 0 AS activityIdentifier, "
                "0 AS parentActivityIdentifier, 0 AS traceID, {message} AS eventMessage, NULL AS formatString, "
                "NULL AS signpostID, NULL AS signpostName, NULL AS signpostType, NULL AS metadata, NULL AS signpostScope")


def chunk_from_sql(sql, parameters=()):
    """The bytes of a fresh SQLite file after running `sql` (and one statement with parameters)."""
    path = os.path.join(OUTPUT, ".chunk-under-construction.sqlite")
    if os.path.exists(path):
        os.remove(path)
    database = sqlite3.connect(path)
    database.executescript(sql)
    for statement, values in parameters:
        database.execute(statement, values)
    database.commit()
    database.close()
    with open(path, "rb") as file:
        data = file.read()
    os.remove(path)
    return data


def seed_chunk(name):
    with open(os.path.join(CHUNK_SEEDS, name), "rb") as file:
        return file.read()


def info_json(version=2):
    return json.dumps({"formatVersion": version, "identifier": "7C1D4F0E-0000-4000-8000-000000000002"}).encode()


def bundle_files(chunk=None, info=None):
    """The files every bundle has, by path relative to the top folder."""
    return [
        (f"{STORE}/Info.json", info if info is not None else info_json()),
        (CHUNK, chunk if chunk is not None else seed_chunk("current.chunk.sqlite")),
        ("summaries/stats.json", b"{}"),
        ("summaries/errors.txt", b"no errors\n"),
        ("report.html", b"<!DOCTYPE html><title>r</title>"),
    ]


def manifest(files, extra_listed=(), title=None):
    listed = [{"path": path, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()} for path, data in files]
    listed += [{"path": path, "size": size, "sha256": "0" * 64} for path, size in extra_listed]
    object = {"formatVersion": 1, "kind": "collect", "toolVersion": "hostile", "host": "elsewhere", "kernel": "Linux",
              "createdNanoseconds": 1764409200000000000, "files": listed}
    if title is not None:
        object["title"] = title
    return json.dumps(object, separators=(",", ":")).encode()


class Tar:
    """A PAX tar stream written entry by entry, gzip-compressed, with nothing checked."""

    def __init__(self, name):
        self.path = os.path.join(OUTPUT, name)
        self.out = gzip.GzipFile(self.path, "wb", compresslevel=6, mtime=1764409200)

    def header(self, name, kind=tarfile.REGTYPE, size=0, link="", mode=0o644, device=(0, 0)):
        info = tarfile.TarInfo(name)
        info.type, info.size, info.linkname, info.mode, info.mtime = kind, size, link, mode, 1764409200
        info.devmajor, info.devminor = device
        self.out.write(info.tobuf(format=tarfile.PAX_FORMAT, encoding="utf-8", errors="surrogateescape"))

    def file(self, name, data):
        self.header(name, size=len(data))
        self.out.write(data)
        self.out.write(b"\0" * (-len(data) % 512))

    def zeros(self, name, size):
        """A file of `size` zero bytes, streamed: a decompression bomb."""
        self.header(name, size=size)
        block = b"\0" * (1 << 20)
        left = size + (-size % 512)
        while left > 0:
            self.out.write(block[:min(left, len(block))])
            left -= min(left, len(block))

    def bundle(self, files, manifest_first=False, **manifest_options):
        self.header(TOP + "/", kind=tarfile.DIRTYPE, mode=0o755)
        listing = manifest(files, **manifest_options)
        if manifest_first:
            self.file(f"{TOP}/manifest.json", listing)
        for path, data in files:
            self.file(f"{TOP}/{path}", data)
        if not manifest_first:
            self.file(f"{TOP}/manifest.json", listing)

    def close(self, end=True):
        if end:
            self.out.write(b"\0" * 1024)
        self.out.close()


CASES = []


def case(name, expected, what, kind="archive"):
    def register(build):
        CASES.append((name, expected, kind, what, build))
        return build
    return register


def archive(name, build):
    tar = Tar(name + ".tar.gz")
    end = build(tar)
    tar.close(end is not False)


@case("good", 0, "a small whole bundle: two records, every file listed")
def good(name):
    archive(name, lambda tar: tar.bundle(bundle_files()))


@case("dotdot-path", 65, "an entry whose path climbs out with '..'")
def dotdot(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.file(f"{TOP}/../../diag-hostile-escape", b"owned")
    archive(name, build)


@case("absolute-path", 65, "an entry with an absolute path")
def absolute(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.file("/tmp/diag-hostile-escape", b"owned")
    archive(name, build)


@case("symlink", 65, "a symbolic link to /etc")
def symlink(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.header(f"{TOP}/link", kind=tarfile.SYMTYPE, link="/etc", mode=0o777)
    archive(name, build)


@case("hardlink", 65, "a hard link to etc/passwd")
def hardlink(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.header(f"{TOP}/hard", kind=tarfile.LNKTYPE, link="etc/passwd")
    archive(name, build)


@case("device", 65, "a character device (1, 3: /dev/null)")
def device(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.header(f"{TOP}/null", kind=tarfile.CHRTYPE, mode=0o666, device=(1, 3))
    archive(name, build)


@case("fifo-entry", 65, "a FIFO entry")
def fifo_entry(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.header(f"{TOP}/pipe", kind=tarfile.FIFOTYPE)
    archive(name, build)


@case("duplicate-entry", 65, "summaries/errors.txt twice, the second after the manifest")
def duplicate(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.file(f"{TOP}/summaries/errors.txt", b"replaced")
    archive(name, build)


@case("unlisted-entry", 65, "a file the manifest (written last) does not list")
def unlisted(name):
    def build(tar):
        tar.file(f"{TOP}/smuggled.txt", b"not in the manifest")
        tar.bundle(bundle_files())
    archive(name, build)


@case("unlisted-bomb", 65, "the manifest first, then an unlisted entry of zeros (1 GiB; 2 MiB with --small)")
def unlisted_bomb(name):
    def build(tar):
        tar.bundle(bundle_files(), manifest_first=True)
        tar.zeros(f"{TOP}/zeros.bin", (2 << 20) if SMALL else (1 << 30))
    archive(name, build)


@case("larger-than-listed", 65, "the manifest first, then an entry far larger than it lists (zeros)")
def larger(name):
    def build(tar):
        files = bundle_files()
        listing = manifest(files)
        tar.header(TOP + "/", kind=tarfile.DIRTYPE, mode=0o755)
        tar.file(f"{TOP}/manifest.json", listing)
        for path, data in files:
            if path == "summaries/errors.txt":
                tar.zeros(f"{TOP}/{path}", (2 << 20) if SMALL else (256 << 20))
            else:
                tar.file(f"{TOP}/{path}", data)
    archive(name, build)


@case("oversize-header", 65, "an entry whose header claims 20 GiB (over the 16 GiB bound), the stream cut after it")
def oversize_header(name):
    def build(tar):
        tar.header(f"{TOP}/huge.bin", size=20 << 30)
        tar.out.write(b"\0" * 4096)
        return False
    archive(name, build)


@case("oversize-entry", 65, "a 2 MiB entry before the manifest: over the fuzzer's 1 MiB bound on an entry, and the run's 1 MiB on the unpack", kind="archive:DIAG_UNPACK_LIMIT=1M")
def oversize_entry(name):
    def build(tar):
        tar.zeros(f"{TOP}/huge.bin", 2 << 20)
        tar.bundle(bundle_files())
    archive(name, build)


@case("total-bomb", 65, "zeros before the manifest past the whole unpack's bound (run with it at 64 MiB)",
      kind="archive:DIAG_UNPACK_LIMIT=64M")
def total_bomb(name):
    def build(tar):
        tar.zeros(f"{TOP}/zeros.bin", (5 << 20) if SMALL else (96 << 20))
        tar.bundle(bundle_files())
    archive(name, build)


@case("huge-manifest", 65, "a manifest over its 16 MiB bound (a 17 MiB title)")
def huge_manifest(name):
    archive(name, lambda tar: tar.bundle(bundle_files(), title="t" * (17 << 20)))


@case("many-listed", 65, "a manifest under its bound listing many missing files (140,000; 2,000 with --small)")
def many_listed(name):
    count = 2_000 if SMALL else 140_000
    archive(name, lambda tar: tar.bundle(bundle_files(), extra_listed=[(f"m/{index}", 1) for index in range(count)]))


@case("trigger-version1", 65, "a version-1 chunk with a trigger that would fill the cache on migration")
def trigger_version1(name):
    chunk = chunk_from_sql(f"""{VERSION1_TABLE};
        CREATE TABLE evidence (blob BLOB);
        CREATE TRIGGER planted AFTER DELETE ON log BEGIN
          INSERT INTO log (time, level, msg) VALUES (1764409300, 'fault', '{MARKER}');
          INSERT INTO evidence WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT randomblob(4096) FROM n;
        END;
        {VERSION1_ROW}
        PRAGMA user_version = 1;""")
    archive(name, lambda tar: tar.bundle(bundle_files(chunk, info_json(1))))


@case("trigger-current", 65, "a current chunk with a trigger on records")
def trigger_current(name):
    chunk = chunk_from_sql(f"""{RECORDS_TABLE};
        CREATE TRIGGER planted AFTER INSERT ON records BEGIN
          INSERT INTO records (timestamp, messageType, eventType, eventMessage) VALUES (1, 0, 1024, '{MARKER}');
        END;
        PRAGMA user_version = 3;""")
    archive(name, lambda tar: tar.bundle(bundle_files(chunk)))


@case("view-recursive", 65, "records as a view over an endless recursive CTE")
def view_recursive(name):
    columns = VIEW_COLUMNS.format(message=f"'{MARKER}'")
    chunk = chunk_from_sql(f"""CREATE VIEW records AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
        SELECT {columns} FROM n ORDER BY eventMessage;
        PRAGMA user_version = 3;""")
    archive(name, lambda tar: tar.bundle(bundle_files(chunk)))


@case("view-huge-value", 65, "records as a view returning one 900 MB message")
def view_huge(name):
    columns = VIEW_COLUMNS.format(message=f"'{MARKER}' || hex(zeroblob(450000000))")
    chunk = chunk_from_sql(f"""CREATE VIEW records AS WITH n(i) AS (SELECT 1) SELECT {columns} FROM n;
        PRAGMA user_version = 3;""")
    archive(name, lambda tar: tar.bundle(bundle_files(chunk)))


@case("version1-chunk", 0, "a version-1 chunk (Info.json formatVersion 1): copied into a fresh chunk, then read")
def version1(name):
    archive(name, lambda tar: tar.bundle(bundle_files(seed_chunk("version1.chunk.sqlite"), info_json(1))))


@case("index-on-expression", 65, "a current chunk with an index on an expression")
def expression_index(name):
    chunk = chunk_from_sql(f"""{RECORDS_TABLE};
        CREATE INDEX records_timestamp ON records(timestamp * 2);
        PRAGMA user_version = 3;""")
    archive(name, lambda tar: tar.bundle(bundle_files(chunk)))


@case("value-over-bound", "0/65", "a record whose message is one byte over the store's 16 MiB value bound")
def value_over_bound(name):
    size = (16 << 20) + 1
    chunk = chunk_from_sql(f"{RECORDS_TABLE}; PRAGMA user_version = 3;", [(
        "INSERT INTO records (timestamp, messageType, eventType, eventMessage) VALUES (1764409201000000000, 0, 1024, ?)",
        ("a" * size,))])
    archive(name, lambda tar: tar.bundle(bundle_files(chunk)))


@case("wal-beside-chunk", 65, "a -wal file beside the chunk, listed in the manifest")
def wal(name):
    files = bundle_files() + [(CHUNK + "-wal", b"\0" * 32)]
    archive(name, lambda tar: tar.bundle(files))


@case("huge-info", 65, "Info.json over its 16 MiB bound")
def huge_info(name):
    info = json.dumps({"formatVersion": 2, "identifier": "x", "padding": "p" * (17 << 20)}).encode()
    archive(name, lambda tar: tar.bundle(bundle_files(info=info)))


@case("many-chunks-info", 65, "Info.json under the store's 16 MiB bound, over a bundle's 4 MiB: 125,000 chunks listed")
def many_chunks_info(name):
    archive(name, lambda tar: tar.bundle(bundle_files(info=info_listing_chunks(125_000))))


@case("listed-chunks-info", 0, "Info.json just under a bundle's 4 MiB bound: 30,000 chunks listed (1,000 with --small), one there")
def listed_chunks_info(name):
    archive(name, lambda tar: tar.bundle(bundle_files(info=info_listing_chunks(1_000 if SMALL else 30_000))))


def info_listing_chunks(count):
    chunks = [{"file": f"{index + 2:016d}.chunk.sqlite", "sequence": index + 2, "sealed": True, "recordCount": 1,
               "byteCount": 1, "searchIndex": False} for index in range(count)]
    return json.dumps({"formatVersion": 3, "identifier": "7C1D4F0E-0000-4000-8000-000000000002", "chunks": chunks}).encode()


@case("nested-info", 65, "Info.json nested 100,000 arrays deep")
def nested_info(name):
    archive(name, lambda tar: tar.bundle(bundle_files(info=b"[" * 100_000 + b"]" * 100_000)))


@case("control-names", 65, "entry names with terminal escapes (retitle, clear screen) and C1 bytes")
def control_names(name):
    def build(tar):
        tar.bundle(bundle_files())
        tar.file(f"{TOP}/\x1b]0;pwned\x07\x1b[2J\x1b[1;31mFORGED\u009b31m\x7f.txt", b"x")
    archive(name, build)


@case("control-records", 0, "records whose text carries terminal escapes (show must print them escaped)")
def control_records(name):
    rows = [(
        "INSERT INTO records (timestamp, messageType, eventType, process, subsystem, eventMessage) VALUES (?, 16, 1024, ?, ?, ?)",
        (1764409201000000000 + index, "evil\x1b]0;pwned\x07", "com.example\x1b[2J", message))
        for index, message in enumerate(["\x1b]0;retitled\x07\x1b[2J\x1b[Hforged line", "bell\x07 del\x7f c1\u009b31m nul-free"])]
    chunk = chunk_from_sql(f"{RECORDS_TABLE}; PRAGMA user_version = 3;", rows)
    archive(name, lambda tar: tar.bundle(bundle_files(chunk)))


@case("no-manifest", 65, "a tar of one text file, no manifest")
def no_manifest(name):
    archive(name, lambda tar: tar.file("readme.txt", b"hello"))


@case("truncated-stream", 65, "the good bundle cut in half")
def truncated(name):
    good(name + ".source")
    source = os.path.join(OUTPUT, name + ".source.tar.gz")
    with open(source, "rb") as file:
        data = file.read()
    os.remove(source)
    with open(os.path.join(OUTPUT, name + ".tar.gz"), "wb") as file:
        file.write(data[:len(data) // 2])


@case("corrupt-stream", 65, "the good bundle with 64 bytes flipped in the middle of its gzip stream")
def corrupt(name):
    good(name + ".source")
    source = os.path.join(OUTPUT, name + ".source.tar.gz")
    with open(source, "rb") as file:
        data = bytearray(file.read())
    os.remove(source)
    middle = len(data) // 2
    for offset in range(middle, min(middle + 64, len(data))):
        data[offset] ^= 0xA5
    with open(os.path.join(OUTPUT, name + ".tar.gz"), "wb") as file:
        file.write(bytes(data))


@case("random-bytes", 65, "64 KiB of pseudo-random bytes")
def random_bytes(name):
    state, out = 0x9E3779B97F4A7C15, bytearray()
    for _ in range(65536):
        state = (state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        out.append((state >> 33) & 0xFF)
    with open(os.path.join(OUTPUT, name + ".tar.gz"), "wb") as file:
        file.write(bytes(out))


@case("folder-fifo", 65, "an unpacked bundle folder holding a FIFO (as GNU tar recreates it)", kind="folder")
def folder_fifo(name):
    top = os.path.join(OUTPUT, name, TOP)
    files = bundle_files()
    for path, data in files + [("manifest.json", manifest(files))]:
        os.makedirs(os.path.dirname(os.path.join(top, path)), exist_ok=True)
        with open(os.path.join(top, path), "wb") as file:
            file.write(data)
    os.mkfifo(os.path.join(top, "summaries", "pipe"))


def main():
    global OUTPUT, SMALL
    arguments, only = sys.argv[1:], None
    if "--only" in arguments:
        at = arguments.index("--only")
        only = set(arguments[at + 1].split(",")) if at + 1 < len(arguments) else set()
        del arguments[at:at + 2]
    SMALL = "--small" in arguments
    arguments = [argument for argument in arguments if argument != "--small"]
    if len(arguments) != 1 or (only is not None and not only <= {name for name, *_ in CASES}):
        sys.exit(__doc__ + "\ncases: " + " ".join(name for name, *_ in CASES))
    OUTPUT = arguments[0]
    os.makedirs(OUTPUT, exist_ok=True)
    for name, expected, kind, what, build in CASES:
        if (only is not None and name not in only) or (SMALL and kind == "folder"):
            continue
        build(name)
        print(f"{name}\t{expected}\t{kind}\t{what}")


main()
