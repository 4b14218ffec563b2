import PostgresNIO

/// The SQL of a statement that ``Prepared`` runs as a named prepared statement: the same for every
/// call (every value a bound parameter, arrays included).
protocol PreparedSQL: Sendable {
    static var sql: String { get }
}

/// A query run as a named prepared statement, prepared once per connection: PostgreSQL parses and
/// plans it then, not on each run. Each of a `/pub` group's statements was planned afresh every time,
/// which took about half of PostgreSQL's CPU per group. `query` must have `Statement`'s SQL; only its
/// bindings are sent.
struct Prepared<Statement: PreparedSQL>: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var sql: String { Statement.sql }
    static var name: String { String(reflecting: Statement.self) }

    let query: PostgresQuery

    init(_ query: PostgresQuery) {
        assert(query.sql == Statement.sql, "\(Statement.self): the query's SQL is not the prepared statement's")
        self.query = query
    }

    func makeBindings() throws -> PostgresBindings { query.binds }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PostgresTrackStorage {
    /// ``ownTracksGroupQuery(_:)``: encoding no writes cannot fail.
    enum CommitOwnTracks: PreparedSQL {
        static let sql = try! ownTracksGroupQuery([]).sql
    }

    /// ``insertQuery(_:)``.
    enum InsertLocations: PreparedSQL {
        static let sql = insertQuery([]).sql
    }
}
