import Foundation
import WhereaboutsCore
import WhereaboutsStore

/// Why the engine refused a call. Each error has a stable ``code`` an app (or JavaScript) can switch
/// on, and a message naming the input, the problem and the fix.
public struct EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable name of the problem.
    public let code: Code
    /// What went wrong and what to do, in one or two sentences.
    public let message: String

    /// The kinds of refusal.
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// The OS denies location to the app; the message says whether Settings is the only way back.
        case permissionDenied
        /// The call needs tracking to be on.
        case trackingDisabled
        /// A region id appears twice in one call.
        case duplicateRegion
        /// A value is out of range or malformed.
        case invalidArgument
        /// The store could not be read or written.
        case storeFailure
    }

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The engine's error for a session's refusal, with the same code and message.
    public init(_ refusal: Refusal) {
        let code: Code =
            switch refusal.code {
            case .permissionDenied: .permissionDenied
            case .trackingDisabled: .trackingDisabled
            case .duplicateRegion: .duplicateRegion
            case .invalidArgument: .invalidArgument
            }
        self.init(code, refusal.message)
    }

    static func store(_ error: any Error, doing action: String) -> EngineError {
        EngineError(.storeFailure, "could not \(action): \(error)")
    }
}
