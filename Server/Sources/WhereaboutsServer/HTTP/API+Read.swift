import Foundation
import Hummingbird
import NIOCore
import WhereaboutsCore

extension API {
    func addReadRoutes(to router: Router<ServerRequestContext>) {
        router.get("/health") { _, _ -> Response in try await health(withBody: true) }
        router.head("/health") { _, _ -> Response in try await health(withBody: false) }
        router.get("/metrics") { request, _ -> Response in
            if !settings.publicMetrics { try await authenticator.requireAdmin(request, for: "reading the metrics") }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
        }
        router.get("/v1/devices") { request, _ -> Response in
            try await authenticator.requireAdmin(request, for: "listing devices")
            return JSONResponse.make(.ok, ["devices": try await storage.devices()])
        }
        router.get("/v1/devices/:device/last") { request, context -> Response in
            let device = try deviceID(context)
            _ = try await authenticator.authorize(request, device: device, allowAdmin: true)
            guard let record = try await storage.last(device: device) else {
                throw APIError.notFound("device \(device) has no locations yet")
            }
            return JSONResponse.make(.ok, WireLocation(record))
        }
        router.get("/v1/devices/:device/locations") { request, context -> Response in
            let device = try deviceID(context)
            _ = try await authenticator.authorize(request, device: device, allowAdmin: true)
            let query = request.uri.queryParameters
            let from = try Self.time(query.get("from"), name: "from") ?? Date(timeIntervalSince1970: 0)
            let to = try Self.time(query.get("to"), name: "to") ?? Date(timeIntervalSince1970: 1e11)
            guard from <= to else {
                let named = { (name: String, value: Date) in
                    query.get(name).map { "\(name)=\($0.prefix(40))" } ?? "\(name) (by default \(Timestamp.format(value)))"
                }
                throw APIError.badRequest("bad_range", "\(named("from", from)) is after \(named("to", to)); send from before to")
            }
            let name = query.get("format") ?? "json"
            guard let format = TrackExport(rawValue: name) else {
                throw APIError.badRequest("bad_format", "format=\(name.prefix(40)) is not one of json, geojson, gpx, csv")
            }
            let storage = storage
            return Response(
                status: .ok, headers: [.contentType: format.contentType],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: format.prologue(device: device)))
                    var first = true
                    try await storage.history(device: device, from: from, to: to, page: 1000) { records in
                        var chunk = ""
                        for record in records {
                            chunk += format.item(record, first: first)
                            first = false
                        }
                        try await writer.write(ByteBuffer(string: chunk))
                    }
                    try await writer.write(ByteBuffer(string: format.epilogue))
                    try await writer.finish(nil)
                })
        }
        router.post("/v1/devices/:device/commands") { request, context -> Response in
            let device = try deviceID(context)
            try await authenticator.requireAdmin(request, for: "queueing commands")
            guard try await storage.tokenHash(device: device) != nil else { throw APIError.notFound("device \(device) does not exist") }
            let command = try decode(
                ServerCommand.self, from: try await body(request),
                shape:
                    "{\"type\": \"reportLocation\"}, {\"type\": \"startActiveTracking\", \"minutes\": 15} or {\"type\": \"setRegions\", \"regions\": [...]}"
            )
            if case .setRegions(let regions) = command {
                for (index, region) in regions.enumerated() {
                    do { _ = try region.region() } catch {
                        throw APIError(
                            .unprocessableContent, "invalid_region", "region \(index) is invalid",
                            items: [ItemRejection(index: index, reason: "\(error)")])
                    }
                }
            }
            let now = clock.now()
            let queued = DeviceCommand(id: recordIDs(now).uuidString.lowercased(), command: command)
            try await storage.queue(queued, device: device, at: now)
            return JSONResponse.make(.accepted, queued)
        }
    }

    /// Liveness with a database ping: 200, or 503 when the database does not answer; HEAD gets the
    /// status alone.
    private func health(withBody: Bool) async throws -> Response {
        let (status, answer): (HTTPResponse.Status, [String: String])
        do {
            try await storage.ping()
            (status, answer) = (.ok, ["status": "ok", "storage": storage.kind])
        } catch {
            (status, answer) = (.serviceUnavailable, ["status": "unavailable", "storage": storage.kind, "message": "\(error)"])
        }
        return withBody ? JSONResponse.make(status, answer) : Response(status: status)
    }

    /// A `from`/`to` query value: epoch seconds, or an RFC 3339 time that exists.
    static func time(_ text: String?, name: String) throws -> Date? {
        guard let text else { return nil }
        if let seconds = Double(text) {
            guard seconds.isFinite else {
                throw APIError.badRequest("bad_time", "\(name)=\(text.prefix(40)) is not a finite number of epoch seconds")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        do {
            return try Timestamp.validated(text, field: name)
        } catch {
            throw APIError.badRequest("bad_time", "\(error) (or send epoch seconds)")
        }
    }
}
