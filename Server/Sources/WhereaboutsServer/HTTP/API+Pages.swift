import Foundation
import Hummingbird
import NIOCore
import WhereaboutsCore

extension API {
    /// `GET /` lists devices; `GET /devices/{id}?date=YYYY-MM-DD` draws a UTC day. Both take the token
    /// as a Bearer header or, so a browser can open them, as `?token=`.
    func addPageRoutes(to router: Router<ServerRequestContext>) {
        router.get("/") { request, _ -> Response in
            try await authenticator.requireAdmin(request, allowQuery: true, for: "the device list")
            return html(TrackPage.deviceList(try await storage.devices(), tokenQuery: Self.tokenQuery(request)))
        }
        router.get("/devices/:device") { request, context -> Response in
            let device = try deviceID(context)
            let principal = try await authenticator.principal(token: Authenticator.bearer(request, allowQuery: true), claimedDevice: device)
            guard principal == .admin || principal == .device(device) else { throw APIError.forbidden("this token belongs to another device") }
            let day: Date
            if let text = request.uri.queryParameters.get("date") {
                do {
                    day = try Timestamp.validated("\(text)T00:00:00Z", field: "date")
                } catch {
                    throw APIError.badRequest("bad_date", "\(error) (send the day as date=YYYY-MM-DD)")
                }
            } else {
                let last = try await storage.last(device: device)?.fix.timestamp ?? Date()
                day = Date(timeIntervalSince1970: (last.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
            }
            let end = day.addingTimeInterval(86_400)
            var records: [LocationRecord] = []
            try await storage.history(device: device, from: day, to: end, page: 5000) { records += $0 }
            let events = try await storage.events(device: device, from: day, to: end)
            let regions = try await storage.regions(device: device)
            return html(
                TrackPage.day(device: device, day: day, records: records, events: events, regions: regions, tokenQuery: Self.tokenQuery(request)))
        }
    }

    private static func tokenQuery(_ request: Request) -> String {
        guard let token = request.uri.queryParameters.get("token") else { return "" }
        return "?token=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
    }

    private func html(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
