import Foundation
import Testing
import WhereaboutsCore

/// How each endpoint reads a 2xx: a record counts as delivered only when the answer is the one the
/// server gives when it stores it; a proxy's or captive portal's page delivers nothing.
@Suite("Delivery answers: only a server's own answer marks records delivered")
struct DeliveryAnswerTests {
    private static let ids = (0..<3).map { UUID(uuidString: "00000000-0000-7000-8000-00000000000\($0)")! }

    private static func records() throws -> [LocationRecord] {
        let fix = try Fix(
            coordinate: Coordinate(latitude: 47.37, longitude: 8.54), horizontalAccuracy: 9,
            timestamp: Date(timeIntervalSince1970: 1_750_000_000))
        return ids.map { LocationRecord(id: $0, fix: fix, trigger: .policy) }
    }

    private static func events() -> [EventRecord] {
        [
            EventRecord(
                id: ids[0],
                event: RegionEvent(
                    regionID: "home", kind: .enter, timestamp: Date(timeIntervalSince1970: 1_750_000_000), initial: false, fix: nil))
        ]
    }

    private static func reply(_ body: String, status: Int = 200) -> HTTPReply { HTTPReply(status: status, body: Data(body.utf8)) }

    private static let portal = "<html>Sign in to the Wi-Fi</html>"

    @Test("batch API: every item accounted for at distinct indices within the request, or nothing is delivered")
    func batch() throws {
        let endpoint = WhereaboutsBatchEndpoint(base: URL(string: "http://127.0.0.1:1")!, device: "phone")
        let records = try Self.records()
        let stored = endpoint.interpret(Self.reply(#"{"accepted":1,"duplicate":1,"rejected":[{"index":2,"reason":"bad"}]}"#), for: records)
        #expect(stored.unreadable == nil)
        #expect(stored.delivered == Array(Self.ids.prefix(2)))
        #expect(stored.rejected.keys.sorted { $0.uuidString < $1.uuidString } == [Self.ids[2]])
        for body in [
            Self.portal, "{}", #"{"accepted":2}"#, #"{"accepted":1,"rejected":[{"index":9,"reason":"x"},{"index":9,"reason":"x"}]}"#,
            #"{"accepted":1,"rejected":[{"index":2,"reason":"x"},{"index":2,"reason":"x"}]}"#,
        ] {
            let outcome = endpoint.interpret(Self.reply(body), for: records)
            #expect(outcome.delivered.isEmpty && outcome.rejected.isEmpty, "\(body)")
            #expect(outcome.unreadable?.contains("nothing was marked delivered") == true, "\(body)")
        }
        #expect(endpoint.interpret(Self.reply("", status: 409), for: records).delivered == Self.ids)
    }

    @Test("OwnTracks: a JSON array (or the encrypted array) delivers, locations and transitions alike; a page or an object does not")
    func ownTracks() throws {
        let endpoint = OwnTracksEndpoint(url: URL(string: "http://127.0.0.1:1/pub")!, user: "jane", device: "phone")
        let record = try Self.records().prefix(1).map { $0 }
        let events = Self.events()
        for body in ["[]", #"[{"_type":"cmd","action":"reportLocation"}]"#, #"{"_type":"encrypted","data":"AAAA"}"#] {
            #expect(endpoint.interpret(Self.reply(body), for: record).delivered == [Self.ids[0]], "\(body)")
            #expect(endpoint.interpretEvents(Self.reply(body), for: events).delivered == [Self.ids[0]], "\(body)")
        }
        #expect(endpoint.interpret(Self.reply(#"[{"_type":"cmd","action":"reportLocation"}]"#), for: record).commands.count == 1)
        for body in [Self.portal, "", "{}", #"{"ok":true}"#] {
            let location = endpoint.interpret(Self.reply(body), for: record)
            let transition = endpoint.interpretEvents(Self.reply(body), for: events)
            #expect(location.delivered.isEmpty && location.unreadable?.contains("an OwnTracks answer") == true, "\(body)")
            #expect(transition.delivered.isEmpty && transition.unreadable != nil, "\(body)")
        }
    }

    @Test("Firestore: the written document named by its path delivers; a page, another document or no name does not")
    func firestore() throws {
        let endpoint = FirestoreEndpoint(project: "travel", userID: "user-1")
        let record = try Self.records().prefix(1).map { $0 }
        let path = "projects/travel/databases/(default)/documents/locations/\(Self.ids[0].uuidString.lowercased())"
        #expect(endpoint.interpret(Self.reply(#"{"name":"\#(path)","fields":{}}"#), for: record).delivered == [Self.ids[0]])
        let other = "projects/travel/databases/(default)/documents/locations/\(Self.ids[1].uuidString.lowercased())"
        for body in [Self.portal, "{}", #"{"name":"\#(other)"}"#, "[]"] {
            let outcome = endpoint.interpret(Self.reply(body), for: record)
            #expect(outcome.delivered.isEmpty && outcome.unreadable?.contains("Firestore document") == true, "\(body)")
        }
        #expect(endpoint.interpretEvents(Self.reply("{}"), for: Self.events()).delivered.isEmpty)
    }
}
