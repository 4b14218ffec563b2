import Foundation
import WhereaboutsCore

/// The JSON Lines files of one simulated run, in the shapes of `evaluation.md`.
public enum RunFiles {
    /// `events.jsonl`: `{"t","region","type","initial","lat","lon"}` per event (`lat`/`lon` null when
    /// the OS reported the crossing without a fix).
    public static func events(_ events: [RegionEvent]) -> String {
        JSONLine.document(
            events.map { event in
                JSONLine([
                    ("t", .number(event.timestamp.timeIntervalSince1970)), ("region", .string(event.regionID)),
                    ("type", .string(event.kind.rawValue)), ("initial", .bool(event.initial)),
                    ("lat", event.fix.map { .number($0.coordinate.latitude) } ?? .null),
                    ("lon", event.fix.map { .number($0.coordinate.longitude) } ?? .null),
                ])
            })
    }

    /// `fixes.jsonl`: `{"t","lat","lon","acc","dwell"}` per stored record.
    public static func fixes(_ fixes: [LocationRecord]) -> String {
        JSONLine.document(
            fixes.map { stored in
                JSONLine([
                    ("t", .number(stored.fix.timestamp.timeIntervalSince1970)),
                    ("lat", .number(stored.fix.coordinate.latitude)), ("lon", .number(stored.fix.coordinate.longitude)),
                    ("acc", .number((stored.fix.horizontalAccuracy * 10).rounded() / 10)), ("dwell", .number(stored.dwell)),
                ])
            })
    }

    /// `timeline.jsonl`: one object per energy record.
    public static func timeline(_ records: [TimelineRecord]) -> String {
        JSONLine.document(
            records.map { record in
                let t: (String, JSONScalar) = ("t", .number(record.t))
                switch record {
                case .gps(_, let state): return JSONLine([t, ("resource", .string("gps")), ("state", .string(state.rawValue))])
                case .wifiScan: return JSONLine([t, ("resource", .string("wifi")), ("event", .string("scan"))])
                case .cellFix: return JSONLine([t, ("resource", .string("cell")), ("event", .string("fix"))])
                case .upload(_, let bytes):
                    return JSONLine([t, ("resource", .string("network")), ("event", .string("upload")), ("bytes", .integer(bytes))])
                case .app(_, let state): return JSONLine([t, ("resource", .string("app")), ("state", .string(state.rawValue))])
                case .wake: return JSONLine([t, ("resource", .string("app")), ("event", .string("wake"))])
                case .motion(_, let on): return JSONLine([t, ("resource", .string("motion")), ("state", .string(on ? "on" : "off"))])
                }
            })
    }
}
