import Foundation
import GRDB

/// Reads every row of a damaged store's table that SQLite can still read, skipping the stretches it
/// cannot.
///
/// A table with row ids is read in row-id order; where a page fails, the reader seeks past it (probing
/// ever further row ids, then bisecting back to the first that reads) and goes on, so one damaged page
/// costs only its own rows. The rows it skipped are counted from one of the table's unique indexes
/// when that index reads, else from the gap in row ids (ids are handed out in order). A table without
/// row ids (regions, settings: a page or two) is read by key from both ends towards the damage.
/// Queries name the table's own b-tree only, so a damaged index costs nothing.
struct DamagedTableReader {
    /// One of the store's tables.
    struct Table {
        let name: String
        /// The key column of a table without row ids, `nil` for a table with them.
        let key: String?
        /// Unique indexes whose entries count the table's rows.
        let countingIndexes: [String]
    }

    /// What reading one table gave.
    struct Outcome {
        var read = 0
        /// Rows known to exist that could not be read.
        var lost = 0
        /// Unreadable stretches whose number of rows is not known.
        var uncounted = 0
    }

    /// The store's data tables, in the order a salvage copies them.
    static let tables = [
        Table(name: "location", key: nil, countingIndexes: ["location_uuid"]),
        Table(name: "event", key: nil, countingIndexes: ["event_uuid"]),
        Table(name: "region", key: "id", countingIndexes: []),
        Table(name: "setting", key: "key", countingIndexes: []),
        Table(name: "command", key: nil, countingIndexes: ["command_id"]),
        Table(name: "drop_log", key: nil, countingIndexes: []),
        Table(name: "salvage_log", key: nil, countingIndexes: []),
    ]

    let db: Database
    let table: Table
    /// The columns read, in this order.
    let columns: [String]

    private var columnList: String { columns.map { "\"\($0)\"" }.joined(separator: ", ") }

    /// Reads the table, handing each row's values (in ``columns`` order) to `each`; an error thrown by
    /// `each` ends the reading and is rethrown.
    func read(_ each: ([DatabaseValue]) throws -> Void) throws -> Outcome {
        table.key == nil ? try readByRowID(each) : try readByKey(each)
    }

    /// The outcome of trying one query: the rows it gave before it ended or failed.
    private struct Pass {
        var rows: [[DatabaseValue]] = []
        var failed = false
    }

    /// Runs `sql`, keeping the rows read until the end or the first failure; at most `limit` rows.
    private func pass(_ sql: String, _ arguments: StatementArguments = [], limit: Int = .max) -> Pass {
        var pass = Pass()
        do {
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while pass.rows.count < limit, let row = try cursor.next() { pass.rows.append(Array(row.databaseValues)) }
        } catch {
            pass.failed = true
        }
        return pass
    }

    private func readByRowID(_ each: ([DatabaseValue]) throws -> Void) throws -> Outcome {
        var outcome = Outcome()
        var after: Int64 = 0
        // `rowid >= after + 1`, not `rowid > after`: SQLite seeks `>` through the key `after`, which
        // leads into the damaged page when `after` is its last row id, where `>=` goes past it.
        let sql = "SELECT rowid, \(columnList) FROM \"\(table.name)\" WHERE rowid >= ? ORDER BY rowid"
        while true {
            let chunk = pass(sql + " LIMIT 1000", [after + 1])
            for values in chunk.rows {
                try each(Array(values.dropFirst()))
                outcome.read += 1
            }
            let last = chunk.rows.last.flatMap { Int64.fromDatabaseValue($0[0]) } ?? after
            if !chunk.failed {
                guard chunk.rows.count == 1000 else { return outcome }
                after = last
                continue
            }
            switch nextReadable(after: last) {
            case nil:
                outcome.uncounted += 1
                return outcome
            case .some(nil):
                if let missing = indexCount(after: last, before: nil) { outcome.lost += missing } else { outcome.uncounted += 1 }
                return outcome
            case .some(.some(let next)):
                guard next > last else {
                    outcome.uncounted += 1
                    return outcome
                }
                outcome.lost += indexCount(after: last, before: next) ?? Int(next - last - 1)
                after = next - 1
            }
        }
    }

    /// What a query for the first row at or after a row id finds.
    private enum Probe: Equatable {
        case failed
        case end
        case row(Int64)
    }

    private func probe(_ start: Int64) -> Probe {
        let found = pass("SELECT rowid, \(columnList) FROM \"\(table.name)\" WHERE rowid >= ? ORDER BY rowid", [start], limit: 1)
        if found.failed { return .failed }
        return found.rows.first.flatMap { Int64.fromDatabaseValue($0[0]) }.map(Probe.row) ?? .end
    }

    /// The row id of the first readable row after the unreadable stretch that follows `last`:
    /// `.some(nil)` when nothing readable follows, `nil` when no probe got past the damage.
    private func nextReadable(after last: Int64) -> Int64?? {
        var failing = last
        var step: Int64 = 1
        var start: Int64
        var found: Probe
        while true {
            let (candidate, overflow) = last.addingReportingOverflow(step)
            if overflow { return nil }
            start = candidate
            found = probe(start)
            guard found == .failed else { break }
            failing = start
            let (doubled, tooFar) = step.multipliedReportingOverflow(by: 2)
            if tooFar { return nil }
            step = doubled
        }
        var low = failing + 1
        while low < start {
            let middle = low + (start - low) / 2
            let result = probe(middle)
            if result == .failed {
                low = middle + 1
            } else {
                start = middle
                found = result
            }
        }
        if case .row(let id) = found { return .some(id) }
        return .some(nil)
    }

    /// How many rows with ids strictly between `after` and `before` (`nil`: no upper end) one of the
    /// table's unique indexes lists, or `nil` when none of them reads.
    private func indexCount(after: Int64, before: Int64?) -> Int? {
        for index in table.countingIndexes {
            var sql = "SELECT count(*) FROM \"\(table.name)\" INDEXED BY \"\(index)\" WHERE rowid > ?"
            var arguments: StatementArguments = [after]
            if let before {
                sql += " AND rowid < ?"
                arguments += [before]
            }
            if let count = try? Int.fetchOne(db, sql: sql, arguments: arguments) { return count }
        }
        return nil
    }

    private func readByKey(_ each: ([DatabaseValue]) throws -> Void) throws -> Outcome {
        var outcome = Outcome()
        guard let key = table.key, let keyIndex = columns.firstIndex(of: key) else { return outcome }
        let forward = pass("SELECT \(columnList) FROM \"\(table.name)\" ORDER BY \"\(key)\"")
        for values in forward.rows { try each(values) }
        outcome.read += forward.rows.count
        guard forward.failed else { return outcome }
        outcome.uncounted += 1
        var sql = "SELECT \(columnList) FROM \"\(table.name)\""
        var arguments: StatementArguments = []
        if let lastKey = forward.rows.last?[keyIndex] {
            sql += " WHERE \"\(key)\" > ?"
            arguments = [lastKey]
        }
        let backward = pass(sql + " ORDER BY \"\(key)\" DESC", arguments)
        for values in backward.rows { try each(values) }
        outcome.read += backward.rows.count
        return outcome
    }
}
