import Foundation
import WhereaboutsCore

/// The geofence engine written plainly, as the oracle ``GeofenceEngine`` must equal: every region in a
/// dictionary, every fix measured against every region, no index, no lists, no packed flags.
///
/// Both engines apply ``GeofenceRule``; what this one checks is the fast engine's machinery around the
/// rule: which regions a fix reaches, the inside, undetermined and pending lists, the ordering of
/// events, dwell timing, and saving and restoring states.
struct ReferenceGeofenceEngine {
    private var regions: [String: Region] = [:]
    private var statuses: [String: GeofenceRule.Status] = [:]
    /// When the device came inside each region it is inside.
    private var since: [String: Date] = [:]
    /// The regions whose determined state changed since ``takeStateChanges(at:)`` last ran.
    private var changed: Set<String> = []
    private var latestFix: Fix?
    /// When fixes last reported each kind of crossing of each region.
    private var fixCrossings: [String: GeofenceRule.FixCrossings] = [:]
    /// The regions the last fix left undecided.
    private(set) var undecidedIDs: [String] = []

    init(regions: [Region] = []) { add(regions) }

    var insideIDs: [String] { statuses.filter { $0.value.side == .inside }.map(\.key).sorted() }

    func state(of id: String) -> RegionState? { statuses[id]?.side }

    mutating func add(_ regions: [Region]) {
        for region in regions {
            self.regions[region.id] = region
            set(.undetermined, of: region.id, since: nil)
            fixCrossings[region.id] = nil
        }
    }

    mutating func remove(_ ids: [String]) {
        for id in ids where regions[id] != nil {
            regions[id] = nil
            statuses[id] = nil
            since[id] = nil
            fixCrossings[id] = nil
        }
    }

    mutating func forgetStates() {
        for id in regions.keys { set(.undetermined, of: id, since: nil) }
        fixCrossings = [:]
    }

    /// Judges every region the fix reaches (its enclosing circle within ``TransitionRule/reach(accuracy:)``)
    /// and every region the device is inside; the others learn that the fix did not reach them.
    mutating func evaluate(_ fix: Fix, undecidedDepth: Double = 1) -> [RegionEvent] {
        latestFix = fix
        undecidedIDs = []
        let reach = TransitionRule.reach(accuracy: fix.horizontalAccuracy)
        var events: [RegionEvent] = []
        for (id, region) in regions {
            let status = statuses[id]!
            let reached = Geodesy.distance(fix.coordinate, region.center) - region.radius <= reach
            guard reached || status.side == .inside else {
                set(GeofenceRule.unreached(status), of: id, since: nil)
                continue
            }
            let outcome = GeofenceRule.fix(
                status, signedDistance: region.signedDistance(from: fix.coordinate), accuracy: fix.horizontalAccuracy, size: region.size,
                undecidedDepth: undecidedDepth)
            if outcome.undecided { undecidedIDs.append(id) }
            set(outcome.status, of: id, since: fix.timestamp)
            if let transition = outcome.transition, !transition.initial {
                fixCrossings[id, default: GeofenceRule.FixCrossings()][transition.kind] = fix.timestamp
            }
            if let transition = outcome.transition, notifies(region, of: transition.kind) {
                events.append(
                    RegionEvent(regionID: id, kind: transition.kind, timestamp: fix.timestamp, initial: transition.initial, fix: fix))
            }
        }
        return events.sorted { $0.regionID < $1.regionID }
    }

    mutating func osCrossing(
        id: String, state: RegionState, at time: Date, fixesStreaming: Bool = false, fixesMissed: Bool = false
    ) -> RegionEvent? {
        guard let region = regions[id], let status = statuses[id] else { return nil }
        if state == .inside, case .polygons = region.shape { return nil }
        if GeofenceRule.crossingYields(
            to: latestFix, region: region, crossing: state, at: time, fixesStreaming: fixesStreaming, fixesMissed: fixesMissed)
            || GeofenceRule.crossingEchoes(fixCrossings[id], crossing: state, at: time)
        {
            return nil
        }
        let outcome = GeofenceRule.osCrossing(status, to: state)
        set(outcome.status, of: id, since: time)
        guard let transition = outcome.transition, notifies(region, of: transition.kind) else { return nil }
        return RegionEvent(regionID: id, kind: transition.kind, timestamp: time, initial: transition.initial, fix: nil)
    }

    mutating func dueDwells(at now: Date) -> [RegionEvent] {
        var events: [RegionEvent] = []
        for (id, status) in statuses {
            guard let entered = since[id],
                let due = GeofenceRule.dwellDue(status, since: entered, loiteringDelay: regions[id]?.loiteringDelay),
                due <= now
            else { continue }
            set(GeofenceRule.dwellReported(status), of: id, since: entered)
            events.append(RegionEvent(regionID: id, kind: .dwell, timestamp: due, initial: false, fix: nil))
        }
        return events.sorted { $0.regionID < $1.regionID }
    }

    var nextDwellDue: Date? {
        statuses.compactMap { id, status in
            since[id].flatMap { GeofenceRule.dwellDue(status, since: $0, loiteringDelay: regions[id]?.loiteringDelay) }
        }.min()
    }

    mutating func takeStateChanges(at now: Date) -> [RegionStateRecord] {
        defer { changed = [] }
        return changed.sorted().compactMap { id in
            guard let status = statuses[id], let side = status.side else { return nil }
            return side == .inside
                ? RegionStateRecord(regionID: id, inside: true, since: since[id]!, dwelt: status.dwelt)
                : RegionStateRecord(regionID: id, inside: false, since: now, dwelt: false)
        }
    }

    mutating func restore(_ records: [RegionStateRecord]) {
        for record in records where regions[record.regionID] != nil {
            set(.undetermined, of: record.regionID, since: nil)
            set(GeofenceRule.restored(record), of: record.regionID, since: record.since)
        }
        changed = []
    }

    private func notifies(_ region: Region, of kind: RegionEventKind) -> Bool {
        kind == .enter ? region.notifyOnEntry : region.notifyOnExit
    }

    /// Sets a region's status: one coming inside is inside since `time`; a change of its determined
    /// state is noted for ``takeStateChanges(at:)``.
    private mutating func set(_ status: GeofenceRule.Status, of id: String, since time: Date?) {
        let before = statuses[id]
        statuses[id] = status
        if status.side != .inside {
            since[id] = nil
        } else if before?.side != .inside {
            since[id] = time
        }
        if status.side != nil && (status.side != before?.side || status.dwelt != before?.dwelt) { changed.insert(id) }
    }
}
