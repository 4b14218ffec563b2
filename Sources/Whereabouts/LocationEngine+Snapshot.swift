import Foundation
import WhereaboutsCore

/// What a published snapshot was built from: its small parts, and the version of the report.
struct SnapshotKey: Equatable {
    var lastTriedAt: Date?
    var lastLocation: LocationPoint?
    var fence: LocationData.Fence?
    var permissions: Permissions
    var setupProblems: [SetupProblem]
    var pendingVersion: Int
}

extension LocationEngine {
    /// The snapshot now, from memory: last try, last location (the newest fix, under the id of the
    /// record it became or was merged into, else `LocationPoint/unrecordedID`), the refresh fence, the
    /// pending upload queue (at most `snapshotReportLimit` records, the newest), both permission
    /// records and what the app's set-up lacks (``LocationService/setupProblems``).
    public func snapshot() -> LocationData {
        let key = snapshotKey
        return LocationData(
            lastTriedAt: key.lastTriedAt, lastLocation: key.lastLocation, fence: key.fence, report: pending.report,
            foregroundPermission: key.permissions.foreground, backgroundPermission: key.permissions.background,
            setupProblems: key.setupProblems)
    }

    private var snapshotKey: SnapshotKey {
        let tracker = session.tracker
        let lastLocation: LocationPoint?
        if let fix = tracker.lastFix {
            let id = tracker.lastFixRecorded ? newestRecord.map { $0.record.id.uuidString.lowercased() } : nil
            lastLocation = LocationPoint(id: id ?? LocationPoint.unrecordedID, fix: fix)
        } else {
            lastLocation = newestRecord.map { LocationPoint(record: $0.record) }
        }
        let fence = tracker.slotPlan.map { LocationData.Fence(plan: $0, plannedAt: tracker.fencePlannedAt ?? clock.now()) }
        return SnapshotKey(
            lastTriedAt: tracker.lastTriedAt, lastLocation: lastLocation, fence: fence, permissions: session.permissions.permissions,
            setupProblems: service.setupProblems, pendingVersion: pendingVersion)
    }

    /// Republishes the snapshot when it changed and someone listens.
    func publish() {
        guard launched, snapshotBroadcast.hasSubscribers else { return }
        let key = snapshotKey
        guard key != publishedKey else { return }
        publishedKey = key
        snapshotBroadcast.yield(snapshot())
    }
}
