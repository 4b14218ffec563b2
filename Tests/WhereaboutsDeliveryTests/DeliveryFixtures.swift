import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsTestServer

/// An uploader to our batch API on `url`, with short timeouts and a back-off measured in milliseconds.
func batchUploader(
    _ store: SQLiteLocationStore, url: URL, batchSize: Int = 100, credentials: any CredentialProvider = FixedCredential.none,
    order: DeliveryOrder = .oldestFirst, timeout: TimeInterval = 30, backoff: Backoff = Backoff(initial: 0.05, multiplier: 2, maximum: 0.4)
) -> Uploader {
    Uploader(
        queue: store, endpoint: WhereaboutsBatchEndpoint(base: url, device: "phone-1", maxBatchSize: batchSize),
        credentials: credentials,
        configuration: UploaderConfiguration(
            batchSize: batchSize, order: order, lease: 60, requestTimeout: timeout,
            backoff: backoff))
}

/// Every record in the store is on the server exactly once and delivered in the store.
func exactlyOnce(_ store: SQLiteLocationStore, _ state: TestServerState, rejected: Int = 0) async throws -> Bool {
    let records = try store.allRecords()
    let held = await state.locations
    let receipts = await state.receipts
    let delivered = records.filter { $0.state == .delivered }
    guard delivered.count == records.count - rejected else { return false }
    guard Set(delivered.map { $0.record.id.uuidString.lowercased() }) == Set(held.keys) else { return false }
    return receipts.keys.allSatisfy { held[$0] != nil }
}

/// The reports an uploader handed to its report handler, in order.
actor ReportLog {
    private(set) var reports: [FlushReport] = []

    func add(_ report: FlushReport) { reports.append(report) }
}
