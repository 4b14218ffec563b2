import Foundation

/// When fixes last reported each kind of crossing of a region (``GeofenceRule/FixCrossings``), by
/// slot, for ``GeofenceEngine`` to tell the OS's late report of a crossing from a new one.
///
/// ``dropExpired(at:)`` drops the records whose later crossing came more than
/// ``GeofenceRule/fixPrecedence`` seconds before a time. It finds them from a list of the records'
/// times kept in order, instead of filtering every record: while fixes jump about a city a second
/// apart, nearly every fix has a crossing and some record to drop, and the filter rebuilt hundreds of
/// records per fix.
struct FixCrossingLog {
    private var records = CrossingTable()
    /// The time each record's later crossing was written at, with its slot, sorted by time from
    /// `first` on (those before `first` were dropped). An entry whose record was written again or
    /// forgotten since is stale: its time is no longer the record's, and it drops nothing.
    private var written: [(time: Date, slot: Int32)] = []
    private var first = 0

    /// How many regions have a record.
    var count: Int { records.count }

    /// The record of the region in `slot`, if fixes reported a crossing of it since it was last dropped.
    subscript(slot: Int32) -> GeofenceRule.FixCrossings? { records[slot] }

    /// Notes that a fix reported a crossing of `kind` of the region in `slot` at `time`.
    mutating func note(_ kind: RegionEventKind, ofSlot slot: Int32, at time: Date) {
        let latest = records.set(kind, ofSlot: slot, to: time)
        if let last = written.last, last.time > latest {
            // Fixes out of time order: the entry goes where its time sorts.
            var low = first
            var high = written.count
            while low < high {
                let middle = (low + high) / 2
                if written[middle].time > latest { high = middle } else { low = middle + 1 }
            }
            written.insert((latest, slot), at: low)
        } else {
            written.append((latest, slot))
        }
        if written.count - first > 2 * records.count + 64 { compact() }
    }

    /// Forgets the record of the region in `slot`.
    mutating func forget(_ slot: Int32) { records.remove(slot) }

    /// Drops every record whose later crossing came more than ``GeofenceRule/fixPrecedence``
    /// seconds before `time`.
    mutating func dropExpired(at time: Date) {
        while first < written.count, time.timeIntervalSince(written[first].time) > GeofenceRule.fixPrecedence {
            let (expired, slot) = written[first]
            records.remove(slot) { $0.latest != expired }
            first += 1
        }
        if first > written.count / 2 {
            written.removeFirst(first)
            first = 0
        }
    }

    /// Lists each record's time once, dropping the stale entries.
    private mutating func compact() {
        written = records.records.map { (time: $0.crossings.latest, slot: $0.slot) }.sorted { $0.time < $1.time }
        first = 0
    }
}
