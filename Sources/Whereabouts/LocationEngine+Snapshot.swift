import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// The snapshot now: last try, last location, the refresh fence, the pending upload queue (at
    /// most `snapshotReportLimit` records) and both permission records.
    public func snapshot() throws(EngineError) -> LocationData {
        let latest: LocationRecord?
        let pending: [LocationRecord]
        do {
            latest = try store.latestRecord()
            pending = try store.pendingRecords(limit: snapshotReportLimit)
        } catch {
            throw .store(error, doing: "read the snapshot")
        }
        let lastLocation = latest.map(LocationPoint.init(record:))
            ?? tracker.lastFix.map { LocationPoint(id: "unrecorded", fix: $0) }
        return LocationData(
            lastTriedAt: lastTriedAt, lastLocation: lastLocation,
            fence: tracker.slotPlan.map { LocationData.Fence(plan: $0, plannedAt: fencePlannedAt ?? clock.now()) }, pending: pending,
            permissions: permissionCoordinator.permissions)
    }

    /// Republishes the snapshot when it changed.
    func publish() {
        guard launched else { return }
        do {
            let current = try snapshot()
            guard current != published else { return }
            published = current
            snapshotBroadcast.yield(current)
        } catch {
            logger.error("\(error)")
        }
    }
}
