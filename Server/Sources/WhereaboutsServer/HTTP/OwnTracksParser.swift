import Crypto
import Foundation
import WhereaboutsCore

/// The server's parser of OwnTracks JSON messages into our records. Every message `/pub` acknowledges
/// is stored: locations, transitions and waypoints as records, and `card`, `lwt` and `status` as they
/// came (``DeviceMessage``).
enum OwnTracksParser {
    /// The `_type`s `/pub` stores. Matching is exact: OwnTracks types are lowercase.
    enum Kind: String, CaseIterable {
        case location, transition, waypoint, waypoints, card, lwt, status
    }

    /// The message's kind.
    /// - Throws: 400 for a missing or unknown `_type`, naming the accepted ones; 422 for `encrypted`,
    ///   which this server cannot decrypt yet.
    static func kind(of message: [String: Any]) throws -> Kind {
        let accepted = Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let type = message["_type"] as? String else {
            throw APIError.badRequest("missing_type", "the message has no \"_type\" string; send one of \(accepted)")
        }
        if type == "encrypted" {
            throw APIError(
                .unprocessableContent, "cannot_decrypt",
                "this server cannot decrypt OwnTracks payloads yet, so nothing was stored; clear the encryption key in the app's settings and send again")
        }
        guard let kind = Kind(rawValue: type) else {
            throw APIError.badRequest(
                "unknown_type", "_type \(String(reflecting: String(type.prefix(40)))) is not one this server stores; send one of \(accepted) (OwnTracks types are lowercase)")
        }
        return kind
    }

    /// A `_type:"location"` message as a record. `tst` is checked before anything converts it. The
    /// record's id is `_id` when the device sent one, else derived from the message's content, so an
    /// OwnTracks app's resend is recognised.
    static func location(_ message: [String: Any], device: String, now: Date) throws -> LocationRecord {
        guard let lat = OwnTracksWire.number(message["lat"]), let lon = OwnTracksWire.number(message["lon"]),
            let tst = OwnTracksWire.number(message["tst"])
        else {
            throw APIError.badRequest("invalid_location", "a location needs numeric lat, lon and tst (epoch seconds)")
        }
        do {
            let time = try WireLimits.time(epochSeconds: tst, field: "tst", now: now)
            let id = (message["_id"] as? String).flatMap(UUID.init(uuidString:)) ?? derivedID(device, "\(tst)|\(lat)|\(lon)")
            let wire = WireLocation(
                id: id.uuidString, timestamp: Timestamp.format(time), latitude: lat, longitude: lon,
                accuracy: OwnTracksWire.number(message["acc"]) ?? 0, altitude: OwnTracksWire.number(message["alt"]),
                speed: OwnTracksWire.number(message["vel"]).map { $0 / 3.6 },
                course: OwnTracksWire.number(message["cog"]).map { $0.truncatingRemainder(dividingBy: 360) },
                trigger: OwnTracksWire.trigger(letter: message["t"] as? String).rawValue)
            return try wire.validated(now: now)
        } catch {
            throw APIError.badRequest(
                "invalid_location", "\(error) (OwnTracks acc is our accuracy, alt altitude, vel in km/h speed in m/s, cog course)")
        }
    }

    /// A `_type:"transition"` message as a region event; `tst` is checked before anything converts it.
    static func transition(_ message: [String: Any], device: String, now: Date) throws -> ReceivedEvent {
        let region = (message["rid"] as? String) ?? (message["desc"] as? String) ?? ""
        guard let tst = OwnTracksWire.number(message["tst"]), let event = message["event"] as? String, ["enter", "leave"].contains(event) else {
            throw APIError.badRequest("invalid_transition", "a transition needs tst and event enter or leave")
        }
        do {
            let time = try WireLimits.time(epochSeconds: tst, field: "tst", now: now)
            let wire = WireEvent(
                id: derivedID(device, "\(region)|\(tst)|\(event)").uuidString, regionId: region, kind: event == "enter" ? "enter" : "exit",
                timestamp: Timestamp.format(time), latitude: OwnTracksWire.number(message["lat"]),
                longitude: OwnTracksWire.number(message["lon"]))
            return try wire.validated(now: now)
        } catch {
            throw APIError.badRequest("invalid_transition", "\(error)")
        }
    }

    /// A `_type:"waypoint"` message (a region the user defined on the phone) as a region; `place` names
    /// it in the error.
    static func waypoint(_ message: [String: Any], place: String = "the waypoint") throws -> WireRegion {
        do {
            return try OwnTracksWire.waypoint(message)
        } catch {
            throw APIError.badRequest("invalid_waypoint", "\(place): \(error); nothing was stored")
        }
    }

    /// A `_type:"waypoints"` message: a non-empty array of waypoints, all valid, else nothing is stored.
    static func waypoints(_ message: [String: Any]) throws -> [WireRegion] {
        guard let list = message["waypoints"] as? [Any], !list.isEmpty else {
            throw APIError.badRequest(
                "invalid_waypoints", "\"waypoints\" must be a non-empty array of waypoint objects ({\"desc\", \"lat\", \"lon\", \"rad\"}); nothing was stored")
        }
        return try list.enumerated().map { index, item in
            guard let object = item as? [String: Any] else {
                throw APIError.badRequest("invalid_waypoint", "waypoints[\(index)] is not an object; nothing was stored")
            }
            return try waypoint(object, place: "waypoints[\(index)]")
        }
    }

    /// The message as sorted-key JSON, the form `card`, `lwt` and `status` are kept in.
    static func canonical(_ message: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A name-based UUID: the first 16 bytes of SHA-256 over the device and the content.
    static func derivedID(_ device: String, _ content: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("\(device)|\(content)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
