import Foundation

/// A problem the server reports to its operator or a client, with what to do about it.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Bad command-line or configuration input.
    case usage(String)
    /// A device id that is already taken.
    case deviceExists(String)

    public var description: String {
        switch self {
        case .usage(let message): message
        case .deviceExists(let id): "device \(id) already exists; pick another name, or keep using its token"
        }
    }
}
