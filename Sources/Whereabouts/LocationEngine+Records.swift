import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

extension LocationEngine {
    /// The newest `limit` stored records with their delivery state, oldest first.
    public func recordedLocationStates(limit: Int = 1000) throws(EngineError) -> [(record: LocationRecord, state: DeliveryState)] {
        do { return try store.recentRecordStates(limit: max(0, limit)) } catch { throw .store(error, doing: "read recorded locations") }
    }

    /// Deletes every stored record, uploaded or not (the user cleared the history); the snapshot's
    /// report empties and the next fix starts a new record. Region events, regions and settings stay.
    /// - Returns: how many records were deleted.
    @discardableResult
    public func clearLocations() throws(EngineError) -> Int {
        try launch(.user)
        let removed: Int
        do { removed = try store.deleteAllRecords() } catch { throw .store(error, doing: "delete the stored locations") }
        pending = PendingWindow(pending: [], limit: snapshotReportLimit)
        pendingVersion += 1
        newestRecord = nil
        perform(.recordsCleared)
        publish()
        return removed
    }

    /// Sends pending records now, skipping any back-off; `nil` when the engine has no uploader.
    public func flush() async -> FlushReport? {
        await uploader?.flush(.manual, acknowledging: session.unacknowledgedCommands)
    }

    /// Flushes, waiting out back-off, until nothing is pending, the user is signed out, or `deadline`
    /// passes (``Uploader/drain(until:trigger:acknowledging:)``): for a background task or a process
    /// about to exit; `nil` when the engine has no uploader.
    public func drainUploads(until deadline: Date, trigger: UploadTrigger) async -> FlushReport? {
        await uploader?.drain(until: deadline, trigger: trigger, acknowledging: session.unacknowledgedCommands)
    }
}
