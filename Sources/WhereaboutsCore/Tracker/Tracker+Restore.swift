import Foundation

/// A region's state as a relaunched app restores it.
public struct RestoredRegionState: Sendable, Equatable {
    /// Whether the device was inside.
    public let inside: Bool
    /// When the device entered (inside) or was judged outside.
    public let since: Date
    /// Whether the dwell event of this stay was already reported.
    public let dwelt: Bool

    /// Creates a restored state.
    public init(inside: Bool, since: Date, dwelt: Bool) {
        self.inside = inside
        self.since = since
        self.dwelt = dwelt
    }
}

extension Tracker {
    /// Restores what a relaunched app knew before it was killed, before tracking starts again: the
    /// last stored record (so a fix at the same place extends its dwell instead of adding a row) and
    /// the device's state in each region (so a region left while the app was dead is reported as an
    /// exit, and a dwell keeps counting from the original entry, or stays reported).
    public mutating func restore(lastRecord: Fix?, regionStates: [String: RestoredRegionState]) {
        self.lastRecord = lastRecord
        let ordered = regionStates.sorted { $0.key < $1.key }
        for (id, state) in ordered where state.inside && state.dwelt {
            _ = geofences.osCrossing(id: id, state: .inside, at: state.since)
        }
        _ = geofences.dueDwells(at: .distantFuture)
        for (id, state) in ordered where !(state.inside && state.dwelt) {
            _ = geofences.osCrossing(id: id, state: state.inside ? .inside : .outside, at: state.since)
        }
    }
}
