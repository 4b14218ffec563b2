import Foundation
import HTTPTypes
import Hummingbird
import WhereaboutsCore

extension API {
    /// The OwnTracks Recorder's API (its `API.md`), so OwnTracks Frontend can read us: `/api/0/version`,
    /// `/api/0/list`, `/api/0/last` and `/api/0/locations`, by GET or POST, with parameters in the
    /// query or a POSTed form; `X-Limit-User`, `X-Limit-Device`, `X-Limit-From`, `X-Limit-To` and
    /// `X-Limit-Fields` win over them, as on the Recorder (``RecorderParameters/headerFirst``).
    /// Devices appear as OwnTracks users and devices through their ``OwnTracksProfile``; the admin sees
    /// every device, a device the devices of its OwnTracks user.
    func addRecorderRoutes(to router: Router<ServerRequestContext>) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/api/0/version", method: method) { _, _ -> Response in
                RecorderObjects.response(["version": Self.recorderAPIVersion, "git": "whereabouts-server"])
            }
            router.on("/api/0/list", method: method) { request, _ -> Response in
                let (parameters, visible) = try await recorderRequest(request)
                switch (parameters.user, parameters.device) {
                case (nil, _):
                    return RecorderObjects.response(["results": Array(Set(visible.map(\.ownTracksUser))).sorted()])
                case (let user?, nil):
                    return RecorderObjects.response(["results": visible.filter { $0.ownTracksUser == user }.map(\.ownTracksDevice).sorted()]
                    )
                case (let user?, let device?):
                    throw APIError.badRequest(
                        "unsupported",
                        "listing \(user)/\(device)'s .rec files has no meaning here (nothing is kept in files); read its locations with /api/0/locations?user=\(user)&device=\(device)"
                    )
                }
            }
            router.on("/api/0/last", method: method) { request, _ -> Response in
                let (parameters, visible) = try await recorderRequest(request)
                var objects: [[String: Any]] = []
                for profile in visible where parameters.matches(profile) {
                    guard
                        let last = try await storage.ownTracksLocations(
                            device: profile.device, from: .distantPast, to: .distantFuture, limit: 1
                        ).first
                    else { continue }
                    objects.append(parameters.selecting(try await lastObject(last, profile: profile)))
                }
                return RecorderObjects.response(objects)
            }
            router.on("/api/0/locations", method: method) { request, _ -> Response in
                let (parameters, visible) = try await recorderRequest(request)
                guard let user = parameters.user, let device = parameters.device else {
                    throw APIError.badRequest(
                        "missing_user_device",
                        "/api/0/locations needs user and device (e.g. ?user=jane&device=phone); /api/0/list shows them")
                }
                guard let profile = visible.first(where: { $0.ownTracksUser == user && $0.ownTracksDevice == device }) else {
                    throw APIError(
                        .notFound, "unknown_device",
                        "no device \(user)/\(device) this login may read; /api/0/list shows the users, ?user=\(user) their devices")
                }
                let range = try parameters.range(now: clock.now())
                let locations = try await boundedLocations(of: profile, in: range, limit: parameters.limit)
                let objects = locations.map { parameters.selecting(RecorderObjects.location($0, profile: profile, history: true)) }
                switch parameters.format {
                case .json:
                    return RecorderObjects.response([
                        "count": objects.count, "data": objects, "status": 200, "version": Self.recorderAPIVersion,
                    ])
                case .geojson: return RecorderObjects.response(RecorderObjects.geoJSON(objects))
                case .geojsonpoi: return RecorderObjects.response(RecorderObjects.geoJSONPOI(objects))
                case .linestring: return RecorderObjects.response(RecorderObjects.lineString(objects))
                }
            }
        }
    }

    /// The locations `/api/0/locations` answers with: the newest `limit` in `range` (newest first),
    /// or all of them (oldest first), never more than ``ServerSettings/maxRecorderLocations``.
    /// - Throws: 400 `too_many_locations` when `range` holds more than that.
    private func boundedLocations(of profile: OwnTracksProfile, in range: Range<Date>, limit: Int?) async throws -> [OwnTracksLocation] {
        let most = settings.maxRecorderLocations
        let newest = try await storage.ownTracksLocations(
            device: profile.device, from: range.lowerBound, to: range.upperBound, limit: min(limit ?? most + 1, most + 1))
        guard newest.count <= most else {
            throw APIError.badRequest(
                "too_many_locations",
                "\(profile.topic) has more than \(most) locations from \(Timestamp.format(range.lowerBound)) to \(Timestamp.format(range.upperBound)): ask for a shorter range (from, to) or the newest (limit=\(most) or less)"
            )
        }
        return limit == nil ? newest.reversed() : newest
    }

    /// The Recorder release whose API these routes follow.
    static let recorderAPIVersion = "1.0.1"

    /// The request's parameters and the profiles its login may read.
    private func recorderRequest(_ request: Request) async throws -> (RecorderParameters, [OwnTracksProfile]) {
        let principal = try await authenticator.recorderPrincipal(request)
        var form: [String: String] = [:]
        if request.method == .post {
            let text = String(decoding: try await body(request), as: UTF8.self).replacingOccurrences(of: "+", with: " ")
            for item in URLComponents(string: "?" + text)?.queryItems ?? [] { form[item.name] = item.value }
        }
        let parameters = try RecorderParameters(
            header: { request.headers[HTTPField.Name($0)!] }, parameter: { request.uri.queryParameters.get($0) ?? form[$0] })
        return (parameters, try await visibleProfiles(principal))
    }

    /// `location` as `/api/0/last` shows it: the Recorder's location object with the device's last card merged in.
    func lastObject(_ location: OwnTracksLocation, profile: OwnTracksProfile) async throws -> [String: Any] {
        RecorderObjects.merging(
            card: try await storage.lastMessage("card", device: profile.device),
            into: RecorderObjects.location(location, profile: profile, history: false))
    }

    /// The profiles `principal` may read through the Recorder API.
    func visibleProfiles(_ principal: Principal) async throws -> [OwnTracksProfile] {
        let profiles = try await storage.ownTracksProfiles()
        switch principal {
        case .admin: return profiles
        case .device(let id):
            // A device sees the devices its OwnTracks user was explicitly given to (`device set-user`).
            // A user that is only a device id by default shares nothing: naming a device after another
            // device's id must not open either's history to the other.
            let user = profiles.first { $0.device == id }?.user
            return profiles.filter { $0.device == id || (user != nil && $0.user == user) }
        }
    }
}
