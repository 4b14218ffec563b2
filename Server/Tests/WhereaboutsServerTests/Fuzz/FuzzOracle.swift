import Foundation
import WhereaboutsCore
import WhereaboutsServer

/// Judges a 2xx answer of the fuzz against the storage of the device it names: what it acknowledged
/// must be stored, and all that is stored must be valid. Bodies are read with `JSONDecoder`, as the
/// server reads them (duplicate keys, byte order marks and encodings are then read alike).
struct FuzzOracle {
    let storage: any TrackStorage
    let device: String

    /// What the device has stored before a request.
    struct Snapshot {
        let locations: Int
        let events: Int
        let messages: Int
    }

    func snapshot() async throws -> Snapshot {
        Snapshot(
            locations: try await records().count, events: try await events().count,
            messages: try await storage.messages(device: device).count)
    }

    /// What is wrong with a 2xx `response` to `request`; empty when nothing is.
    func problems(_ request: FuzzCase, response: RawResponse, before: Snapshot) async throws -> [String] {
        var problems: [String]
        switch request.claim {
        case .nothing: return []
        case .locations(let body):
            problems = try await batch(body, key: "locations", response: response, before: before.locations, held: Set(records().map(\.id)))
        case .events(let body):
            problems = try await batch(body, key: "events", response: response, before: before.events, held: Set(events().map(\.id)))
        case .ownTracks(let body): problems = try await ownTracks(body, before: before)
        case .command(let body): problems = try await command(body)
        }
        return problems + (try await invalidStored())
    }

    /// A batch answer's counts add up, the count grew by `accepted`, and every item not rejected is held.
    private func batch(_ body: Data, key: String, response: RawResponse, before: Int, held: Set<UUID>) async throws -> [String] {
        guard let batch = try? JSONDecoder().decode(SentBatch.self, from: body),
            let items = key == "locations" ? batch.locations : batch.events
        else {
            return ["2xx for a body without a \"\(key)\" array"]
        }
        let reply = response.json
        guard let accepted = reply["accepted"] as? Int, let duplicate = reply["duplicate"] as? Int,
            let rejected = reply["rejected"] as? [[String: Any]]
        else {
            return ["2xx without accepted, duplicate and rejected: \(response.text.prefix(200))"]
        }
        var problems: [String] = []
        if accepted + duplicate + rejected.count != items.count {
            problems.append("\(accepted) + \(duplicate) + \(rejected.count) answered for \(items.count) items")
        }
        if held.count != before + accepted { problems.append("\(accepted) accepted, but the count went from \(before) to \(held.count)") }
        if accepted + duplicate == 0 { problems.append("2xx with nothing stored") }
        let refused = Set(rejected.compactMap { $0["index"] as? Int })
        for (index, item) in items.enumerated() where !refused.contains(index) {
            if item.id.flatMap(UUID.init(uuidString:)).map(held.contains) != true {
                problems.append("item \(index) acknowledged but not held")
            }
        }
        return problems
    }

    /// A sent batch as the server's decoder reads it: each item's `id`, when it is a string.
    private struct SentBatch: Decodable {
        let locations: [SentItem]?
        let events: [SentItem]?
    }

    private struct SentItem: Decodable {
        let id: String?

        init(from decoder: any Decoder) throws {
            id = try? decoder.container(keyedBy: Key.self).decode(String.self, forKey: .id)
        }

        private enum Key: String, CodingKey { case id }
    }

