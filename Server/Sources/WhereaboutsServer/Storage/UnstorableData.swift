import PostgresNIO

/// A write that failed because of the data it holds, so it fails again however often it is tried.
enum UnstorableData {
    /// Why `error` means the data can never be stored: PostgreSQL's SQLSTATE class 22, data exception
    /// (a value its column's type cannot hold, such as U+0000 in `text` or `jsonb`), which no retry
    /// changes. `nil` for any other error, which may pass (a lost connection, a deadlock, a full disk).
    static func reason(_ error: any Error) -> String? {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState], state.hasPrefix("22") else { return nil }
        return "PostgreSQL refuses its data (SQLSTATE \(state), data exception: \(error.serverInfo?[.message] ?? "no message"))"
    }
}
