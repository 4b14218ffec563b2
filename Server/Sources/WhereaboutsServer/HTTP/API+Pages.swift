import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WhereaboutsCore

extension API {
    /// The HTML pages: `GET /login` and `POST /login` (a form: device id and token, or the admin token
    /// alone) set an HttpOnly, SameSite=Strict login cookie; `POST /logout` ends it. `GET /` lists
    /// devices (admin); `GET /devices/{id}?date=YYYY-MM-DD` draws a UTC day on a map. The pages also
    /// take a Bearer header; without a valid login they answer 401 with the login form.
    func addPageRoutes(to router: Router<ServerRequestContext>) {
        router.get("/login") { _, _ -> Response in
            html(LoginPage.html(problem: nil, device: nil))
        }
        router.post("/login") { request, context -> Response in
            let form = URLComponents(
                string: "?" + String(decoding: try await body(request), as: UTF8.self).replacingOccurrences(of: "+", with: " "))
            let field = { (name: String) in form?.queryItems?.first { $0.name == name }?.value?.trimmingCharacters(in: .whitespaces) ?? "" }
            let device = field("device")
            let token = field("token")
            let principal: Principal
            do {
                principal = try await authenticator.principal(token: token, claimedDevice: device.isEmpty ? nil : device)
            } catch let error as APIError {
                return html(LoginPage.html(problem: error.message, device: device), status: error.status)
            }
            let secret = Tokens.generate()
            let owner: String? = if case .device(let id) = principal { id } else { nil }
            let now = clock.now()
            try await storage.saveLogin(
                BrowserLogin(
                    idHash: Tokens.hash(secret), device: owner, tokenHash: Tokens.hash(token), createdAt: now,
                    expiresAt: now.addingTimeInterval(settings.loginLifetime)))
            var response = redirect(to: owner.map { "/devices/\($0)" } ?? "/")
            response.headers[.setCookie] = LoginCookie.setting(secret, lifetime: settings.loginLifetime, secure: behindTLS(request))
            return response
        }
        router.post("/logout") { request, _ -> Response in
            if let cookie = LoginCookie.value(in: request) { try await storage.endLogin(idHash: Tokens.hash(cookie), at: clock.now()) }
            var response = redirect(to: "/login")
            response.headers[.setCookie] = LoginCookie.clearing(secure: behindTLS(request))
            return response
        }
        router.get("/") { request, _ -> Response in
            try await page(request) {
                switch try await authenticator.pagePrincipal(request, device: nil) {
                case .admin: return html(TrackPage.deviceList(try await storage.devices()))
                case .device(let id): return redirect(to: "/devices/\(id)")
                }
            }
        }
        router.get("/devices/:device") { request, context -> Response in
            try await page(request) {
                let device = try deviceID(context)
                let principal = try await authenticator.pagePrincipal(request, device: device)
                guard principal == .admin || principal == .device(device) else {
                    throw APIError.forbidden("this login belongs to another device")
                }
                return try await dayPage(request, device: device, listLink: principal == .admin)
            }
        }
        for (name, file) in assets.files {
            router.get(RouterPath("/assets/" + name)) { _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: file.contentType, .cacheControl: "public, max-age=86400"],
                    body: ResponseBody(byteBuffer: file.body))
            }
        }
    }

    private func dayPage(_ request: Request, device: String, listLink: Bool) async throws -> Response {
        let day: Date
        if let text = request.uri.queryParameters.get("date") {
            do {
                day = try Timestamp.validated("\(text)T00:00:00Z", field: "date")
            } catch {
                throw APIError.badRequest("bad_date", "\(error) (send the day as date=YYYY-MM-DD)")
            }
        } else {
            let last = try await storage.last(device: device)?.fix.timestamp ?? clock.now()
            day = Date(timeIntervalSince1970: (last.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        }
        let end = day.addingTimeInterval(86_400)
        var records: [LocationRecord] = []
        try await storage.history(device: device, from: day, to: end, page: 5000) { records += $0 }
        let events = try await storage.events(device: device, from: day, to: end)
        let regions = try await storage.regions(device: device)
        return html(
            TrackPage.day(device: device, day: day, records: records, events: events, regions: regions, map: map, listLink: listLink))
    }

    /// Runs a page's handler; a refusal becomes an HTML answer with the same status: the login form
    /// for 401, the message otherwise.
    private func page(_ request: Request, _ handler: () async throws -> Response) async throws -> Response {
        do {
            return try await handler()
        } catch let error as APIError where error.status == .unauthorized {
            return html(LoginPage.html(problem: error.message, device: nil), status: .unauthorized)
        } catch let error as APIError where error.status.code < 500 {
            let body =
                "<h1>\(error.status.code) \(TrackPage.escape(error.status.reasonPhrase))</h1><p>\(TrackPage.escape(error.message))</p>"
            return html(TrackPage.page(title: "Whereabouts: \(error.status.code)", loggedIn: true, body: body), status: error.status)
        }
    }

    /// Whether the request came through a TLS proxy (trusted, and saying `X-Forwarded-Proto: https`),
    /// so cookies are marked `Secure`.
    private func behindTLS(_ request: Request) -> Bool {
        settings.trustForwardedFor && request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    private func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// An HTML answer, never cached, with a Content-Security-Policy allowing only this server's
    /// scripts and styles, and images from it and the tile server.
    private func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        let images = ["'self'", "data:", map?.tileOrigin ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'self'; img-src \(images); style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
