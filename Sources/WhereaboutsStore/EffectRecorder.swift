import Foundation
import WhereaboutsCore

/// Applies the Tracker's `record`, `extendDwell` and `emit` effects to a store. When the disk is full
/// the effects wait in a bounded backlog and are written, in order, by the next write that succeeds,
/// so recording resumes where it stopped once space returns.
public final class EffectRecorder {
    /// What one effect did to the store.
    public enum Outcome: Equatable {
        /// Written, together with any backlog.
        case written
        /// Kept in the backlog because the store refused the write.
        case deferred(StoreError)
        /// The effect is not about storage.
        case ignored
    }

    private enum Write {
        case record(LocationRecord)
        case dwell(TimeInterval)
        case event(RegionEvent)
    }

    private let store: any LocationStore
    private let backlogLimit: Int
    private var backlog: [Write] = []
    /// Effects that did not fit in the backlog while the disk was full: lost, and counted here.
    public private(set) var overflowed = 0

    /// Creates a recorder. At most `backlogLimit` effects wait for a full disk.
    public init(store: any LocationStore, backlogLimit: Int = 10_000) {
        self.store = store
        self.backlogLimit = backlogLimit
    }

    /// Effects waiting for the store.
    public var backlogCount: Int { backlog.count }

    /// Applies one effect.
    @discardableResult
    public func perform(_ effect: TrackerEffect) -> Outcome {
        switch effect {
        case .record(let recorded): return append(LocationRecord(fix: recorded.fix, trigger: recorded.trigger))
        case .extendDwell(let dwell, _):
            if case .dwell = backlog.last { backlog.removeLast() }
            enqueue(.dwell(dwell))
        case .emit(let event): enqueue(.event(event))
        default: return .ignored
        }
        return writeBacklog()
    }

    /// Appends a record the caller built (to know its id), behind any backlog.
    @discardableResult
    public func append(_ record: LocationRecord) -> Outcome {
        enqueue(.record(record))
        return writeBacklog()
    }

    /// Tries the backlog again (for instance when space may have returned).
    @discardableResult
    public func retry() -> Outcome { backlog.isEmpty ? .written : writeBacklog() }

    private func enqueue(_ write: Write) {
        guard backlog.count < backlogLimit else {
            overflowed += 1
            return
        }
        backlog.append(write)
    }

    private func writeBacklog() -> Outcome {
        while !backlog.isEmpty {
            do {
                let run = backlog.prefix { if case .record = $0 { true } else { false } }
                if !run.isEmpty {
                    let records = run.compactMap { if case .record(let record) = $0 { record } else { nil } }
                    try store.append(records)
                    backlog.removeFirst(run.count)
                    continue
                }
                switch backlog[0] {
                case .dwell(let dwell): try store.extendDwell(dwell)
                case .event(let event): try store.append(event)
                case .record: break
                }
                backlog.removeFirst()
            } catch let error as StoreError {
                return .deferred(error)
            } catch {
                return .deferred(StoreError(kind: .io, path: "store", problem: "refused a write (\(error))", fix: "check the store file"))
            }
        }
        return .written
    }
}
