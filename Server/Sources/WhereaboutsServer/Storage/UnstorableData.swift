import PostgresNIO
import WhereaboutsCore

/// A write that failed because of the data it holds, so it fails again however often it is tried.
enum UnstorableData {
    /// Why `error` means the data can never be stored: PostgreSQL's SQLSTATE class 22, data exception
    /// (a value its column's type cannot hold, such as U+0000 in `text` or `jsonb`), which no retry
    /// changes. `nil` for any other error, which may pass (a lost connection, a deadlock, a full disk).
    static func reason(_ error: any Error) -> String? {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState], state.hasPrefix("22") else { return nil }
        return "PostgreSQL refuses its data (SQLSTATE \(state), data exception: \(error.serverInfo?[.message] ?? "no message"))"
    }

    /// Writes a batch's `items` (each with its index in the request) in one call of `write` when it
    /// can. When the database refuses the data of some of them for good, one bad item must not hold
    /// back the others, nor the batch be answered 500 and sent again for ever: the halves are written
    /// apart, down to single items, and only the items refused alone are left out, each with the
    /// reason. Any other error is thrown: the batch may pass when sent again. An empty batch (an
    /// acknowledgement alone) is one call.
    ///
    /// - Returns: each successful call's result, and the refused items by index.
    static func writeApart<Item, Written>(
        _ items: ArraySlice<(index: Int, item: Item)>, _ write: ([Item]) async throws -> Written
    ) async throws -> (written: [(items: [Item], result: Written)], refused: [ItemRejection]) {
        do {
            let batch = items.map(\.item)
            return ([(batch, try await write(batch))], [])
        } catch {
            guard let reason = reason(error), !items.isEmpty else { throw error }
            guard items.count > 1 else {
                let refusal =
                    "\(reason); it is not stored, and sending it again will not change that: correct the value or leave the item out"
                return ([], [ItemRejection(index: items[items.startIndex].index, reason: refusal)])
            }
            let middle = items.startIndex + items.count / 2
            let first = try await writeApart(items[..<middle], write)
            let second = try await writeApart(items[middle...], write)
            return (first.written + second.written, first.refused + second.refused)
        }
    }
}
