"""Prints every record UnifiedLogReader (PyPI package `unifiedlog`, by Yogesh Khatri) reads
from a tracev3 file, one JSON object a line, with its raw fields: the reference that
ReferenceReaderTests compares DiagAppleLog with. Run by that test from a private venv.

usage: unifiedlog_records.py READER_SCRIPT UUIDTEXT_FOLDER TIMESYNC_FOLDER TRACEV3_FILE

READER_SCRIPT is the package's UnifiedLogReader.py (installed in the venv's bin folder): its
UnifiedLogReader class reads the files; only the output writer is ours, so that times stay
integers (nanoseconds) instead of the package's formatted dates.
"""
import importlib.util
import json
import sys

FIELDS = ['SourceFile', 'LogFilePos', 'ContinuousTime', 'Time', 'ThreadId', 'LogType',
          'ActivityId', 'ParentActivityId', 'PID', 'EUID', 'TTL', 'ProcessName', 'SenderName',
          'Subsystem', 'Category', 'SignpostName', 'SignpostString', 'ImageOffset', 'ImageUUID',
          'ProcessImageUUID', 'SenderImagePath', 'ProcessImagePath', 'LogMessage']


PLISTS = {}


class JSONLinesWriter:
    """Takes the place of the package's file writer (same two methods)."""

    def __init__(self, out):
        self.out = out
        self.count = 0

    def WriteLogEntries(self, logs):
        for log in logs:
            self.WriteLogEntry(log)

    def WriteLogEntry(self, log):
        record = {}
        for name, value in zip(FIELDS, log):
            record[name] = value if isinstance(value, (int, str)) or value is None else str(value)
        if record.get('LogType') == 'State':
            _, _, data = record.get('LogMessage', '').partition('\n')
            plist = PLISTS.get(data)
            if isinstance(plist, dict):
                record['StateKeys'] = sorted(str(key) for key in plist)
            elif isinstance(plist, str) and data:
                record['StateText'] = plist
        self.out.write(json.dumps(record, ensure_ascii=False) + '\n')
        self.count += 1


def main():
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__)
        return 64
    script, uuidtext, timesync, tracev3 = sys.argv[1:]
    spec = importlib.util.spec_from_file_location('UnifiedLogReaderScript', script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # The package's state-dump code catches `InvalidPlistException` without importing it, so a
    # plist that biplist refuses (on Python 3.9 and later its XML fallback fails) stops the whole
    # file with a NameError. Giving the module the name it meant keeps its own handling: the
    # record is kept with an empty message.
    import biplist
    from UnifiedLog import tracev3_file
    tracev3_file.InvalidPlistException = biplist.InvalidPlistException
    # A state dump's message is its name and str() of the plist the package read. The writer
    # also gives the top-level keys of a dictionary (str() of a dict is Python's, not JSON), so
    # the package's reading is watched, not changed: each result is kept by its str().
    read_plist = biplist.readPlistFromString

    def watched_read_plist(data):
        plist = read_plist(data)
        PLISTS[str(plist)] = plist
        return plist
    tracev3_file.biplist.readPlistFromString = watched_read_plist
    reader = module.UnifiedLogReader()
    reader.ReadDscFiles(uuidtext)
    if not reader.ReadTimesyncFolder(timesync):
        sys.stderr.write('no timesync records in %s\n' % timesync)
        return 1
    writer = JSONLinesWriter(sys.stdout)
    reader.ReadTraceV3Files(tracev3, writer)
    sys.stderr.write('%d records\n' % writer.count)
    return 0 if writer.count > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