    /// The message a `/pub` 2xx acknowledged is held as sent; an empty body (the app asking for its
    /// friends) is answered and stores nothing.
    private func ownTracks(_ body: Data, before: Snapshot) async throws -> [String] {
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            let after = try await snapshot()
            let unchanged = (after.locations, after.events, after.messages) == (before.locations, before.events, before.messages)
            return unchanged ? [] : ["an empty /pub body stored something"]
        }
        guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let type = message["_type"] as? String else {
            return ["2xx for a body that is not a message with a _type"]
        }
        let number = { (key: String) in OwnTracksWire.number(message[key]) }
        switch type {
        case "location":
            guard let tst = number("tst"), let lat = number("lat"), let lon = number("lon") else {
                return ["location acknowledged without lat, lon, tst"]
            }
            let held = try await records().contains {
                abs($0.fix.timestamp.timeIntervalSince1970 - tst) < 0.001 && $0.fix.coordinate.latitude == lat
                    && $0.fix.coordinate.longitude == lon
            }
            return held ? [] : ["location at \(tst) acknowledged but not held"]
        case "transition":
            let region = (message["rid"] as? String) ?? (message["desc"] as? String) ?? ""
            guard let tst = number("tst") else { return ["transition acknowledged without tst"] }
            let held = try await events().contains { abs($0.timestamp.timeIntervalSince1970 - tst) < 0.001 && $0.regionID == region }
            return held ? [] : ["transition \(region) at \(tst) acknowledged but not held"]
        case "waypoint":
            return try await regionsHeld([message])
        case "waypoints":
            return try await regionsHeld((message["waypoints"] as? [Any] ?? []).compactMap { $0 as? [String: Any] })
        case "card", "lwt", "status":
            let messages = try await storage.messages(device: device)
            return messages.count == before.messages + 1 && messages.last?.type == type ? [] : ["\(type) acknowledged but not held"]
        default:
            return ["2xx for _type \(type)"]
        }
    }

    private func regionsHeld(_ waypoints: [[String: Any]]) async throws -> [String] {
        guard !waypoints.isEmpty else { return ["2xx for no waypoints"] }
        var latest: [String: [String: Any]] = [:]
        for waypoint in waypoints { latest[(waypoint["rid"] as? String) ?? (waypoint["desc"] as? String) ?? ""] = waypoint }
        let held = try await storage.regions(device: device)
        // Numbers, or numeric strings, as the booklet's examples send them.
        let numeric = { (value: Any?) in OwnTracksWire.number(value) ?? (value as? String).flatMap(Double.init) }
        return latest.compactMap { id, waypoint in
            held.contains {
                $0.id == id && $0.latitude == numeric(waypoint["lat"]) && $0.longitude == numeric(waypoint["lon"])
                    && $0.radius == numeric(waypoint["rad"])
            } ? nil : "waypoint \(id.prefix(40)) acknowledged but not held as sent"
        }
    }

    /// A queued command is the one sent (then the device acknowledges every command, as it would).
    private func command(_ body: Data) async throws -> [String] {
        guard let sent = try? JSONDecoder().decode(ServerCommand.self, from: body) else {
            return ["202 for a command that does not decode"]
        }
        // An hour on, every lease has run out: all queued commands show.
        let later = Date().addingTimeInterval(3600)
        guard let tokenHash = try await storage.tokenHash(device: device) else { return ["device \(device) is gone"] }
        let queued = try await storage.ingest([], device: device, tokenHash: tokenHash, acknowledging: [], at: later, lease: 0).commands
        _ = try await storage.ingest([], device: device, tokenHash: tokenHash, acknowledging: queued.map(\.id), at: later, lease: 0)
        return queued.last?.command == sent ? [] : ["command \(sent) acknowledged but \(queued) queued"]
    }

    /// Everything the device has stored lies within the ranges the server article documents. The ranges are
    /// written out here rather than taken from `WireLimits`, so a bound lost there is caught.
    private func invalidStored() async throws -> [String] {
        let latest = Date().addingTimeInterval(86_400)
        let earliest = Date(timeIntervalSince1970: 946_684_800)
        func time(_ date: Date) -> Bool { date >= earliest && date <= latest }
        func place(_ lat: Double?, _ lon: Double?) -> Bool {
            (lat.map { (-90...90).contains($0) } ?? true) && (lon.map { (-180...180).contains($0) } ?? true)
        }
        func regionID(_ id: String) -> Bool {
            !id.isEmpty && id.unicodeScalars.count <= 200 && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        var problems: [String] = []
        for record in try await records() {
            let fix = record.fix
            let valid =
                time(fix.timestamp) && place(fix.coordinate.latitude, fix.coordinate.longitude)
                && (0...100_000).contains(fix.horizontalAccuracy)
                && (fix.altitude.map { (-1_000...100_000).contains($0) } ?? true) && (fix.speed.map { (0...1_000).contains($0) } ?? true)
                && (fix.course.map { $0 >= 0 && $0 < 360 } ?? true) && (0...31_622_400).contains(record.dwell)
            if !valid { problems.append("stored location out of range: \(WireLocation(record))") }
        }
        for event in try await events() where !(time(event.timestamp) && place(event.latitude, event.longitude) && regionID(event.regionID))
        {
            problems.append("stored event out of range: \(event.regionID.prefix(40)) at \(event.timestamp)")
        }
        for region in try await storage.regions(device: device)
        where !(regionID(region.id) && place(region.latitude, region.longitude) && (1...1_000_000).contains(region.radius)) {
            problems.append("stored region out of range: \(region.id.prefix(40)) radius \(region.radius)")
        }
        for message in try await storage.messages(device: device) {
            let type = (try? JSONSerialization.jsonObject(with: Data(message.body.utf8)) as? [String: Any])?["_type"] as? String
            if type != message.type || !["card", "lwt", "status"].contains(message.type) {
                problems.append("stored message invalid: \(message.body.prefix(80))")
            }
        }
        return problems
    }

    private func records() async throws -> [LocationRecord] {
        var records: [LocationRecord] = []
        try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 5000) { records += $0 }
        return records
    }

    private func events() async throws -> [ReceivedEvent] {
        try await storage.events(device: device, from: .distantPast, to: .distantFuture)
    }
}
