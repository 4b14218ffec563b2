import Foundation
import GRDB
import WhereaboutsCore

/// The codes the store writes for enums, and the row-to-record mapping.
///
/// Every code is frozen: once shipped, a code means the same case forever, whatever the order or the
/// names of the cases in the code. A new case gets a new code; a code read that this version does
/// not know maps to the value named below. `Fixtures/store-v5.sqlite` in the store tests holds every
/// code written so far. The SQL of the store spells the delivery states as these numbers
/// (`state = 0` is pending).
enum RecordCodes {
    /// `location.source`.
    static func code(_ source: FixSource) -> Int {
        switch source {
        case .gps: 0
        case .wifi: 1
        case .cell: 2
        case .significantChange: 3
        case .unknown: 4
        }
    }

    /// The fix source of `location.source`; an unknown code reads as ``FixSource/unknown``.
    static func source(code: Int) -> FixSource {
        switch code {
        case 0: .gps
        case 1: .wifi
        case 2: .cell
        case 3: .significantChange
        default: .unknown
        }
    }

    /// `location.trigger`.
    static func code(_ trigger: RecordTrigger) -> Int {
        switch trigger {
        case .policy: 0
        case .region: 1
        case .request: 2
        }
    }

    /// The trigger of `location.trigger`; an unknown code reads as ``RecordTrigger/policy``.
    static func trigger(code: Int) -> RecordTrigger {
        switch code {
        case 1: .region
        case 2: .request
        default: .policy
        }
    }

    /// `location.state`, `event.state` and `drop_log.state`.
    static func code(_ state: DeliveryState) -> Int {
        switch state {
        case .pending: 0
        case .delivered: 1
        case .rejected: 2
        }
    }

    /// The delivery state of a `state` column, `nil` for a code this version does not know.
    static func knownDeliveryState(code: Int) -> DeliveryState? {
        switch code {
        case 0: .pending
        case 1: .delivered
        case 2: .rejected
        default: nil
        }
    }

    /// The delivery state of a `state` column; an unknown code reads as ``DeliveryState/pending``,
    /// so that nothing is lost: at worst a record is sent again.
    static func deliveryState(code: Int) -> DeliveryState { knownDeliveryState(code: code) ?? .pending }

    /// `event.kind`, kept as text.
    static func code(_ kind: RegionEventKind) -> String {
        switch kind {
        case .enter: "enter"
        case .exit: "exit"
        case .dwell: "dwell"
        }
    }

    /// The event kind of `event.kind`; an unknown code reads as ``RegionEventKind/enter``.
    static func kind(code: String) -> RegionEventKind {
        switch code {
        case "exit": .exit
        case "dwell": .dwell
        default: .enter
        }
    }

    /// The record in a `location` row with its delivery state.
    static func recordState(_ row: Row) -> (record: LocationRecord, state: DeliveryState) {
        (record(row), deliveryState(code: row["state"]))
    }

    /// The record in a `location` row.
    static func record(_ row: Row) -> LocationRecord {
        .restored(
            id: row["uuid"], latitude: row["lat"], longitude: row["lon"], accuracy: row["acc"], altitude: row["alt"], speed: row["speed"],
            course: row["course"], timestamp: Date(timeIntervalSince1970: row["t"]), source: source(code: row["source"]),
            trigger: trigger(code: row["trigger"]), dwell: row["dwell"])
    }
}
