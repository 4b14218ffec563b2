import Crypto
import Foundation
import WhereaboutsCore

/// The server's parser of OwnTracks JSON messages into our records. Every message `/pub` acknowledges
/// is stored: locations as records with every field the app sent (``OwnTracksFields``), transitions
/// and waypoints as records, and `card`, `lwt` and `status` as they came (``DeviceMessage``); an
/// `encrypted` one is opened first.
enum OwnTracksParser {
    /// The `_type`s `/pub` stores. Matching is exact: OwnTracks types are lowercase.
    enum Kind: String, CaseIterable {
        case location, transition, waypoint, waypoints, card, lwt, status
    }

    /// The message's kind; an `encrypted` one is opened first (``decrypted(_:profile:)``).
    /// - Throws: 400 for a missing or unknown `_type`, naming the accepted ones.
    static func kind(of message: [String: Any]) throws -> Kind {
        let accepted = (Kind.allCases.map(\.rawValue) + ["encrypted"]).joined(separator: ", ")
        guard let type = message["_type"] as? String else {
            throw APIError.badRequest("missing_type", "the message has no \"_type\" string; send one of \(accepted)")
        }
        guard let kind = Kind(rawValue: type) else {
            throw APIError.badRequest(
                "unknown_type",
                "_type \(String(reflecting: String(type.prefix(40)))) is not one this server stores; send one of \(accepted) (OwnTracks types are lowercase)"
            )
        }
        return kind
    }

    /// The message inside a `_type:"encrypted"` one, opened with the device's key (``OwnTracksSecretBox``).
    /// - Throws: 422 when the device has no key or the key does not open it; 400 for a `data` that is
    ///   missing, not base64 or too short, and for a payload that is not one unencrypted JSON message.
    static func decrypted(_ message: [String: Any], profile: OwnTracksProfile) throws -> (message: [String: Any], text: String) {
        let device = profile.device
        guard let key = profile.key else {
            throw APIError(
                .unprocessableContent, "no_key",
                "device \(device) sent an encrypted message but has no OwnTracks key, so nothing was stored; run `whereabouts-server device set-key \(device) KEY` with the app's encryption key, or clear the key in the app"
            )
        }
        guard let data = message["data"] as? String else {
            throw APIError.badRequest(
                "invalid_encrypted", "an encrypted message needs a \"data\" string (base64 of the nonce and ciphertext); nothing was stored"
            )
        }
        let plaintext: Data
        do {
            plaintext = try OwnTracksSecretBox(passphrase: key).open(data)
        } catch .notBase64 {
            throw APIError.badRequest(
                "invalid_encrypted", "the encrypted message's \"data\" is not base64; nothing was stored; send the app's payload unchanged")
        } catch .tooShort(let count) {
            throw APIError.badRequest(
                "invalid_encrypted",
                "the encrypted message's \"data\" holds \(count) bytes, fewer than a 24-byte nonce and a 16-byte authenticator; nothing was stored; send the app's payload unchanged"
            )
        } catch {
            throw APIError(
                .unprocessableContent, "wrong_key",
                "the encrypted message does not open with device \(device)'s key: the app's encryption key differs from the one set with `whereabouts-server device set-key \(device)` (or the payload was altered); nothing was stored; set the same key on both sides"
            )
        }
        guard let inner = try? JSONSerialization.jsonObject(with: plaintext) as? [String: Any], inner["_type"] as? String != "encrypted"
        else {
            throw APIError.badRequest(
                "invalid_encrypted",
                "the encrypted message opens, but not to one unencrypted JSON message such as {\"_type\":\"location\",…}; nothing was stored"
            )
        }
        return (inner, asReceived(plaintext, message: inner))
    }

    /// Refuses a message whose `topic` names another of our devices: a device publishes only its own data.
    /// The topic is looked up as it is stored (``OwnTracksFields/storable(_:)``: a U+0000, which no
    /// profile holds and PostgreSQL cannot compare, read as U+FFFD), so the check is of what is kept.
    /// - Throws: 403 naming the topic, the device it belongs to and the fix.
    static func checkTopic(
        of message: [String: Any], profile: OwnTracksProfile, owner: (String) async throws -> OwnTracksProfile?
    ) async throws {
        guard let topic = OwnTracksFields.storable(message["topic"] as? String), topic != profile.topic,
            let owner = try await owner(topic), owner.device != profile.device
        else { return }
        throw APIError.forbidden(
            "the message's topic \(topic) is device \(owner.device)'s, not \(profile.device)'s (\(profile.topic)); nothing was stored; set the app's username and device id to those of the device whose token it sends"
        )
    }

    /// The OwnTracks fields of a `location` message: the whole message, and the known fields typed
    /// when they have their documented type.
    static func fields(_ message: [String: Any], text: String) -> OwnTracksFields {
        let integer = { (key: String) in OwnTracksWire.number(message[key]).flatMap { Int(exactly: $0.rounded()) } }
        return OwnTracksFields(
            tid: message["tid"] as? String, topic: message["topic"] as? String, battery: integer("batt"), batteryStatus: integer("bs"),
            connectivity: message["conn"] as? String, ssid: message["SSID"] as? String, bssid: message["BSSID"] as? String,
            message: text)
    }

