import Foundation
import WhereaboutsCore

/// One record of a simulated run's energy timeline (`timeline.jsonl`, see `evaluation.md`).
public enum TimelineRecord: Sendable, Equatable {
    /// The GPS receiver changed state.
    case gps(t: Double, state: GPSState)
    /// One Wi-Fi positioning scan.
    case wifiScan(t: Double)
    /// One cell-based fix.
    case cellFix(t: Double)
    /// One upload request of `bytes` bytes.
    case upload(t: Double, bytes: Int)
    /// The app started running or was suspended.
    case app(t: Double, state: AppExecutionState)
    /// The OS woke the app for an event.
    case wake(t: Double)
    /// Motion sensing went on or off.
    case motion(t: Double, on: Bool)

    /// The GPS receiver's states.
    public enum GPSState: String, Sendable {
        case off, acquiring, tracking
    }

    /// Whether the app executes code.
    public enum AppExecutionState: String, Sendable {
        case running, suspended
    }

    /// Whether the record is an upload request.
    public var isUpload: Bool {
        if case .upload = self { true } else { false }
    }

    /// `records` with the uploads of each run of records of one second moved after the others, each
    /// kind in its order. An upload's energy depends only on its second, so no figure changes.
    public static func uploadsLast(_ records: [TimelineRecord]) -> [TimelineRecord] {
        var ordered: [TimelineRecord] = []
        ordered.reserveCapacity(records.count)
        var start = records.startIndex
        while start < records.endIndex {
            let second = records[start].t
            let end = records[start...].firstIndex { $0.t != second } ?? records.endIndex
            let run = records[start..<end]
            ordered += run.filter { !$0.isUpload } + run.filter(\.isUpload)
            start = end
        }
        return ordered
    }

    /// When the record happened, epoch seconds.
    public var t: Double {
        switch self {
        case .gps(let t, _), .wifiScan(let t), .cellFix(let t), .upload(let t, _), .app(let t, _), .wake(let t),
            .motion(let t, _):
            t
        }
    }
}
