import Foundation
import WhereaboutsCore

/// The engine's one write path to the store: each input's writes go in one transaction, in order.
///
/// When the store refuses (a full disk), ``write(_:)`` keeps the writes in a bounded backlog, and the
/// next write that succeeds stores the backlog first, in the same transaction: recording resumes
/// where it stopped once space returns, and records, events and region states never disagree.
/// ``writeNow(_:)`` is for the app's own requests, which fail whole instead.
public final class StoreWriter {
    /// What a write did.
    public enum Outcome: Equatable, Sendable {
        /// Stored, together with any backlog.
        case written
        /// Kept in the backlog because the store refused it.
        case deferred(StoreError)
    }

    private let store: SQLiteLocationStore
    private let backlogLimit: Int
    private var backlog: [StoreWrite] = []
    /// Writes that did not fit in the backlog while the store refused: lost (an input's writes whole),
    /// and counted here.
    public private(set) var overflowed = 0

    /// Creates a writer to `store`; at most `backlogLimit` writes wait while it refuses.
    public init(store: SQLiteLocationStore, backlogLimit: Int = 10_000) {
        self.store = store
        self.backlogLimit = backlogLimit
    }

    /// Writes waiting for the store.
    public var backlogCount: Int { backlog.count }

    /// Stores `writes` after the backlog, or keeps them in the backlog when the store refuses (all of
    /// them, or none when the backlog is full).
    @discardableResult
    public func write(_ writes: [StoreWrite]) -> Outcome {
        guard !writes.isEmpty || !backlog.isEmpty else { return .written }
        do {
            try store.apply(backlog + writes)
            backlog = []
            return .written
        } catch {
            if backlog.count + writes.count <= backlogLimit {
                backlog += writes
            } else {
                overflowed += writes.count
            }
            return .deferred(Self.storeError(error, path: store.path))
        }
    }

    /// Stores the backlog and `writes` now, or nothing of `writes`.
    /// - Throws: ``StoreError`` when the store refuses; the backlog stays, `writes` are dropped.
    public func writeNow(_ writes: [StoreWrite]) throws(StoreError) {
        do {
            try store.apply(backlog + writes)
            backlog = []
        } catch {
            throw Self.storeError(error, path: store.path)
        }
    }

    /// Tries the backlog again (for instance when space may have returned).
    @discardableResult
    public func retry() -> Outcome { write([]) }

    private static func storeError(_ error: any Error, path: String) -> StoreError {
        error as? StoreError ?? StoreError(kind: .io, path: path, problem: "refused a write (\(error))", fix: "check the store file")
    }
}
