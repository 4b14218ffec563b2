import Foundation
import HTTPTypes
import Hummingbird
import WhereaboutsCore

/// Slows token guessing down without locking out anyone whose token works. A request that carries
/// a credential (an `Authorization` header, or the login form) and is refused with 401 or 403 costs
/// two buckets refilled at ``ServerSettings/loginFailuresPerMinute``: that credential's from that
/// client address, and, the first time that credential fails there lately, the address's own, which
/// counts the different credentials failing from it. While either is empty, the address's requests
/// with that credential (or, for the address's bucket, with any credential not known to work) get 429
/// with `Retry-After` before they are looked at. A credential that proved valid is never held back,
/// until it is refused with 401: one phone retrying a rotated token from behind a carrier's NAT slows
/// only itself. Requests without a credential, such as `/health`, are never throttled.
struct LoginThrottleMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    /// Failures by client address and credential.
    let failures: RateLimiter
    /// Different credentials failing, by client address.
    let guesses: RateLimiter
    let proven = ProvenCredentials()
    let trustForwardedFor: Bool
    let clock: EngineClock

    init(settings: ServerSettings, clock: EngineClock) {
        let perMinute = Double(settings.loginFailuresPerMinute)
        failures = RateLimiter(rate: perMinute / 60, burst: perMinute)
        guesses = RateLimiter(rate: perMinute / 60, burst: perMinute)
        trustForwardedFor = settings.trustForwardedFor
        self.clock = clock
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        guard let client = clientAddress(request, context: context), let credential = try await credential(of: &request) else {
            return try await next(request, context)
        }
        let digest = Tokens.hash(credential)
        let key = "\(client) \(digest.base64EncodedString())"
        let known = await proven.contains(digest)
        if !known, let wait = await failures.wait(key, now: clock.now()) {
            throw APIError(
                .tooManyRequests, "login_throttled",
                "too many failed logins with this token from \(client); retry after \(wait) s, or use the current token (a rotated one no longer works)",
                retryAfter: wait)
        }
        if !known, let wait = await guesses.wait(client, now: clock.now()) {
            throw APIError(
                .tooManyRequests, "login_throttled",
                "too many failed logins with different tokens from \(client); retry after \(wait) s (a token that worked before still gets in)",
                retryAfter: wait)
        }
        let mark = AuthenticationMark()
        do {
            let response = try await AuthenticationMark.$current.withValue(mark) { try await next(request, context) }
            await settle(response.status, mark: mark, known: known, digest: digest, key: key, client: client)
            return response
        } catch let error as any HTTPResponseError {
            await settle(error.status, mark: mark, known: known, digest: digest, key: key, client: client)
            throw error
        }
    }

    /// Counts a refusal against the credential and the address, or remembers a credential that proved valid.
    private func settle(_ status: HTTPResponse.Status, mark: AuthenticationMark, known: Bool, digest: Data, key: String, client: String)
        async
    {
        switch status {
        case .unauthorized:
            await proven.remove(digest)
        case .forbidden where !known && !mark.credentialWasProved:
            break
        default:
            if mark.credentialWasProved { await proven.insert(digest) }
            return
        }
        let now = clock.now()
        if await failures.isFull(key, now: now) { _ = await guesses.admit(client, now: now) }
        _ = await failures.admit(key, now: now)
    }

    /// What the request authenticates with: its `Authorization` header, or the body of a login form
    /// (collected here, and handed on to the route); `nil` when it carries none.
    private func credential(of request: inout Request) async throws -> String? {
        if let authorization = request.headers[.authorization] { return authorization }
        guard request.method == .post, request.uri.path == "/login" else { return nil }
        return String(buffer: try await request.collectBody(upTo: Self.maxLoginForm))
    }

    /// The largest login form read.
    static let maxLoginForm = 64 * 1024

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
