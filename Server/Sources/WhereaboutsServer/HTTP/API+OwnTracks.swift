import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import WhereaboutsCore

extension API {
    /// `POST /pub`: OwnTracks HTTP mode. The device is the Basic-auth user (password: its token), or
    /// `X-Limit-D` with a Bearer token. Stores `_type` location, transition and waypoint(s); other
    /// types (card, lwt, status) are acknowledged and ignored. Answers with an array of `cmd` messages.
    func addOwnTracksRoutes(to router: Router<BasicRequestContext>) {
        router.post("/pub") { request, context -> Response in
            let (device, token) = ownTracksIdentity(request)
            guard let device else {
                throw APIError.unauthorized("OwnTracks HTTP mode needs Basic auth (user = device id, password = device token) or X-Limit-D with a Bearer token")
            }
            guard case .device = try await authenticator.principal(token: token, claimedDevice: device) else {
                throw APIError.forbidden("only the device's own token publishes its locations")
            }
            try await admit(device)
            let data = try await body(request)
            guard let message = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw APIError.badRequest("malformed_json", "the body is not a JSON object; send one OwnTracks message such as {\"_type\":\"location\",…}")
            }
            let now = Date()
            switch message["_type"] as? String {
            case "location":
                let record = try OwnTracksMessage.location(message, device: device, now: now)
                let counts = try await storage.ingest([record], device: device, at: now)
                metrics.countIngest(accepted: counts.accepted, duplicate: counts.duplicate, rejected: 0)
            case "transition":
                let event = try OwnTracksMessage.transition(message, device: device, now: now)
                metrics.countEvents(try await storage.ingest([event], device: device, at: now).accepted)
            case "waypoint":
                try await storage.saveRegions([try OwnTracksMessage.waypoint(message)], device: device, at: now)
            case "waypoints":
                let list = message["waypoints"] as? [[String: Any]] ?? []
                try await storage.saveRegions(try list.map(OwnTracksMessage.waypoint), device: device, at: now)
            default:
                break
            }
            let commands = try await storage.takeCommands(device: device)
            return JSONResponse.make(.ok, commands.map(OwnTracksMessages.Command.init))
        }
    }

    private func ownTracksIdentity(_ request: Request) -> (device: String?, token: String?) {
        if let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
        }
        let device = request.headers[HTTPField.Name("X-Limit-D")!] ?? request.uri.queryParameters.get("d")
        return (device, Authenticator.bearer(request))
    }
}

/// OwnTracks JSON messages to and from our records.
enum OwnTracksMessage {
    /// A `_type:"location"` message as a record. The record's id is `_id` when the device sent one,
    /// else derived from the message's content, so an OwnTracks app's resend is recognised.
    static func location(_ message: [String: Any], device: String, now: Date) throws -> LocationRecord {
        guard let lat = OwnTracksMessages.number(message["lat"]), let lon = OwnTracksMessages.number(message["lon"]), let tst = OwnTracksMessages.number(message["tst"]) else {
            throw APIError.badRequest("invalid_location", "a location needs numeric lat, lon and tst (epoch seconds)")
        }
        let id = (message["_id"] as? String).flatMap(UUID.init(uuidString:)) ?? derivedID(device, "\(tst)|\(lat)|\(lon)")
        let wire = WireLocation(
            id: id.uuidString, timestamp: Timestamp.format(Date(timeIntervalSince1970: tst)), latitude: lat, longitude: lon,
            accuracy: OwnTracksMessages.number(message["acc"]) ?? 0, altitude: OwnTracksMessages.number(message["alt"]), speed: OwnTracksMessages.number(message["vel"]).map { $0 / 3.6 },
            course: OwnTracksMessages.number(message["cog"]).map { $0.truncatingRemainder(dividingBy: 360) }, trigger: OwnTracksMessages.trigger(letter: message["t"] as? String).rawValue)
        do {
            return try wire.validated(now: now)
        } catch {
            throw APIError.badRequest("invalid_location", error.description)
        }
    }

    /// A `_type:"transition"` message as a region event.
    static func transition(_ message: [String: Any], device: String, now: Date) throws -> ReceivedEvent {
        let region = (message["rid"] as? String) ?? (message["desc"] as? String) ?? ""
        guard let tst = OwnTracksMessages.number(message["tst"]), let event = message["event"] as? String, ["enter", "leave"].contains(event) else {
            throw APIError.badRequest("invalid_transition", "a transition needs tst and event enter or leave")
        }
        let wire = WireEvent(
            id: derivedID(device, "\(region)|\(tst)|\(event)").uuidString, regionId: region, kind: event == "enter" ? "enter" : "exit",
            timestamp: Timestamp.format(Date(timeIntervalSince1970: tst)), latitude: OwnTracksMessages.number(message["lat"]), longitude: OwnTracksMessages.number(message["lon"]))
        do {
            return try wire.validated(now: now)
        } catch {
            throw APIError.badRequest("invalid_transition", "\(error)")
        }
    }

    /// A `_type:"waypoint"` message (a region the user defined on the phone) as a region.
    static func waypoint(_ message: [String: Any]) throws -> WireRegion {
        do {
            return try OwnTracksMessages.waypoint(message)
        } catch {
            throw APIError.badRequest("invalid_waypoint", "\(error)")
        }
    }

    /// A name-based UUID: the first 16 bytes of SHA-256 over the device and the content.
    static func derivedID(_ device: String, _ content: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("\(device)|\(content)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
