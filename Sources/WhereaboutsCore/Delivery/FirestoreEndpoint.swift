import Foundation

/// Firestore REST, as the Capacitor travel app does it: `PATCH
/// {base}/v1/projects/{project}/databases/(default)/documents/{collection}/{uuid}` with typed `fields`
/// and a Bearer ID token. PATCH is an upsert, so a resend rewrites the same document.
public struct FirestoreEndpoint: UploadEndpoint {
    /// `https://firestore.googleapis.com` in production; a local server in tests.
    public let base: URL
    /// The Firebase project id.
    public let project: String
    /// The collection, `locations` in the travel app.
    public let collection: String
    /// The signed-in user's id, stored in each document as `userId`.
    public let userID: String?
    public var name: String { "firestore" }
    public var maxBatchSize: Int { 1 }

    /// Creates the endpoint.
    public init(
        base: URL = URL(string: "https://firestore.googleapis.com")!, project: String, collection: String = "locations", userID: String?
    ) {
        self.base = base
        self.project = project
        self.collection = collection
        self.userID = userID
    }

    public func request(for records: [LocationRecord], credential: Credential?) throws -> OutgoingRequest {
        let record = try single(records, "records")
        let url = base.appendingPathComponent("v1/projects/\(project)/databases/(default)/documents/\(collection)")
            .appendingPathComponent(record.id.uuidString.lowercased())
        var headers = ["Content-Type": "application/json"]
        headers["Authorization"] = credential?.authorization
        return OutgoingRequest(method: "PATCH", url: url, headers: headers, body: document(for: record))
    }

    /// Firestore answers a written document with the document, named by its path: anything else,
    /// such as a proxy's page, delivers nothing.
    public func interpret(_ reply: HTTPReply, for records: [LocationRecord]) -> DeliveryOutcome {
        let path = "/documents/\(collection)/\((records.first?.id.uuidString ?? "").lowercased())"
        guard records.count == 1,
            let name = (try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any])?["name"] as? String, name.hasSuffix(path)
        else {
            return .notStored(reply, expected: "the Firestore document …\(path) of a request for one record", count: records.count)
        }
        return DeliveryOutcome(delivered: records.map(\.id))
    }

    /// The document body: `{"fields": {name: {typeValue: …}}}`.
    public func document(for record: LocationRecord) -> Data {
        let fix = record.fix
        var fields: [(String, String)] = [
            ("id", Self.value("stringValue", .string(record.id.uuidString.lowercased()))),
            ("latitude", Self.value("doubleValue", .number(fix.coordinate.latitude))),
            ("longitude", Self.value("doubleValue", .number(fix.coordinate.longitude))),
            ("accuracy", Self.value("doubleValue", .number(fix.horizontalAccuracy))),
            ("timestamp", Self.value("timestampValue", .string(Timestamp.format(fix.timestamp)))),
            ("wait_time", Self.value("doubleValue", .number(record.dwell))),
            ("trigger", Self.value("stringValue", .string(record.trigger.rawValue))),
        ]
        if let userID { fields.append(("userId", Self.value("stringValue", .string(userID)))) }
        if let altitude = fix.altitude { fields.append(("altitude", Self.value("doubleValue", .number(altitude)))) }
        if let speed = fix.speed { fields.append(("speed", Self.value("doubleValue", .number(speed)))) }
        let inner = fields.map { "\(JSONLine.quote($0.0)):\($0.1)" }.joined(separator: ",")
        return Data("{\"fields\":{\(inner)}}".utf8)
    }

    private static func value(_ type: String, _ scalar: JSONScalar) -> String { JSONLine([(type, scalar)]).text }
}
