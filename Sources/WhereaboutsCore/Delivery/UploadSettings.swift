import Foundation

/// Where uploads go, as JavaScript's `configure` sets them: our server, an OwnTracks HTTP endpoint or
/// Firestore. A ``Session`` input (``SessionInput/configureUploads(_:)``) kept in memory and in the
/// store (``SettingKey/uploadSettings``), so an app relaunched by the OS uploads to the same place.
public struct UploadSettings: Sendable, Hashable, Codable {
    /// The kinds of server.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Our batch API (`WhereaboutsBatchEndpoint`); `url` and `device`, a bearer token from `setAuth`.
        case whereabouts
        /// OwnTracks HTTP mode (`OwnTracksEndpoint`); `url`, `user`, `device`, optional `password`, `trackerId`.
        case owntracks
        /// Firestore REST (`FirestoreEndpoint`); `project`, `apiKey`, optional `collection`, `url`,
        /// `tokenUrl`, and Firebase tokens from `setAuth`.
        case firestore
    }

    /// Which server.
    public var kind: Kind
    /// Our server's base URL, OwnTracks' publish URL, or Firestore's base URL (optional).
    public var url: URL?
    /// The device id (our server, OwnTracks' `X-Limit-D`).
    public var device: String?
    /// OwnTracks' user (`X-Limit-U`, and the Basic auth user).
    public var user: String?
    /// OwnTracks' Basic auth password, kept in the store; `nil` sends no credential.
    public var password: String?
    /// OwnTracks' two-character tracker id; the device's last two characters when `nil`.
    public var trackerId: String?
    /// The Firebase project id.
    public var project: String?
    /// The Firestore collection; `locations` when `nil`.
    public var collection: String?
    /// The Firebase Web API key that renews ID tokens.
    public var apiKey: String?
    /// The Firebase token service's base URL; Google's when `nil`.
    public var tokenUrl: URL?

    /// Creates settings for `kind`; the fields it needs are checked where the app's call is read.
    public init(
        kind: Kind, url: URL? = nil, device: String? = nil, user: String? = nil, password: String? = nil, trackerId: String? = nil,
        project: String? = nil, collection: String? = nil, apiKey: String? = nil, tokenUrl: URL? = nil
    ) {
        self.kind = kind
        self.url = url
        self.device = device
        self.user = user
        self.password = password
        self.trackerId = trackerId
        self.project = project
        self.collection = collection
        self.apiKey = apiKey
        self.tokenUrl = tokenUrl
    }

    /// The endpoint these settings describe; `userID` is the signed-in user Firestore documents name.
    /// Call it only on settings whose fields `kind` needs are present.
    public func endpoint(userID: String?) -> any UploadEndpoint {
        switch kind {
        case .whereabouts: WhereaboutsBatchEndpoint(base: url!, device: device!)
        case .owntracks: OwnTracksEndpoint(url: url!, user: user!, device: device!, trackerID: trackerId)
        case .firestore:
            FirestoreEndpoint(
                base: url ?? URL(string: "https://firestore.googleapis.com")!, project: project!, collection: collection ?? "locations",
                userID: userID)
        }
    }
}

extension SettingKey where Value == UploadSettings {
    /// Where uploads go, as JavaScript configured it.
    public static var uploadSettings: SettingKey<UploadSettings> { .init("uploadSettings") }
}
