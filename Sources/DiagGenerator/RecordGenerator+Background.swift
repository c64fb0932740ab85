import DiagModel

/// What the components log between operations: policy evaluations, connection state, HTTP
/// chatter and store housekeeping.
extension RecordGenerator {
    mutating func makeSchedulerEvaluation() {
        let activity = newActivity()
        let pendingCount = random.between(0, 12)
        log(scheduler, nil, "policy", .debug,
            "Queue has \(pendingCount) pending \(pendingCount == 1 ? "activity" : "activities"); next evaluation in \(random.between(1, 60)).0 s", activity: activity)
        if random.chance(0.3) {
            log(scheduler, nil, "policy", .info,
                "Thermal pressure state: \(random.between(0, 3)) Memory pressure state: \(random.between(0, 2)); battery \(random.between(5, 100))%",
                activity: activity)
        }
        if random.chance(0.02) {
            log(scheduler, nil, "activity", .error,
                "Activity com.example.sync.activity.export.\(random.pick(stores)) expired after \(random.between(60, 900)) s without running",
                activity: activity)
        }
    }

    mutating func makeTransportChatter() {
        let stream = random.between(1, 999)
        log(transport, nil, "http", .debug,
            "HTTP/2 stream \(stream) opened to gateway.example.com:443 for \(Self.container) (connection \(random.between(1, 8)))")
        if random.chance(0.5) {
            log(transport, nil, "http", .debug,
                "HTTP/2 stream \(stream) closed: \(random.between(200, 90000)) bytes received, status 200")
        }
        if random.chance(0.05) {
            log(transport, nil, "throttle", .default,
                "Server asked to back off for \(random.between(5, 120)) s on \(Self.container); \(random.between(1, 20)) operations postponed")
        }
    }

    mutating func makeNotifierConnection() {
        if random.chance(0.15) {
            log(notifier, nil, "connection", .error,
                "Connection to push service lost: error 54 (Connection reset by peer); reconnecting in \(random.between(1, 30)) s")
        }
        log(notifier, nil, "connection", .default,
            "Connection to push service established (courier \(random.between(1, 40))-courier.push.example.com:5223, TLS 1.3)")
        log(notifier, nil, "push", .debug,
            "Subscribed to topic \(Self.pushTopic) with filter {\"enabled\": true, \"zones\": \(random.between(1, 5))}")
    }

    mutating func makeStoreMaintenance() {
        let store = random.pick(stores)
        log(core, .coreData, "store", .debug,
            "Saved context: \(random.between(0, 50)) inserts, \(random.between(0, 50)) updates, \(random.between(0, 10)) deletes in store \(store)",
            metadata: ["storeIdentifier": .string(store)])
        if random.chance(0.2) {
            log(core, .coreData, "store", .info,
                "Checkpointed WAL of store \(store): \(random.between(1, 4000)) pages, \(random.between(1, 200)) ms")
        }
        if random.chance(0.03) {
            log(core, .coreData, "store", .error,
                "Failed to save context in store \(store): validation error 1570 (title is a required value)",
                metadata: ["storeIdentifier": .string(store), "errorCode": 1570])
        }
    }
}
