import Foundation

/// The OwnTracks wire encoding both sides share (the device's ``OwnTracksEndpoint`` and the server's
/// parser): trigger letters, numbers, waypoints, and `cmd` messages in answers.
public enum OwnTracksWire {
    /// OwnTracks' trigger letter for a record: `t` timer or movement, `c` circular region, `u` user request.
    public static func letter(for trigger: RecordTrigger) -> String {
        switch trigger {
        case .policy: "t"
        case .region: "c"
        case .request: "u"
        }
    }

    /// The trigger a letter means: `c`, `b` and `l` (region, beacon, leave) are region triggers; `u` and
    /// `r` (user, reportLocation) are requests; anything else, or none, is the mode's policy.
    public static func trigger(letter: String?) -> RecordTrigger {
        switch letter {
        case "c", "b", "l": .region
        case "u", "r": .request
        default: .policy
        }
    }

    /// A JSON number from `JSONSerialization`, or `nil` for anything else (`true` and `false` included,
    /// which Foundation also hands over as `NSNumber`).
    public static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, type(of: number) != booleanType else { return nil }
        return number.doubleValue
    }

    private static let booleanType = type(of: NSNumber(value: true))

    /// A `_type:"waypoint"` object as a region; its id is `rid` when present, else `desc`. `lat`, `lon`
    /// and `rad` may also be numeric strings, as some apps (and the OwnTracks booklet) send them.
    /// - Throws: ``ValidationError`` for a missing field or an invalid centre or radius.
    public static func waypoint(_ item: [String: Any]) throws(ValidationError) -> WireRegion {
        let numeric = { (key: String) in number(item[key]) ?? (item[key] as? String).flatMap(Double.init) }
        guard let lat = numeric("lat"), let lon = numeric("lon"), let radius = numeric("rad"),
            let id = (item["rid"] as? String) ?? (item["desc"] as? String)
        else {
            throw ValidationError(
                field: "waypoint", value: "\(item.keys.sorted())", problem: "lacks desc (or rid), lat, lon or rad",
                fix: "send a waypoint with desc, lat, lon and rad")
        }
        let region = WireRegion(id: id, latitude: lat, longitude: lon, radius: radius)
        _ = try region.region()
        return region
    }

    /// The commands in an answer array: `reportLocation`, and `setWaypoints` as ``ServerCommand/setRegions(_:)``.
    /// Other messages and malformed waypoints are skipped.
    public static func commands(in body: Data) -> [ServerCommand] {
        guard let array = try? JSONSerialization.jsonObject(with: body) as? [Any] else { return [] }
        return array.compactMap { $0 as? [String: Any] }.compactMap { message -> ServerCommand? in
            guard message["_type"] as? String == "cmd" else { return nil }
            switch message["action"] as? String {
            case "reportLocation": return .reportLocation
            case "setWaypoints":
                let container = message["waypoints"] as? [String: Any]
                let list = container?["waypoints"] as? [[String: Any]] ?? []
                return .setRegions(list.compactMap { try? waypoint($0) })
            default: return nil
            }
        }
    }

    /// A queued command as an OwnTracks `_type:"cmd"` message. OwnTracks has no timed active
    /// session, so `startActiveTracking` becomes `setConfiguration` with move mode (monitoring 2).
    public struct Command: Encodable, Sendable {
        let _type = "cmd"
        let action: String
        var configuration: Configuration? = nil
        var waypoints: Waypoints? = nil

        /// The message for `command`.
        public init(_ command: ServerCommand) {
            switch command {
            case .reportLocation: action = "reportLocation"
            case .startActiveTracking:
                action = "setConfiguration"
                configuration = Configuration(monitoring: 2)
            case .setRegions(let regions):
                action = "setWaypoints"
                waypoints = Waypoints(
                    waypoints: regions.map { Waypoint(desc: $0.id, rid: $0.id, lat: $0.latitude, lon: $0.longitude, rad: $0.radius) })
            }
        }

        struct Configuration: Encodable, Sendable {
            let _type = "configuration"
            let monitoring: Int
        }

        struct Waypoints: Encodable, Sendable {
            let _type = "waypoints"
            let waypoints: [Waypoint]
        }

        struct Waypoint: Encodable, Sendable {
            let _type = "waypoint"
            let desc: String
            let rid: String
            let lat: Double
            let lon: Double
            let rad: Double
        }
    }
}
