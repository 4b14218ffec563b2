import Foundation

/// OwnTracks HTTP mode: one `_type:"location"` message per POST, Basic auth, `X-Limit-U` and
/// `X-Limit-D` naming the user and device, and a JSON array of `cmd` messages in the answer.
///
/// The message also carries the record's UUID as `_id`, so a server that understands it (ours does)
/// can drop a resend; the OwnTracks Recorder ignores the field.
public struct OwnTracksEndpoint: UploadEndpoint {
    /// The full publish URL, e.g. `https://host/pub`.
    public let url: URL
    /// `X-Limit-U`.
    public let user: String
    /// `X-Limit-D`.
    public let device: String
    /// The two-character tracker id shown on maps.
    public let trackerID: String
    public var name: String { "owntracks" }
    public var maxBatchSize: Int { 1 }

    /// Creates the endpoint; the tracker id defaults to the device's last two characters.
    public init(url: URL, user: String, device: String, trackerID: String? = nil) {
        self.url = url
        self.user = user
        self.device = device
        self.trackerID = trackerID ?? String(device.suffix(2))
    }

    public func request(for records: [LocationRecord], credential: Credential?) throws -> OutgoingRequest {
        var headers = ["Content-Type": "application/json", "X-Limit-U": user, "X-Limit-D": device]
        headers["Authorization"] = credential?.authorization
        return OutgoingRequest(method: "POST", url: url, headers: headers, body: Self.message(for: records[0], trackerID: trackerID))
    }

    public func interpret(_ reply: HTTPReply, for records: [LocationRecord]) -> DeliveryOutcome {
        DeliveryOutcome(delivered: records.map(\.id), commands: Self.commands(in: reply.body))
    }

    /// The `_type:"location"` message of a record (`vel` in km/h, `tst` in epoch seconds).
    public static func message(for record: LocationRecord, trackerID: String) -> Data {
        let fix = record.fix
        var members: [(String, JSONScalar)] = [
            ("_type", .string("location")), ("_id", .string(record.id.uuidString.lowercased())),
            ("lat", .number(fix.coordinate.latitude)), ("lon", .number(fix.coordinate.longitude)),
            ("tst", .number(fix.timestamp.timeIntervalSince1970.rounded(.down))),
            ("acc", .number(fix.horizontalAccuracy.rounded())), ("tid", .string(trackerID)),
            ("t", .string(trigger(record.trigger))),
        ]
        if let altitude = fix.altitude { members.append(("alt", .number(altitude.rounded()))) }
        if let speed = fix.speed { members.append(("vel", .number((speed * 3.6).rounded()))) }
        if let course = fix.course { members.append(("cog", .number(course.rounded()))) }
        return Data(JSONLine(members).text.utf8)
    }

    /// OwnTracks' trigger letters: `t` timer or movement, `c` circular region, `u` user request.
    static func trigger(_ trigger: RecordTrigger) -> String {
        switch trigger {
        case .policy: "t"
        case .region: "c"
        case .request: "u"
        }
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
                return .setRegions(list.compactMap(waypoint))
            default: return nil
            }
        }
    }

    private static func waypoint(_ item: [String: Any]) -> WireRegion? {
        guard let lat = item["lat"] as? Double, let lon = item["lon"] as? Double, let rad = item["rad"] as? Double,
            let id = (item["rid"] as? String) ?? (item["desc"] as? String)
        else { return nil }
        let region = WireRegion(id: id, latitude: lat, longitude: lon, radius: rad)
        return (try? region.region()) == nil ? nil : region
    }
}
