import Foundation
import WhereaboutsCore

/// The engine's one write path to the store: each input's writes go in one transaction, in order.
///
/// When the store refuses (a full disk), ``write(_:at:)`` keeps the writes in a bounded backlog, and the
/// next write that succeeds stores the backlog first, in the same transaction: recording resumes
/// where it stopped once space returns, and records, events and region states never disagree.
/// ``writeNow(_:at:)`` is for the app's own requests, which fail whole instead.
public final class StoreWriter {
    /// What a write did with the writes it was given.
    public enum Outcome: Equatable, Sendable {
        /// Stored: these writes, the backlog that waited first (in the same transaction), then the
        /// ones given.
        case written([StoreWrite])
        /// The store refused: the writes wait in the backlog when `kept`, else they are lost (the
        /// backlog is full) and counted in ``overflowed``. `firstRefusal` is true when nothing waited
        /// before: the store has just started refusing.
        case deferred(StoreError, kept: Bool, firstRefusal: Bool)
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

    /// Stores `writes` after the backlog at `now`, or keeps them in the backlog when the store refuses
    /// (all of them, or none when the backlog is full).
    @discardableResult
    public func write(_ writes: [StoreWrite], at now: Date) -> Outcome {
        guard !writes.isEmpty || !backlog.isEmpty else { return .written([]) }
        let waited = backlog.count
        do {
            let committed = backlog + writes
            try store.apply(committed, at: now)
            backlog = []
            return .written(committed)
        } catch {
            let kept = backlog.count + writes.count <= backlogLimit
            if kept {
                backlog += writes
            } else {
                overflowed += writes.count
            }
            return .deferred(Self.storeError(error, path: store.path), kept: kept, firstRefusal: waited == 0)
        }
    }

    /// Stores the backlog and `writes` at once (at `now`), or nothing of `writes`, and returns what
    /// it stored: the backlog, then `writes`.
    /// - Throws: ``StoreError`` when the store refuses; the backlog stays, `writes` are dropped.
    @discardableResult
    public func writeNow(_ writes: [StoreWrite], at now: Date) throws(StoreError) -> [StoreWrite] {
        do {
            let committed = backlog + writes
            try store.apply(committed, at: now)
            backlog = []
            return committed
        } catch {
            throw Self.storeError(error, path: store.path)
        }
    }

    /// Tries the backlog again at `now` (for instance when space may have returned).
    @discardableResult
    public func retry(at now: Date) -> Outcome { write([], at: now) }

    private static func storeError(_ error: any Error, path: String) -> StoreError {
        error as? StoreError ?? StoreError(kind: .io, path: path, problem: "refused a write (\(error))", fix: "check the store file")
    }
}
