import GRDB
import NIOConcurrencyHelpers

/// Group commit for SQLite: the writes of concurrent callers share one transaction and so one
/// fsync of the WAL.
///
/// A write is queued; when no transaction is under way, the caller's write starts one. While a
/// transaction commits, the writes that arrive queue up, and the next transaction takes all of them.
/// Each write runs in a savepoint of its own, so one that throws is rolled back alone and reports its
/// error; the others are answered only once the transaction holding them has committed (with
/// `synchronous = FULL`, after the fsync), and all of them fail when the commit does. Under no load a
/// write waits for nothing; under load, one fsync serves every request that arrived meanwhile. The
/// groups are committed on GRDB's writer queue itself, and each caller is answered from there: a
/// write costs one hand-off to the writer and one back.
final class GroupCommit: Sendable {
    private let pool: DatabasePool
    private let state = NIOLockedValueBox(State())

    private struct State {
        var queue: [any QueuedWrite] = []
        var writing = false
    }

    init(pool: DatabasePool) { self.pool = pool }

    /// Runs `work` in the next group transaction and returns its result once that transaction has
    /// committed.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let leads = state.withLockedValue { state in
                state.queue.append(Write(work: work, continuation: continuation))
                defer { state.writing = true }
                return !state.writing
            }
            if leads { pool.asyncWriteWithoutTransaction { db in self.drain(db) } }
        }
    }

    /// Commits queued writes, a group per transaction, until none is left; runs on the writer queue.
    private func drain(_ db: Database) {
        while true {
            let group = state.withLockedValue { state in
                defer { state.queue = [] }
                state.writing = !state.queue.isEmpty
                return state.queue
            }
            guard !group.isEmpty else { return }
            do {
                try db.inTransaction(.immediate) {
                    for write in group {
                        write.run(db)
                        // SQLite rolls a whole transaction back on some errors (a full disk, I/O): then no write of the group holds.
                        guard db.isInsideTransaction else {
                            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the group's transaction was rolled back")
                        }
                    }
                    return .commit
                }
                for write in group { write.finish(committed: nil) }
            } catch {
                for write in group { write.finish(committed: error) }
            }
        }
    }
}

/// A write waiting for its group's transaction.
private protocol QueuedWrite: Sendable {
    /// Runs the write in a savepoint of the open transaction, keeping its result or error.
    func run(_ db: Database)
    /// Answers the caller: its result when the transaction committed (`error` is `nil`), else `error`.
    func finish(committed error: (any Error)?)
}

/// One caller's write and where its answer goes. Only the drain on the writer queue touches `result`, between
/// ``run(_:)`` and ``finish(committed:)``.
private final class Write<T: Sendable>: QueuedWrite, @unchecked Sendable {
    private let work: @Sendable (Database) throws -> T
    private let continuation: CheckedContinuation<T, any Error>
    private var result: Result<T, any Error> = .failure(CancellationError())

    init(work: @escaping @Sendable (Database) throws -> T, continuation: CheckedContinuation<T, any Error>) {
        self.work = work
        self.continuation = continuation
    }

    func run(_ db: Database) {
        result = Result {
            var value: T?
            try db.inSavepoint {
                value = try work(db)
                return .commit
            }
            return value!
        }
    }

    func finish(committed error: (any Error)?) {
        continuation.resume(with: error.map { .failure($0) } ?? result)
    }
}
