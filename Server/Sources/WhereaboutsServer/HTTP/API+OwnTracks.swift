import Foundation
import HTTPTypes
import Hummingbird
import WhereaboutsCore

extension API {
    /// `POST /pub`: OwnTracks HTTP mode. The device is the Basic-auth user (password: its token), or
    /// `X-Limit-D` with a Bearer token. Stores `_type` location, transition, waypoint and waypoints as
    /// records, and card, lwt and status as they came; refuses every other type (``OwnTracksParser/kind(of:)``),
    /// so a 200 always means stored. Answers with an array of `cmd` messages.
    func addOwnTracksRoutes(to router: Router<ServerRequestContext>) {
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
            let kind = try OwnTracksParser.kind(of: message)
            switch kind {
            case .location:
                let record = try OwnTracksParser.location(message, device: device, now: now)
                let counts = try await storage.ingest([record], device: device, at: now)
                metrics.countIngest(accepted: counts.accepted, duplicate: counts.duplicate, rejected: 0)
            case .transition:
                let event = try OwnTracksParser.transition(message, device: device, now: now)
                metrics.countEvents(try await storage.ingest([event], device: device, at: now).accepted)
            case .waypoint:
                try await storage.saveRegions([try OwnTracksParser.waypoint(message)], device: device, at: now)
            case .waypoints:
                try await storage.saveRegions(try OwnTracksParser.waypoints(message), device: device, at: now)
            case .card, .lwt, .status:
                try await storage.saveMessage(kind.rawValue, body: try OwnTracksParser.canonical(message), device: device, at: now)
            }
            let commands = try await storage.takeCommands(device: device, at: now)
            return JSONResponse.make(.ok, commands.map(OwnTracksWire.Command.init))
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