    /// A `_type:"location"` message as a record. `tst` is checked before anything converts it. The
    /// record's id is `_id` when the device sent one, else derived from the message's content
    /// (``locationID(device:content:time:legacyBefore:)``), so an OwnTracks app's resend is recognised.
    static func location(_ message: [String: Any], device: String, now: Date, legacyIDsBefore: Date?) throws -> LocationRecord {
        guard let lat = OwnTracksWire.number(message["lat"]), let lon = OwnTracksWire.number(message["lon"]),
            let tst = OwnTracksWire.number(message["tst"])
        else {
            throw APIError.badRequest("invalid_location", "a location needs numeric lat, lon and tst (epoch seconds)")
        }
        do {
            let time = try WireLimits.time(epochSeconds: tst, field: "tst", now: now)
            let id =
                (message["_id"] as? String).flatMap(UUID.init(uuidString:))
                ?? locationID(device: device, content: "\(tst)|\(lat)|\(lon)", time: time, legacyBefore: legacyIDsBefore)
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

    /// A `_type:"transition"` message as a region event: `event` enter, leave or dwell (which our own
    /// uploader sends), `initial: true` for a state found when monitoring started; the id is `_id`
    /// when the device sent one, else derived from the content. `tst` is checked before anything
    /// converts it.
    static func transition(_ message: [String: Any], device: String, now: Date) throws -> ReceivedEvent {
        let region = (message["rid"] as? String) ?? (message["desc"] as? String) ?? ""
        let kinds = ["enter": "enter", "leave": "exit", "dwell": "dwell"]
        guard let tst = OwnTracksWire.number(message["tst"]), let event = message["event"] as? String, let kind = kinds[event] else {
            throw APIError.badRequest("invalid_transition", "a transition needs tst and event enter, leave or dwell")
        }
        do {
            let time = try WireLimits.time(epochSeconds: tst, field: "tst", now: now)
            let id = (message["_id"] as? String).flatMap(UUID.init(uuidString:)) ?? derivedID(device, "\(region)|\(tst)|\(event)")
            let wire = WireEvent(
                id: id.uuidString, regionId: region, kind: kind, timestamp: Timestamp.format(time),
                latitude: OwnTracksWire.number(message["lat"]),
                longitude: OwnTracksWire.number(message["lon"]), initial: message["initial"] as? Bool ?? false)
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
                "invalid_waypoints",
                "\"waypoints\" must be a non-empty array of waypoint objects ({\"desc\", \"lat\", \"lon\", \"rad\"}); nothing was stored")
        }
        return try list.enumerated().map { index, item in
            guard let object = item as? [String: Any] else {
                throw APIError.badRequest("invalid_waypoint", "waypoints[\(index)] is not an object; nothing was stored")
            }
            return try waypoint(object, place: "waypoints[\(index)]")
        }
    }

    /// Whether `byte` is one of JSON's four whitespace characters, the only ones a JSON text may have
    /// around its value.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The message as it came, the form every message is kept in: `data`, the JSON text `message`
    /// was parsed from, without surrounding whitespace. Text that is not UTF-8 (JSON in UTF-16, say)
    /// is written out again from `message` as UTF-8.
    static func asReceived(_ data: Data, message: [String: Any]) -> String {
        if let first = data.firstIndex(where: { !isSpace($0) }), let last = data.lastIndex(where: { !isSpace($0) }),
            let text = String(validating: data[first...last], as: UTF8.self)
        {
            return text
        }
        let utf8 =
            (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The id of a location sent without `_id`, from its device and `content` (its time and place): a
    /// version 7 id (``RecordID``) for the location's `time` whose other bits are the hash
    /// ``derivedID(_:_:)`` uses. A device's new locations so reach the `(device, id)` indexes at their
    /// right-hand edge, as our own clients' ids do, instead of dirtying a random page each, and a
    /// resend gets the same id.
    ///
    /// A location timed before `legacyBefore` (``OwnTracksStorage/ownTracksLegacyIDsBefore()``, set
    /// when this scheme came to a database an earlier server made) keeps the name-based id earlier
    /// servers derived, so a message they stored whose answer was lost is still recognised when it is
    /// resent.
    static func locationID(device: String, content: String, time: Date, legacyBefore: Date?) -> UUID {
        if let legacyBefore, time < legacyBefore { return derivedID(device, content) }
        let digest = digest(device, content)
        let word = { (bytes: ArraySlice<UInt8>) in bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        return RecordID.make(at: time, bits: (word(digest[0..<8]), word(digest[8..<16])))
    }

    /// A name-based UUID: the first 16 bytes of SHA-256 over the device and the content, with version 5
    /// bits: the id of a transition sent without `_id`, and of a location timed before
    /// ``locationID(device:content:time:legacyBefore:)``'s `legacyBefore`.
    static func derivedID(_ device: String, _ content: String) -> UUID {
        var bytes = digest(device, content)
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The first 16 bytes of SHA-256 over the device and the content.
    private static func digest(_ device: String, _ content: String) -> [UInt8] {
        Array(SHA256.hash(data: Data("\(device)|\(content)".utf8)).prefix(16))
    }
}
