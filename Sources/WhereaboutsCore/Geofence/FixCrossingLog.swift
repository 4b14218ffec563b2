import Foundation

/// When fixes reported each kind of crossing of a region (``GeofenceRule/FixCrossings``), by slot,
/// for ``GeofenceEngine`` to tell the OS's late report of a crossing from a new one.
///
/// Noting is on the path of every fix that crosses a region (scattered fixes in a dense city cross
/// five to eleven regions each), and asking is rare (once per crossing the OS reports), so the log
/// only appends: noting a crossing writes one entry, forgetting a region writes one entry, and asking
/// reads back the entries of the last ``GeofenceRule/fixPrecedence`` seconds. A table by slot, updated
/// and pruned at every crossing, was a fifth of a fix's evaluation in a dense city.
///
/// A crossing counts while it came at most ``GeofenceRule/fixPrecedence`` seconds before the latest
/// time the log was pruned at (``dropExpired(at:)``); once it no longer counts it is dropped, and an
/// earlier time pruned at later does not bring it back. A clock set back moves every time in the log,
/// the latest pruning's with them (``shiftTimes(by:)``), so what counts stays the same.
struct FixCrossingLog {
    private struct Entry {
        var time: Date
        var slot: Int32
        /// The crossing's kind, or `nil` where the region was forgotten: no entry of the slot before
        /// it counts.
        var kind: RegionEventKind?
    }

    /// In the order they were written, from `first` on (those before `first` were dropped).
    private var entries: [Entry] = []
    private var first = 0
    /// The latest time ``dropExpired(at:)`` was given.
    private var prunedAt = Date.distantPast
    /// How many entries were kept by the last ``compact()``: the log compacts again once it holds
    /// twice as many, so that crossings stamped in the future, which stop dropping from the front,
    /// cannot make it grow without bound.
    private var keptByCompaction = 0

    /// How many entries the log holds: crossings and forgettings not dropped yet.
    var entryCount: Int { entries.count - first }

    /// The crossings of the region in `slot` that still count: for each kind, the one noted last since
    /// the region was last forgotten. `nil` when none counts.
    subscript(slot: Int32) -> GeofenceRule.FixCrossings? {
        var crossings = GeofenceRule.FixCrossings()
        var found: (enter: Bool, exit: Bool) = (false, false)
        var position = entries.count
        while position > first, !(found.enter && found.exit) {
            position -= 1
            let entry = entries[position]
            guard entry.slot == slot else { continue }
            guard let kind = entry.kind else { break }
            guard counts(entry) else { continue }
            if kind == .enter && !found.enter {
                crossings.enter = entry.time
                found.enter = true
            } else if kind == .exit && !found.exit {
                crossings.exit = entry.time
                found.exit = true
            }
        }
        return found.enter || found.exit ? crossings : nil
    }

    /// Notes that a fix reported a crossing of `kind` of the region in `slot` at `time`.
    mutating func note(_ kind: RegionEventKind, ofSlot slot: Int32, at time: Date) {
        entries.append(Entry(time: time, slot: slot, kind: kind))
    }

    /// Forgets the crossings of the region in `slot`.
    mutating func forget(_ slot: Int32) {
        guard let last = entries.last, first < entries.count else { return }
        entries.append(Entry(time: last.time, slot: slot, kind: nil))
    }

    /// Forgets the crossings of every region.
    mutating func forgetAll() {
        entries = []
        first = 0
        keptByCompaction = 0
    }

    /// Moves every crossing, forgetting and the latest pruning by `offset` seconds: a clock set back.
    mutating func shiftTimes(by offset: TimeInterval) {
        prunedAt.addTimeInterval(offset)
        for position in first..<entries.count { entries[position].time.addTimeInterval(offset) }
    }

    /// Drops the crossings that came more than ``GeofenceRule/fixPrecedence`` seconds before `time`
    /// (or before a later time given earlier).
    mutating func dropExpired(at time: Date) {
        prunedAt = max(prunedAt, time)
        while first < entries.count, !counts(entries[first]) { first += 1 }
        if first > entries.count / 2 {
            entries.removeFirst(first)
            first = 0
        }
        if entries.count - first > 2 * keptByCompaction + 1024 { compact() }
    }

    /// Whether `entry` came at most ``GeofenceRule/fixPrecedence`` seconds before the latest pruning.
    @inline(__always)
    private func counts(_ entry: Entry) -> Bool {
        prunedAt.timeIntervalSince(entry.time) <= GeofenceRule.fixPrecedence
    }

    /// Drops every entry that no longer counts, wherever it is, and every forgetting that no entry
    /// before it needs.
    private mutating func compact() {
        var kept: [Entry] = []
        var noted = Set<Int32>()
        for entry in entries[first...] {
            if entry.kind == nil {
                if noted.remove(entry.slot) != nil { kept.append(entry) }
            } else if counts(entry) {
                kept.append(entry)
                noted.insert(entry.slot)
            }
        }
        entries = kept
        first = 0
        keptByCompaction = kept.count
    }
}
