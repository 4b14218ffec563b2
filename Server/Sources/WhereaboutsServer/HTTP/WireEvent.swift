import Foundation
import WhereaboutsCore

/// One region event in `POST /v1/devices/{id}/events`: `{"id", "regionId", "kind": enter|exit|dwell,
/// "timestamp"}` plus optional `latitude` and `longitude`.
public struct WireEvent: Sendable, Codable, Equatable {
    /// UUID string; a resend is recognised by it.
    public var id: String
    /// The region's id.
    public var regionId: String
    /// `enter`, `exit` or `dwell`.
    public var kind: String
    /// RFC 3339.
    public var timestamp: String
    /// Where, if known.
    public var latitude: Double?
    /// Where, if known.
    public var longitude: Double?

    /// Validates the event.
    func validated(now: Date) throws(ValidationError) -> StoredEvent {
        guard let uuid = UUID(uuidString: id) else {
            throw ValidationError(field: "id", value: "\"\(id.prefix(60))\"", problem: "is not a UUID", fix: "send a UUID string")
        }
        guard !regionId.isEmpty, regionId.count <= 200 else {
            throw ValidationError(field: "regionId", value: "\"\(regionId.prefix(60))\"", problem: "is empty or longer than 200 characters", fix: "send the region's id")
        }
        guard let kind = RegionEventKind(rawValue: kind) else {
            throw ValidationError(field: "kind", value: "\"\(kind.prefix(60))\"", problem: "is not an event kind", fix: "send enter, exit or dwell")
        }
        guard let date = Timestamp.parse(timestamp), date >= WireLocation.earliest, date <= now.addingTimeInterval(WireLocation.futureTolerance) else {
            throw ValidationError(
                field: "timestamp", value: "\"\(timestamp.prefix(60))\"", problem: "is not an RFC 3339 time between 2000 and tomorrow",
                fix: "send UTC with milliseconds, e.g. 2024-05-06T07:30:00.000Z")
        }
        if latitude != nil || longitude != nil {
            _ = try Coordinate(latitude: latitude ?? .nan, longitude: longitude ?? .nan)
        }
        return StoredEvent(id: uuid, regionID: regionId, kind: kind, timestamp: date, latitude: latitude, longitude: longitude)
    }
}

/// Decodes a batch item by item, so one item of the wrong shape is rejected alone.
struct Lenient<Item: Decodable>: Decodable {
    let result: Result<Item, DecodeProblem>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Item(from: decoder))
        } catch {
            result = .failure(DecodeProblem(error))
        }
    }
}

/// A decoding error in words.
struct DecodeProblem: Error {
    let reason: String

    init(_ error: any Error) {
        switch error {
        case DecodingError.keyNotFound(let key, _): reason = "\(key.stringValue) is missing"
        case DecodingError.typeMismatch(let type, let context):
            reason = "\(context.codingPath.last?.stringValue ?? "a field") is not \(type == Double.self ? "a number" : type == String.self ? "a string" : "\(type)")"
        case DecodingError.valueNotFound(_, let context): reason = "\(context.codingPath.last?.stringValue ?? "a field") is null"
        default: reason = "is not an object of the documented shape"
        }
    }
}

/// `{"locations": [...]}` read leniently.
struct LenientLocationBatch: Decodable {
    let locations: [Lenient<WireLocation>]
}

/// `{"events": [...]}` read leniently.
struct LenientEventBatch: Decodable {
    let events: [Lenient<WireEvent>]
}
