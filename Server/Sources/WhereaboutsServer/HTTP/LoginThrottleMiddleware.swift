import Foundation
import HTTPTypes
import Hummingbird

/// Slows token guessing down: each 401 answer to a request that carries a token (an `Authorization`
/// header, or the login form) costs the client address a token of a bucket refilled at
/// ``ServerSettings/loginFailuresPerMinute``; while it has none left, its requests that carry a token
/// get 429 with `Retry-After` before they are looked at. Requests without one, such as `/health`,
/// are never throttled.
struct LoginThrottleMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let failures: RateLimiter
    let trustForwardedFor: Bool

    init(settings: ServerSettings) {
        let perMinute = Double(settings.loginFailuresPerMinute)
        failures = RateLimiter(rate: perMinute / 60, burst: perMinute)
        trustForwardedFor = settings.trustForwardedFor
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.authorization] != nil || (request.method == .post && request.uri.path == "/login"),
            let client = clientAddress(request, context: context)
        else { return try await next(request, context) }
        if let wait = await failures.wait(client) {
            throw APIError(
                .tooManyRequests, "login_throttled", "too many failed logins from \(client); retry after \(wait) s with a valid token",
                retryAfter: wait)
        }
        do {
            let response = try await next(request, context)
            if response.status == .unauthorized { _ = await failures.admit(client) }
            return response
        } catch let error as any HTTPResponseError where error.status == .unauthorized {
            _ = await failures.admit(client)
            throw error
        }
    }

    /// The peer's IP address, or the last `X-Forwarded-For` entry when the peer is a trusted proxy.
    private func clientAddress(_ request: Request, context: Context) -> String? {
        if trustForwardedFor,
            let last = request.headers[values: .xForwardedFor].joined(separator: ",").split(separator: ",").last?.trimmingCharacters(
                in: .whitespaces),
            !last.isEmpty
        {
            return last
        }
        return context.remoteAddress?.ipAddress
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`, written by reverse proxies.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
