import DiagModel

/// Exports and imports: the operations that cross all four components.
extension RecordGenerator {
    /// The scheduler decides, the sync core exports a store's history in batches, the transport
    /// uploads them to the container (sometimes throttled or failing), the core records the result.
    mutating func makeExport() {
        let store = random.pick(stores)
        let activityName = "com.example.sync.activity.export.\(store)"
        let scheduling = newActivity()
        let activity = newActivity()
        let changes = random.between(1, 400)
        let batches = (changes + 99) / 100
        let score = random.between(35, 99)
        let decision = score >= 50 ? "run" : "defer"
        log(scheduler, nil, "activity", .info,
            "Evaluating \(activityName): score 0.\(score) (battery 0.\(random.between(20, 99)), network 0.\(random.between(40, 99)), thermal 0.\(random.between(60, 99))) → \(decision)",
            activity: scheduling, format: "Evaluating %{public}@: score %.2f (battery %.2f, network %.2f, thermal %.2f) → %{public}@",
            metadata: ["activity": .string(activityName), "score": .double(Double(score) / 100)])
        guard decision == "run" else {
            log(scheduler, nil, "policy", .default,
                "Deferring \(activityName) for \(random.between(1, 30)) min: score 0.\(score) is below the threshold 0.50",
                activity: scheduling)
            return
        }
        log(scheduler, nil, "activity", .default, "export", activity: activity, parent: scheduling, event: .activityCreateEvent)
        log(core, .coreData, "export", .default,
            "Exporting \(changes) changes from store \(store) (history token \(random.between(1000, 999_999)))",
            activity: activity, parent: scheduling, format: "Exporting %d changes from store %{public}@ (history token %llu)",
            metadata: ["storeIdentifier": .string(store), "changes": .int(Int64(changes))])
        log(core, .cloudKit, "export", .debug,
            "Built \(batches) \(batches == 1 ? "batch" : "batches") for zone com.example.coredata.zone in \(Self.container): \(changes) records, \(changes * random.between(180, 900)) bytes",
            activity: activity, parent: scheduling)
        if random.chance(0.05) { logNoteTitle(activity: activity, store: store) }
        let trace = Int64(bitPattern: random.next() >> 1)
        for batch in 1...batches {
            let size = batch < batches ? 100 : changes - (batches - 1) * 100
            log(transport, nil, "upload", .info,
                "Sending batch \(batch)/\(batches) (\(size) records, \(size * random.between(200, 1200)) bytes) to container \(Self.container)",
                activity: activity, parent: scheduling, trace: trace,
                metadata: ["container": .string(Self.container), "batch": .int(Int64(batch))])
            if random.chance(0.06) {
                logUploadFailure(batch: batch, of: batches, activity: activity, parent: scheduling, trace: trace)
            } else {
                log(transport, nil, "upload", .debug,
                    "Batch \(batch)/\(batches) completed in \(random.between(40, 2400)) ms (HTTP 200, request \(Self.uuid(&random)))",
                    activity: activity, parent: scheduling, trace: trace)
            }
        }
        if random.chance(0.01) { logLongPayload(activity: activity, store: store) }
        log(core, .coreData, "export", .default,
            "Export of store \(store) finished: \(changes) changes in \(batches) \(batches == 1 ? "batch" : "batches") (\(random.between(80, 9000)) ms)",
            activity: activity, parent: scheduling, metadata: ["storeIdentifier": .string(store)])
    }

    private mutating func logUploadFailure(batch: Int, of batches: Int, activity: Int64, parent: Int64, trace: Int64) {
        let failures = [
            ("RequestRateLimited", 7), ("NetworkUnavailable", 3), ("ZoneBusy", 23), ("ServerRecordChanged", 14), ("QuotaExceeded", 25),
        ]
        let (name, code) = random.pick(failures)
        let retry = random.between(1, 60)
        log(transport, nil, "upload", .error,
            "Batch \(batch)/\(batches) failed: CKError \(code) (\(name)); retry after \(retry).0 s",
            activity: activity, parent: parent, trace: trace, metadata: ["errorCode": .int(Int64(code))])
        if name == "RequestRateLimited" || name == "ZoneBusy" {
            log(transport, nil, "throttle", .default,
                "Throttling container \(Self.container) for \(retry) s (\(random.between(2, 9)) operations waiting)",
                activity: activity, parent: parent)
        }
    }

    /// A push arrives, the notifier hands it over, the core fetches and imports the changes.
    mutating func makeImport() {
        let store = random.pick(stores)
        let activity = newActivity()
        let changes = random.between(1, 250)
        let inserts = random.between(0, changes)
        let updates = random.between(0, changes - inserts)
        log(notifier, nil, "push", .info,
            "Received push for topic \(Self.pushTopic) (priority \(random.chance(0.7) ? 10 : 5), \(random.between(120, 4000)) bytes)",
            activity: activity)
        log(notifier, nil, "push", .debug,
            "Delivering push to sync-core (token \(Self.uuid(&random).prefix(13))…)", activity: activity)
        log(core, .cloudKit, "import", .default,
            "Fetching changes for zone com.example.coredata.zone in \(Self.container) (server change token \(random.between(10000, 99_999_999)))",
            activity: activity)
        log(transport, nil, "download", .info,
            "Fetched \(changes) record changes (more coming: \(random.chance(0.1))) in \(random.between(30, 1800)) ms",
            activity: activity, metadata: ["container": .string(Self.container)])
        if random.chance(0.004) {
            log(core, .coreData, "import", .fault,
                "Merge conflict could not be resolved for object 0x\(String(random.next() & 0xFFFF_FFFF, radix: 16)) in store \(store): constraint violation on Note.title",
                activity: activity, metadata: ["storeIdentifier": .string(store)])
        }
        if random.chance(0.05) { logNoteTitle(activity: activity, store: store) }
        log(core, .coreData, "import", .default,
            "Imported \(changes) changes into store \(store): \(inserts) inserts, \(updates) updates, \(changes - inserts - updates) deletes",
            activity: activity, format: "Imported %d changes into store %{public}@: %d inserts, %d updates, %d deletes",
            metadata: ["storeIdentifier": .string(store), "changes": .int(Int64(changes))])
    }

    private mutating func logNoteTitle(activity: Int64, store: String) {
        let titles = [
            "Café au lait", "Straße der Einheit", "Grüße aus Köln", "東京の会議メモ", "Reunión de equipo", "🎉 Launch party",
            "Zoë's notes", "Smørrebrød recipe", "naïve résumé", "Ελληνικά μαθήματα", "Привет, мир", "📦 Shipping list 🚚",
        ]
        log(core, .coreData, "store", .info,
            "Synced note '\(random.pick(titles))' (\(random.between(10, 9000)) characters) in store \(store)",
            activity: activity, metadata: ["storeIdentifier": .string(store)])
    }

    /// About one export in a hundred dumps a record payload: the long lines real logs have.
    private mutating func logLongPayload(activity: Int64, store: String) {
        var fields: [String] = []
        for index in 0..<random.between(8, 40) {
            fields.append("\"field\(index)\": \"\(Self.uuid(&random))\"")
        }
        log(core, .cloudKit, "export", .debug,
            "Record payload for store \(store): {\(fields.joined(separator: ", "))}", activity: activity)
    }
}
