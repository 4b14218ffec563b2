import Foundation
import WhereaboutsCore
import WhereaboutsServer

/// Fills the bench's database before the runs: `locations` locations spread over 20 devices of their
/// own, one fix a second each, with ids of the kind the runs send, stored straight through the
/// storage in transactions of 5,000; so the runs write into indexes that already hold them.
enum BenchPrefill {
    static let devices = 20

    static func fill(_ locations: Int, ids: BenchIDs, storage: any DeviceStorage & TrackIngest) async throws {
        let perDevice = (locations + devices - 1) / devices
        let start = Date().addingTimeInterval(-Double(perDevice) - 7200)
        var generator = SystemRandomNumberGenerator()
        for index in 0..<devices {
            let device = "prefill-\(index)"
            try await storage.addDevice(id: device, tokenHash: Tokens.hash(Tokens.generate()), at: Date())
            let count = min(perDevice, locations - index * perDevice)
            for first in stride(from: 0, to: count, by: 5000) {
                let records = (first..<min(count, first + 5000)).map { i in
                    let fix = try! Fix(
                        coordinate: Coordinate(latitude: 48 + Double(i % 9000) * 1e-4, longitude: 2), horizontalAccuracy: 7,
                        timestamp: start.addingTimeInterval(Double(i)))
                    let id = ids == .ordered ? RecordID.make(at: fix.timestamp, using: &generator) : UUID()
                    return LocationRecord(id: id, fix: fix, trigger: .policy)
                }
                _ = try await storage.ingest(records, device: device, at: Date())
            }
        }
    }
}
