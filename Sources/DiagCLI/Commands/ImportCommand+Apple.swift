import DiagAppleLog
import DiagCommandLine
import DiagModel
import DiagStore

extension ImportCommand {
    /// Imports Apple's unified logs (a tracev3 file or a .logarchive folder) one tracev3 file at
    /// a time. A damaged file is reported, counted as failed, and the import goes on.
    func importAppleLogs(_ path: String, into logStore: LogStore, tally: inout ImportTally, progress: ImportProgress) throws {
        let archive: AppleLogArchive
        do {
            archive = try AppleLogArchive(path: path)
        } catch {
            StandardStream.error.write("Error: \(error.message)\n")
            tally.failedFiles += 1
            if error.isUnreadable { tally.unreadable = true }
            return
        }
        for file in archive.groups.joined() {
            let records: [LogRecord]
            do {
                records = try archive.records(ofFile: file)
            } catch {
                progress.clear()
                StandardStream.error.write("Error: \(error.message)\n")
                tally.failedFiles += 1
                if error.isUnreadable { tally.unreadable = true }
                continue
            }
            do {
                var start = 0
                while start < records.count {
                    let end = min(start + Self.batchSize, records.count)
                    try logStore.append(Array(records[start..<end]))
                    tally.records += end - start
                    start = end
                    progress.update(file: file, records: start)
                }
            } catch let error as StoreError {
                progress.clear()
                throw RuntimeError(error.description)
            }
            progress.clear()
            tally.files += 1
        }
    }
}
