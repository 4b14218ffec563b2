import Foundation
import Hummingbird

/// How the write routes (`/pub`, the batch API) authenticate a known device without a read of
/// their own: the credential comes from a ``DeviceCache`` and is confirmed by the write itself.
extension API {
    /// `device`'s credential when `token` is its token: the cached one when `useCache` and `cache`
    /// holds the device with this token (`cached` is then `true`), else `read` from storage and cached.
    /// - Parameter tokenHash: The token digest a credential holds.
    /// - Throws: 401 for a token that is not the device's, 403 for the admin token.
    func credential<Credential: Sendable>(
        device: String, token: String?, in cache: DeviceCache<Credential>, useCache: Bool, tokenHash: (Credential) -> Data,
        read: (String) async throws -> Credential?
    ) async throws -> (Credential, cached: Bool) {
        if useCache, let token, let known = cache[device], Tokens.equal(Tokens.hash(token), tokenHash(known)) {
            AuthenticationMark.credentialProved()
            return (known, true)
        }
        var found: Credential?
        let principal = try await authenticator.principal(token: token, claimedDevice: device) { device in
            found = try await read(device)
            return found.map(tokenHash)
        }
        guard case .device = principal, let found else {
            throw APIError.forbidden("the admin token reads; only device \(device)'s own token writes its data")
        }
        cache.remember(found, for: device)
        return (found, false)
    }

    /// Answers `request`, authenticated with `credential` (from `cache` when `cached`), with
    /// `attempt` over its body, once the device's rate limit admits it.
    ///
    /// `attempt` confirms a cached credential before it writes anything, in its write's own
    /// transaction or by reading it again, and throws ``CredentialChanged``, having written nothing,
    /// when it no longer holds. Any other refusal of a request with a cached credential (its rate
    /// limit, a body too large, and whatever else `attempt` throws) is answered only once `holds`
    /// confirms that credential: else the refusal may have been the stale cache's. When the
    /// credential no longer holds, the cache entry is dropped and the request is authenticated again
    /// from storage by `reauthenticate` (a revoked token gets 401 there) and tried again.
    /// - Parameters:
    ///   - credentialName: What the credential holds, for the 503 (`token`, `token or OwnTracks profile`).
    ///   - payload: What the body is, for the 503 (`batch`, `message`).
    /// - Throws: 503 with `Retry-After` when the credential changed during each of three attempts.
    func answerWrite<Credential: Sendable>(
        _ request: Request, device: String, credential: Credential, cached: Bool, cache: DeviceCache<Credential>,
        credentialName: String, payload: String, reauthenticate: () async throws -> Credential,
        holds: (Credential) async throws -> Bool, _ attempt: (Data, Credential, _ cached: Bool) async throws -> Response
    ) async throws -> Response {
        var (credential, cached) = (credential, cached)
        let data: Data
        do {
            try await admit(device)
            data = try await body(request)
        } catch {
            if cached, try await !holds(credential) {
                cache.forget(device)
                _ = try await reauthenticate()
            }
            throw error
        }
        for _ in 0..<3 {
            do {
                return try await attempt(data, credential, cached)
            } catch is CredentialChanged {
            } catch {
                if !cached { throw error }
                if try await holds(credential) { throw error }
            }
            cache.forget(device)
            credential = try await reauthenticate()
            cached = false
        }
        throw APIError(
            .serviceUnavailable, "account_changing",
            "device \(device)'s \(credentialName) changed during each of 3 attempts to store this \(payload); nothing was stored; send it again",
            retryAfter: 1)
    }
}
