import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

extension Bridge {
    /// An uploader that sends the store's pending records wherever JavaScript's `configure` said,
    /// with the credentials `setAuth` gave: both are read from the store before every request, so a
    /// change takes effect at the next upload. Until `configure` is called (and after `signOut` for a
    /// server that needs a token) records wait on disk.
    ///
    /// ```swift
    /// let engine = LocationEngine(store: store, service: CoreLocationService(), uploader: Bridge.uploader(store: store))
    /// let bridge = Bridge(engine: engine)
    /// ```
    public static func uploader(
        store: SQLiteLocationStore, transport: any HTTPTransport = URLSessionTransport(), clock: EngineClock = .system
    ) -> Uploader {
        Uploader(
            queue: store, endpoint: StoredUploadEndpoint(store: store), transport: transport,
            credentials: StoredCredentials(store: store, transport: transport, clock: clock), clock: clock)
    }
}

/// The endpoint ``UploadSettings`` in the store describe, read at each use.
struct StoredUploadEndpoint: UploadEndpoint {
    let store: SQLiteLocationStore

    private var current: (any UploadEndpoint)? {
        guard let settings = try? store.setting(.uploadSettings) else { return nil }
        return settings.endpoint(userID: (try? store.setting(.authTokens))?.userID)
    }

    private func configured() throws -> any UploadEndpoint {
        guard let current else { throw ArgumentProblem("uploads are not configured: call configure({upload}) first") }
        return current
    }

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
struct StoredCredentials: CredentialProvider {
    let store: SQLiteLocationStore
    let transport: any HTTPTransport
    let clock: EngineClock

    func current() async throws -> CredentialState {
        guard let settings = try store.setting(.uploadSettings) else { return .signedOut }
        switch settings.kind {
        case .owntracks:
            return settings.password.map { .present(.basic(user: settings.user ?? "", password: $0)) } ?? .notNeeded
        case .whereabouts:
            return try store.setting(.authTokens)?.idToken.map { .present(.bearer($0)) } ?? .signedOut
        case .firestore:
            return try await firebase(settings).current()
        }
    }

    func refreshed() async throws -> CredentialState {
        guard let settings = try store.setting(.uploadSettings), settings.kind == .firestore else { return .signedOut }
        return try await firebase(settings).refreshed()
    }

    private func firebase(_ settings: UploadSettings) -> FirebaseTokenProvider {
        FirebaseTokenProvider(
            store: store, apiKey: settings.apiKey ?? "", base: settings.tokenUrl ?? URL(string: "https://securetoken.googleapis.com")!,
            transport: transport, clock: clock.now)
    }
}
