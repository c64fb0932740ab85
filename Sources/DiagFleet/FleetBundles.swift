import DiagModel

/// The `bundles` table as the commands need it: choosing one bundle, and the identifiers that
/// fill `$NAME` in a predicate as `diag show BUNDLE…` takes them from the manifests.
public enum FleetBundles {
    /// `--bundle ID`: the bundle's number (as `diag fleet load` prints it) or at least 8 hex
    /// digits of its identity (the manifest's SHA-256).
    public static func resolve(_ text: String, connection: PostgresConnection) throws(FleetError) -> Int64 {
        try FleetSchema.requireLoaded(connection)
        let result: PostgresResult
        if let number = Int64(text), number > 0 {
            result = try connection.execute(#"SELECT "bundleID" FROM bundles WHERE "bundleID" = $1::bigint"#, [String(number)])
        } else if text.count >= 8, text.count <= 64, text.allSatisfy(\.isHexDigit) {
            result = try connection.execute(
                #"SELECT "bundleID" FROM bundles WHERE "identity" LIKE $1::text ORDER BY "bundleID" LIMIT 2"#, [text.lowercased() + "%"])
        } else {
            throw .badInput("--bundle: '\(text)' is not a bundle; accepted: the bundle's number from diag fleet load, or 8 to 64 hex digits of its identity")
        }
        guard result.rowCount == 1, let id = result.int64(row: 0, column: 0) else {
            throw .badInput(result.rowCount == 0
                ? "--bundle: no loaded bundle is '\(text)' in \(connection.displayName)"
                : "--bundle: '\(text)' is the start of several bundles' identities; give more digits")
        }
        return id
    }

    /// The identifiers of the bundles in scope (one, or all) on which their manifests agree.
    public static func identifiers(bundleID: Int64?, connection: PostgresConnection) throws(FleetError) -> [String: String] {
        try FleetSchema.requireLoaded(connection)
        let result = bundleID == nil
            ? try connection.execute(#"SELECT "identifiers" FROM bundles ORDER BY "bundleID""#)
            : try connection.execute(#"SELECT "identifiers" FROM bundles WHERE "bundleID" = $1::bigint"#, [String(bundleID!)])
        var values: [String: String] = [:]
        var conflicting: Set<String> = []
        for row in 0..<result.rowCount {
            guard let text = result.text(row: row, column: 0), let object = try? JSONReader.parseObject(text) else { continue }
            for (name, value) in object {
                guard let value = value.stringValue else { continue }
                if let known = values[name], known != value { conflicting.insert(name) }
                values[name] = value
            }
        }
        for name in conflicting { values[name] = nil }
        return values
    }
}
