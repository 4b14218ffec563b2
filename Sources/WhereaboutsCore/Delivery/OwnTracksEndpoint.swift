import Foundation

/// OwnTracks HTTP mode: one message per POST, Basic auth, `X-Limit-U` and `X-Limit-D` naming the user
/// and device, and a JSON array of `cmd` messages in the answer. Records go as `_type:"location"`,
/// region events as `_type:"transition"`.
///
/// A message also carries its UUID as `_id`, so a server that understands it (ours does) can drop a
/// resend; the OwnTracks Recorder ignores the field and stores every post. So no message goes twice
/// with different content under one id: a stay whose dwell grew goes as a location of its own
/// (``upload(of:)``).
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
        post(Self.message(for: Self.upload(of: try single(records, "records")), trackerID: trackerID), credential)
    }

    public func interpret(_ reply: HTTPReply, for records: [LocationRecord]) -> DeliveryOutcome {
        outcome(reply, ids: records.map(\.id))
    }

    public var acceptsEvents: Bool { true }

    /// The `_type:"transition"` message of the first event (``maxBatchSize`` is 1 for events too).
    public func eventRequest(for events: [EventRecord], credential: Credential?) throws -> OutgoingRequest {
        post(Self.transition(for: try single(events, "events"), trackerID: trackerID), credential)
    }

    public func interpretEvents(_ reply: HTTPReply, for events: [EventRecord]) -> DeliveryOutcome {
        outcome(reply, ids: events.map(\.id))
    }

    /// A Recorder answers a stored message with a JSON array (empty, or friends' messages and
    /// commands), or that array encrypted (`{"_type":"encrypted",…}`); anything else, such as a
    /// proxy's page, delivers nothing.
    private func outcome(_ reply: HTTPReply, ids: [UUID]) -> DeliveryOutcome {
        let answer = try? JSONSerialization.jsonObject(with: reply.body)
        guard answer is [Any] || (answer as? [String: Any])?["_type"] as? String == "encrypted" else {
            return .notStored(reply, expected: "an OwnTracks answer (a JSON array)", count: ids.count)
        }
        return DeliveryOutcome(delivered: ids, commands: OwnTracksWire.commands(in: reply.body).map(DeviceCommand.unidentified))
    }

    private func post(_ body: Data, _ credential: Credential?) -> OutgoingRequest {
        var headers = ["Content-Type": "application/json", "X-Limit-U": user, "X-Limit-D": device]
        headers["Authorization"] = credential?.authorization
        return OutgoingRequest(method: "POST", url: url, headers: headers, body: body)
    }

    /// What an upload of `record` sends. A record without dwell goes as itself. A stay whose dwell has
    /// grown since it was sent goes as a location of its own: at the moment the device was last known
    /// there (`tst` = timestamp + dwell), under an id derived from the record's and the dwell's, so
    /// each dwell update is one new message, sent once, and a Recorder never stores one message twice.
    public static func upload(of record: LocationRecord) -> LocationRecord {
        let seconds = UInt64(max(0, record.dwell.rounded(.down)))
        guard seconds > 0 else { return record }
        var fix = record.fix
        fix.timestamp = fix.timestamp.addingTimeInterval(Double(seconds))
        var bytes = record.id.uuid
        // The node field (the last 6 bytes) mixed with the dwell: version and variant stay intact.
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 10..<16 { raw[index] ^= UInt8(truncatingIfNeeded: seconds >> (8 * UInt64(15 - index))) }
        }
        return LocationRecord(id: UUID(uuid: bytes), fix: fix, trigger: record.trigger)
    }

    /// The `_type:"transition"` message of a region event: `event` enter, leave or dwell (OwnTracks
    /// knows the first two), the region id as `desc` and `rid`, where it happened when known, and
    /// `initial: true` for the state found when monitoring started.
    public static func transition(for record: EventRecord, trackerID: String) -> Data {
        let event = record.event
        var members: [(String, JSONScalar)] = [
            ("_type", .string("transition")), ("_id", .string(record.id.uuidString.lowercased())),
            ("event", .string(event.kind == .exit ? "leave" : event.kind.rawValue)), ("desc", .string(event.regionID)),
            ("rid", .string(event.regionID)), ("tst", .number(event.timestamp.timeIntervalSince1970.rounded(.down))),
            ("tid", .string(trackerID)), ("t", .string("c")),
        ]
        if let fix = event.fix {
            members += [
                ("lat", .number(fix.coordinate.latitude)), ("lon", .number(fix.coordinate.longitude)),
                ("acc", .number(fix.horizontalAccuracy.rounded())),
            ]
        }
        if event.initial { members.append(("initial", .bool(true))) }
        return Data(JSONLine(members).text.utf8)
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
