import Foundation
import WhereaboutsCore

/// The history formats of `GET /v1/devices/{id}/locations?format=…`, written piece by piece.
public enum TrackExport: String, Sendable, CaseIterable {
    case json, geojson, gpx, csv

    /// The `Content-Type`.
    public var contentType: String {
        switch self {
        case .json: "application/json"
        case .geojson: "application/geo+json"
        case .gpx: "application/gpx+xml"
        case .csv: "text/csv; charset=utf-8"
        }
    }

    /// What comes before the first record.
    public func prologue(device: String) -> String {
        switch self {
        case .json: "{\"device\":\(JSONLine.quote(device)),\"locations\":["
        case .geojson: "{\"type\":\"FeatureCollection\",\"features\":["
        case .gpx: GPXWriter.header(name: device)
        case .csv: "id,timestamp,latitude,longitude,accuracy,altitude,speed,course,trigger,dwell\n"
        }
    }

    /// One record; `first` tells whether a separator is needed.
    public func item(_ record: LocationRecord, first: Bool) -> String {
        let fix = record.fix
        let separator = first ? "" : ","
        switch self {
        case .json:
            return separator + JSONLine(Self.members(record)).text
        case .geojson:
            let properties = JSONLine(Self.members(record).filter { $0.0 != "latitude" && $0.0 != "longitude" }).text
            return separator
                + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(fix.coordinate.longitude),\(fix.coordinate.latitude)]},\"properties\":\(properties)}"
        case .gpx:
            return GPXWriter.point(GPXPoint(coordinate: fix.coordinate, time: fix.timestamp, elevation: fix.altitude, speed: fix.speed))
        case .csv:
            let optional = { (value: Double?) in value.map { "\($0)" } ?? "" }
            return [
                record.id.uuidString.lowercased(), Timestamp.format(fix.timestamp), "\(fix.coordinate.latitude)",
                "\(fix.coordinate.longitude)",
                "\(fix.horizontalAccuracy)", optional(fix.altitude), optional(fix.speed), optional(fix.course), record.trigger.rawValue,
                "\(record.dwell)",
            ].joined(separator: ",") + "\n"
        }
    }

    /// What comes after the last record.
    public var epilogue: String {
        switch self {
        case .json, .geojson: "]}\n"
        case .gpx: GPXWriter.footer
        case .csv: ""
        }
    }

    private static func members(_ record: LocationRecord) -> [(String, JSONScalar)] {
        let fix = record.fix
        var members: [(String, JSONScalar)] = [
            ("id", .string(record.id.uuidString.lowercased())), ("timestamp", .string(Timestamp.format(fix.timestamp))),
            ("latitude", .number(fix.coordinate.latitude)), ("longitude", .number(fix.coordinate.longitude)),
            ("accuracy", .number(fix.horizontalAccuracy)),
        ]
        if let altitude = fix.altitude { members.append(("altitude", .number(altitude))) }
        if let speed = fix.speed { members.append(("speed", .number(speed))) }
        if let course = fix.course { members.append(("course", .number(course))) }
        members += [("trigger", .string(record.trigger.rawValue)), ("dwell", .number(record.dwell))]
        return members
    }
}
