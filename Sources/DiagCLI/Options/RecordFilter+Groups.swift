/// `diag patterns` and `diag diff` take their filters from the shared groups; `diag report`
/// builds a `RecordFilter` from no options at all, so the checking init stays the one entry.
extension RecordFilter {
    init<Wording>(query: PredicateOptions<Wording>, span: WindowOptions<Wording>, filter: FilterOptions<Wording>,
                  timezone: String?, year: Int?, sources: [String] = []) throws {
        try self.init(
            predicate: query.predicate, predicateFile: query.predicateFile, variables: query.variables,
            start: span.start, end: span.end, last: span.last,
            info: filter.info, debug: filter.debug, processes: filter.process, senders: filter.sender,
            timezone: timezone, year: year, sources: sources)
    }
}
