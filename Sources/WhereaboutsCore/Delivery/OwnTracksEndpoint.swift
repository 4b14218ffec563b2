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
        DeliveryOutcome(delivered: records.map(\.id), commands: OwnTracksWire.commands(in: reply.body).map(DeviceCommand.unidentified))
    }

    /// The `_type:"location"` message of a record (`vel` in km/h, `tst` in epoch seconds).
    public static func message(for record: LocationRecord, trackerID: String) -> Data {
        let fix = record.fix
        var members: [(String, JSONScalar)] = [
            ("_type", .string("location")), ("_id", .string(record.id.uuidString.lowercased())),
            ("lat", .number(fix.coordinate.latitude)), ("lon", .number(fix.coordinate.longitude)),
            ("tst", .number(fix.timestamp.timeIntervalSince1970.rounded(.down))),
            ("acc", .number(fix.horizontalAccuracy.rounded())), ("tid", .string(trackerID)),
            ("t", .string(OwnTracksWire.letter(for: record.trigger))),
        ]
        if let altitude = fix.altitude { members.append(("alt", .number(altitude.rounded()))) }
        if let speed = fix.speed { members.append(("vel", .number((speed * 3.6).rounded()))) }
        if let course = fix.course { members.append(("cog", .number(course.rounded()))) }
        return Data(JSONLine(members).text.utf8)
    }
}
