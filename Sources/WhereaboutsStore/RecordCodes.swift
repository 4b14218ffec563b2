import Foundation
import GRDB
import WhereaboutsCore

/// Small integer codes for enums stored in every row, and the row-to-record mapping.
enum RecordCodes {
    private static let sources = FixSource.allCases
    private static let triggers: [RecordTrigger] = [.policy, .region, .request]

    static func source(_ source: FixSource) -> Int { sources.firstIndex(of: source)! }
    static func trigger(_ trigger: RecordTrigger) -> Int { triggers.firstIndex(of: trigger)! }

    /// The record in a `location` row with its delivery state.
    static func recordState(_ row: Row) -> (record: LocationRecord, state: DeliveryState) {
        (record(row), DeliveryState(rawValue: row["state"]) ?? .pending)
    }

    /// The record in a `location` row.
    static func record(_ row: Row) -> LocationRecord {
        let sourceCode: Int = row["source"]
        let triggerCode: Int = row["trigger"]
        return .restored(
            id: row["uuid"], latitude: row["lat"], longitude: row["lon"], accuracy: row["acc"], altitude: row["alt"], speed: row["speed"],
            course: row["course"], timestamp: Date(timeIntervalSince1970: row["t"]),
            source: sources.indices.contains(sourceCode) ? sources[sourceCode] : .unknown,
            trigger: triggers.indices.contains(triggerCode) ? triggers[triggerCode] : .policy, dwell: row["dwell"])
    }
}
