import Foundation

/// What an upload presents to prove who it is.
public enum Credential: Sendable, Equatable {
    /// `Authorization: Bearer …` (our server, a Firebase ID token).
    case bearer(String)
    /// `Authorization: Basic …` (OwnTracks HTTP mode).
    case basic(user: String, password: String)

    /// The `Authorization` header value.
    public var authorization: String {
        switch self {
        case .bearer(let token): "Bearer \(token)"
        case .basic(let user, let password): "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())"
        }
    }
}
