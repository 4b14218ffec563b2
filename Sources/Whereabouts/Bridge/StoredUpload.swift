import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

extension Bridge {
    /// An uploader that sends the store's pending records wherever JavaScript's `configure` said,
    /// with the credentials `setAuth` gave. Both are the engine's session values, kept in memory
    /// (`Uploader.account`) and in the store: a change takes effect at the next drain of the queue (a
    /// drain under way ends with the server, credential and batch size it began with), and a
    /// relaunched app uploads to the same place. Until `configure` is called (and after `signOut` for
    /// a server that needs a token) records wait on disk.
    ///
    /// ```swift
    /// let engine = LocationEngine(store: store, service: CoreLocationService(), uploader: Bridge.uploader(store: store))
    /// let bridge = Bridge(engine: engine)
    /// ```
    public static func uploader(
        store: SQLiteLocationStore, transport: any HTTPTransport = URLSessionTransport(), clock: EngineClock = .system
    ) -> Uploader {
        let account = UploadAccountBox()
        return Uploader(
            queue: store, endpoint: AccountUploadEndpoint(account: account), transport: transport,
            credentials: AccountCredentials(
                account: account, tokens: AccountTokenStore(account: account, store: store), transport: transport, clock: clock),
            clock: clock, account: account)
    }
}

/// The endpoint the app's upload settings describe, read from memory at each use.
struct AccountUploadEndpoint: UploadEndpoint {
    let account: UploadAccountBox

    private var current: (any UploadEndpoint)? { account.current.endpoint }

    private func configured() throws -> any UploadEndpoint {
        guard let current else { throw ArgumentProblem("uploads are not configured: call configure({upload}) first") }
        return current
    }

    /// The endpoint the settings name now; itself (which sends nothing) while uploads are not configured.
    func snapshot() -> any UploadEndpoint { current ?? self }

    var name: String { current?.name ?? "unconfigured" }
    var maxBatchSize: Int { current?.maxBatchSize ?? 1 }
    var acceptsAcknowledgements: Bool { current?.acceptsAcknowledgements ?? false }
    var acceptsEvents: Bool { current?.acceptsEvents ?? false }

    func request(for records: [LocationRecord], credential: Credential?) throws -> OutgoingRequest {
        try configured().request(for: records, credential: credential)
    }

    func request(for records: [LocationRecord], acknowledging commands: [String], credential: Credential?) throws -> OutgoingRequest {
        try configured().request(for: records, acknowledging: commands, credential: credential)
    }

    func interpret(_ reply: HTTPReply, for records: [LocationRecord]) -> DeliveryOutcome {
        current?.interpret(reply, for: records) ?? DeliveryOutcome(delivered: [])
    }

    func eventRequest(for events: [EventRecord], credential: Credential?) throws -> OutgoingRequest {
        try configured().eventRequest(for: events, credential: credential)
    }

    func interpretEvents(_ reply: HTTPReply, for events: [EventRecord]) -> DeliveryOutcome {
        current?.interpretEvents(reply, for: events) ?? DeliveryOutcome(delivered: [])
    }
}

/// The credential the configured server needs: OwnTracks' Basic auth from the settings, our
/// server's token from `setAuth`, or Firebase ID tokens renewed from the refresh token. Without
/// settings, or without the token a server needs, uploads wait (``CredentialState/signedOut``).
struct AccountCredentials: CredentialProvider {
    let account: UploadAccountBox
    let tokens: AccountTokenStore
    let transport: any HTTPTransport
    let clock: EngineClock

    func current() async throws -> CredentialState {
        let now = account.current
        guard let settings = now.settings else { return .signedOut }
        switch settings.kind {
        case .owntracks:
            return settings.password.map { .present(.basic(user: settings.user ?? "", password: $0)) } ?? .notNeeded
        case .whereabouts:
            return now.tokens?.idToken.map { .present(.bearer($0)) } ?? .signedOut
        case .firestore:
            return try await firebase(settings).current()
        }
    }

    func refreshed() async throws -> CredentialState {
        guard let settings = account.current.settings, settings.kind == .firestore else { return .signedOut }
        return try await firebase(settings).refreshed()
    }

    private func firebase(_ settings: UploadSettings) -> FirebaseTokenProvider {
        FirebaseTokenProvider(
            store: tokens, apiKey: settings.apiKey ?? "", base: settings.tokenUrl ?? URL(string: "https://securetoken.googleapis.com")!,
            transport: transport, clock: clock.now)
    }
}

/// The tokens a Firebase renewal reads and writes: read from memory; a renewal is stored first, then
/// kept in memory, so a relaunched app starts from it.
final class AccountTokenStore: SettingStore {
    let account: UploadAccountBox
    let store: SQLiteLocationStore

    init(account: UploadAccountBox, store: SQLiteLocationStore) {
        self.account = account
        self.store = store
    }

    func setting<Value: Codable>(_ key: SettingKey<Value>) throws -> Value? {
        guard key.name == SettingKey<AuthTokens>.authTokens.name else { return try store.setting(key) }
        return account.current.tokens as? Value
    }

    func set<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?) throws {
        try store.set(key, value)
        guard key.name == SettingKey<AuthTokens>.authTokens.name else { return }
        account.update { $0.tokens = value as? AuthTokens }
    }
}
