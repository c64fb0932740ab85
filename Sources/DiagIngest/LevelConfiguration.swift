import DiagModel
import DiagProtocol
import Foundation
import Synchronization

/// Where each record goes, by its level and its subsystem's (or category's) mode.
enum RecordDestination {
    case dropped
    case ringOnly
    case persisted
}

/// The level settings in force, read on every batch by the connection threads and changed at
/// run time by `config` requests; kept in `levels.json` in the store so they survive restarts.
final class LevelConfiguration: Sendable {
    /// An immutable view of the settings, swapped whole when one changes.
    struct Snapshot: Sendable {
        var global: LevelMode
        var subsystems: [String: LevelMode] = [:]
        var categories: [String: [String: LevelMode]] = [:]
        var isDefault: Bool { subsystems.isEmpty && categories.isEmpty && global == .systemDefault }

        func destination(of record: LogRecord) -> RecordDestination {
            destination(messageType: record.messageType, subsystem: { record.subsystem }, category: { record.category })
        }

        /// The same for a record not made into a `LogRecord`; its subsystem and category are
        /// asked for only when some setting names one.
        func destination(
            messageType: MessageType, subsystem: () -> String?, category: () -> String?
        ) -> RecordDestination {
            let severity = messageType.severity
            if isDefault {
                return severity >= MessageType.info.severity ? .persisted : .ringOnly
            }
            var enabled = global.enabled ?? .debug
            var persisted = global.persisted ?? .info
            if !subsystems.isEmpty || !categories.isEmpty, let subsystem = subsystem() {
                if let mode = subsystems[subsystem] {
                    enabled = mode.enabled ?? enabled
                    persisted = mode.persisted ?? persisted
                }
                if let forSubsystem = categories[subsystem], let category = category(), let mode = forSubsystem[category] {
                    enabled = mode.enabled ?? enabled
                    persisted = mode.persisted ?? persisted
                }
            }
            if severity < enabled.severity { return .dropped }
            return severity < persisted.severity ? .ringOnly : .persisted
        }

        var settings: [LevelSetting] {
            var list = [LevelSetting(subsystem: nil, category: nil, mode: global)]
            for (subsystem, mode) in subsystems.sorted(by: { $0.key < $1.key }) {
                list.append(LevelSetting(subsystem: subsystem, category: nil, mode: mode))
            }
            for (subsystem, byCategory) in categories.sorted(by: { $0.key < $1.key }) {
                for (category, mode) in byCategory.sorted(by: { $0.key < $1.key }) {
                    list.append(LevelSetting(subsystem: subsystem, category: category, mode: mode))
                }
            }
            return list
        }

        mutating func apply(_ setting: LevelSetting) {
            switch (setting.subsystem, setting.category) {
            case (nil, _):
                global.enabled = setting.mode.enabled ?? global.enabled
                global.persisted = setting.mode.persisted ?? global.persisted
            case (let subsystem?, nil):
                var mode = subsystems[subsystem] ?? LevelMode()
                mode.enabled = setting.mode.enabled ?? mode.enabled
                mode.persisted = setting.mode.persisted ?? mode.persisted
                subsystems[subsystem] = mode
            case (let subsystem?, let category?):
                var mode = categories[subsystem]?[category] ?? LevelMode()
                mode.enabled = setting.mode.enabled ?? mode.enabled
                mode.persisted = setting.mode.persisted ?? mode.persisted
                categories[subsystem, default: [:]][category] = mode
            }
        }
    }

    let fileURL: URL
    private let state: Mutex<Snapshot>

    /// Loads `levels.json` from the store directory, if there is one.
    init(storeDirectory: String) throws(IngestError) {
        fileURL = URL(fileURLWithPath: storeDirectory).appendingPathComponent("levels.json")
        var snapshot = Snapshot(global: .systemDefault)
        if let data = FileManager.default.contents(atPath: fileURL.path) {
            do {
                let root = try JSONReader.parseObject(Array(data))
                guard case .array(let entries)? = root["settings"] else {
                    throw IngestError("\(fileURL.path): expected {\"settings\": [...]}")
                }
                for (index, entry) in entries.enumerated() {
                    do {
                        snapshot.apply(try LevelSetting(json: entry))
                    } catch {
                        throw IngestError("\(fileURL.path): setting \(index + 1): \(error.description)")
                    }
                }
            } catch let error as JSONReaderError {
                throw IngestError("\(fileURL.path): \(error.description)")
            } catch let error as IngestError {
                throw error
            } catch {
                throw IngestError("\(fileURL.path): \(error)")
            }
        }
        state = Mutex(snapshot)
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    /// Applies a setting, writes the file (atomically), and returns every setting now in force.
    /// The longest subsystem or category name kept (reverse-DNS names are a few dozen bytes),
    /// and the most settings: each one is part of every `diag config` reply, which must stay
    /// far under the reply cap, so that no client can make the settings unlistable.
    static let maximumNameBytes = 256
    static let maximumSettings = 1_000

    func apply(_ setting: LevelSetting) throws(IngestError) -> [LevelSetting] {
        for (label, name) in [("subsystem", setting.subsystem), ("category", setting.category)] {
            if let name, name.utf8.count > Self.maximumNameBytes {
                throw IngestError("the \(label) name is \(name.utf8.count) bytes; at most \(Self.maximumNameBytes) are accepted")
            }
        }
        return try change { (updated: inout Snapshot, current: Snapshot) throws(IngestError) in
            updated.apply(setting)
            guard updated.settings.count <= Self.maximumSettings || updated.settings.count <= current.settings.count else {
                throw IngestError("diagd keeps at most \(Self.maximumSettings) level settings; change an existing one instead")
            }
        }
    }

    /// Removes a setting (or every one), writes the file, and returns every setting now in force.
    func reset(_ reset: LevelReset) throws(IngestError) -> [LevelSetting] {
        try change { (updated: inout Snapshot, _: Snapshot) throws(IngestError) in updated.remove(reset) }
    }

    /// Applies `edit` to a copy of the settings, writes it, then makes it the one in force.
    private func change(_ edit: (inout Snapshot, Snapshot) throws(IngestError) -> Void) throws(IngestError) -> [LevelSetting] {
        // The file is written under the lock so two concurrent changes cannot land out of order.
        return try state.withLock { (current: inout Snapshot) throws(IngestError) -> [LevelSetting] in
            var updated = current
            try edit(&updated, current)
            var writer = JSONWriter()
            writer.append(.object(["settings": .array(updated.settings.map(\.json))]))
            writer.bytes.append(UInt8(ascii: "\n"))
            do {
                try Data(writer.bytes).write(to: fileURL, options: .atomic)
            } catch {
                throw IngestError("cannot write \(fileURL.path): \(error.localizedDescription)")
            }
            current = updated
            return updated.settings
        }
    }
}
