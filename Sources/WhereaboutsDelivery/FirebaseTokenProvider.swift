import Foundation
import WhereaboutsCore

/// Firebase ID tokens kept in the store and renewed from the refresh token, as the travel app does:
/// `POST {base}/v1/token?key={apiKey}` with `grant_type=refresh_token`, answered with `id_token`,
/// `refresh_token` and `expires_in`. A token close to expiry is renewed before use
/// (``AuthTokens/usableIDToken(at:)``). A renewal answered after the stored tokens changed (a
/// sign-out, another user's sign-in) is not stored.
public actor FirebaseTokenProvider: CredentialProvider {
    private let store: any SettingStore
    private let apiKey: String
    private let base: URL
    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Date

    /// Creates a provider.
    /// - Parameter base: `https://securetoken.googleapis.com` in production; a local server in tests.
    public init(
        store: any SettingStore, apiKey: String, base: URL = URL(string: "https://securetoken.googleapis.com")!,
        transport: any HTTPTransport, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.apiKey = apiKey
        self.base = base
        self.transport = transport
        self.clock = clock
    }

    public func current() async throws -> CredentialState {
        guard let tokens = try store.setting(.authTokens) else { return .signedOut }
        if let idToken = tokens.usableIDToken(at: clock()) { return .present(.bearer(idToken)) }
        return try await refreshed()
    }

    public func refreshed() async throws -> CredentialState {
        guard var tokens = try store.setting(.authTokens), let refreshToken = tokens.refreshToken else { return .signedOut }
        var components = URLComponents(url: base.appendingPathComponent("v1/token"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "key", value: apiKey)]
        let form = "grant_type=refresh_token&refresh_token=\(Self.formEncode(refreshToken))"
        let reply = try await transport.send(
            OutgoingRequest(
                method: "POST", url: components.url!, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(form.utf8)),
            timeout: 30)
        // The user may have signed out, or in as someone else, while the request was out: the
        // tokens stored since stand, and this answer, for the old ones, is dropped.
        guard try store.setting(.authTokens)?.refreshToken == refreshToken else { return try await current() }
        guard reply.status == 200, let answer = try? JSONDecoder().decode(RefreshAnswer.self, from: reply.body) else {
            // A refused refresh token signs out; a busy or slow token service (408, 429) is tried again later.
            if (400..<500).contains(reply.status), ![408, 429].contains(reply.status) {
                tokens.idToken = nil
                try store.set(.authTokens, tokens)
                return .signedOut
            }
            throw URLError(.badServerResponse)
        }
        let renewed = tokens.renewed(
            idToken: answer.idToken, lifetime: Double(answer.expiresIn ?? "3600") ?? 3600, refreshToken: answer.refreshToken,
            userID: answer.userID, at: clock())
        try store.set(.authTokens, renewed)
        return .present(.bearer(answer.idToken))
    }

    private static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private struct RefreshAnswer: Decodable {
        let idToken: String
        let refreshToken: String?
        let expiresIn: String?
        let userID: String?

        private enum CodingKeys: String, CodingKey {
            case idToken = "id_token"
            case refreshToken = "refresh_token"
            case expiresIn = "expires_in"
            case userID = "user_id"
        }
    }
}
