import Foundation
import HTTPTypes
import Hummingbird
import WhereaboutsCore

/// Resolves a request's token to a ``Principal``. Tokens are compared as SHA-256 digests in
/// constant time; only digests are stored.
struct Authenticator: Sendable {
    let storage: any DeviceStorage
    let adminTokenHash: Data?
    let clock: EngineClock

    /// The principal for `token`, when it is the admin token or `device`'s token.
    func principal(token: String?, claimedDevice: String?) async throws -> Principal {
        try await principal(token: token, claimedDevice: claimedDevice) { device in try await storage.tokenHash(device: device) }
    }

    /// The principal for `token`, as ``principal(token:claimedDevice:)`` finds it, with the device's
    /// token digest as `storedHash` gives it (asked only for a valid device id and a token that is not
    /// the admin's).
    func principal(token: String?, claimedDevice: String?, storedHash: (String) async throws -> Data?) async throws -> Principal {
        guard let token, !token.isEmpty else {
            throw APIError.unauthorized(
                "send Authorization: Bearer <token> (a device token from `whereabouts-server device add`, or the admin token)")
        }
        let digest = Tokens.hash(token)
        if let adminTokenHash, Tokens.equal(digest, adminTokenHash) {
            AuthenticationMark.credentialProved()
            return .admin
        }
        if let claimedDevice, DeviceID.isValid(claimedDevice), let stored = try await storedHash(claimedDevice),
            Tokens.equal(digest, stored)
        {
            AuthenticationMark.credentialProved()
            return .device(claimedDevice)
        }
        throw APIError.unauthorized(
            "the token is not valid for this device; use the token printed by `whereabouts-server device add \(claimedDevice ?? "NAME")`")
    }

    /// Requires the caller to be `device` itself (for writes), or the device or the admin (for reads).
    func authorize(_ request: Request, device: String, allowAdmin: Bool) async throws -> Principal {
        let principal = try await self.principal(token: Self.bearer(request), claimedDevice: device)
        switch principal {
        case .device(let id) where id == device: return principal
        case .admin where allowAdmin: return principal
        case .admin: throw APIError.forbidden("the admin token reads; only the device's own token writes its data")
        case .device: throw APIError.forbidden("this token belongs to another device")
        }
    }

    /// Requires the admin token: 401 without a token, 403 with any other.
    func requireAdmin(_ request: Request, for purpose: String) async throws {
        guard let token = Self.bearer(request), !token.isEmpty else {
            throw APIError.unauthorized("\(purpose) needs the admin token: send Authorization: Bearer <admin token>")
        }
        guard let adminTokenHash, Tokens.equal(Tokens.hash(token), adminTokenHash) else {
            throw APIError.forbidden("\(purpose) needs the admin token; this token is not it")
        }
        AuthenticationMark.credentialProved()
    }

    /// Who is looking at an HTML page: the Bearer token when there is one, else the login of
    /// the cookie. A login holds only while the token it logged in with is still the device's (or
    /// the admin's) current one, so rotating or removing a token ends its logins everywhere.
    /// `device` is the device whose page it is, if any.
    func pagePrincipal(_ request: Request, device: String?) async throws -> Principal {
        if let token = Self.bearer(request) { return try await principal(token: token, claimedDevice: device) }
        guard let cookie = LoginCookie.value(in: request), !cookie.isEmpty else {
            throw APIError.unauthorized("log in with a device token or the admin token")
        }
        guard let login = try await storage.login(idHash: Tokens.hash(cookie), at: clock.now()) else {
            throw APIError.unauthorized("your login has ended; log in again")
        }
        let current = if let device = login.device { try await storage.tokenHash(device: device) } else { adminTokenHash }
        guard let current, Tokens.equal(current, login.tokenHash) else {
            throw APIError.unauthorized("the token this login logged in with was rotated or removed; log in with the current one")
        }
        return login.device.map(Principal.device) ?? .admin
    }

    /// Who reads the OwnTracks Recorder API (`/api/0/...`): with Basic auth, the device whose id is
    /// the user and whose token is the password, or the admin for the admin token as the password
    /// (any user); otherwise as for the pages (a Bearer token, then the login cookie).
    func recorderPrincipal(_ request: Request) async throws -> Principal {
        guard case (let user, let password)? = Self.basic(request) else { return try await pagePrincipal(request, device: nil) }
        return try await principal(token: password, claimedDevice: user)
    }

    /// The user and password of a Basic `Authorization`.
    static func basic(_ request: Request) -> (user: String, password: String)? {
        guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
    }

    /// The bearer token from `Authorization`.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst(7))
    }
}
