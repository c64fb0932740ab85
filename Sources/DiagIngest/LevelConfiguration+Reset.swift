import DiagProtocol

extension LevelConfiguration.Snapshot {
    /// Removes what `reset` names; a setting that was never made is no error (as `log config`).
    mutating func remove(_ reset: LevelReset) {
        switch (reset.subsystem, reset.category) {
        case (nil, _):
            self = Self(global: .systemDefault)
        case (let subsystem?, nil):
            subsystems[subsystem] = nil
            categories[subsystem] = nil
        case (let subsystem?, let category?):
            categories[subsystem]?[category] = nil
            if categories[subsystem]?.isEmpty == true { categories[subsystem] = nil }
        }
    }
}
