import Foundation
import WhereaboutsCore

/// What a bridge call answers instead of a result: a stable `code` for JavaScript to switch on and a
/// `message` naming the method, the problem and the fix. Capacitor rejects the call with them, React
/// Native rejects its promise with them.
public struct BridgeError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// One of ``codes``.
    public let code: String
    /// What went wrong and what to do.
    public let message: String

    /// Creates an error.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// Every code a call can fail with: `unknownMethod`, `invalidArguments` (every bad argument, the
    /// bridge's checks and the engine's alike), `notConfigured` (a method that needs `configure`
    /// first, or glue without a bridge), `internal` (an answer that could not be encoded), and
    /// `Refusal/Code`'s raw values but `invalidArgument`, which the bridge answers as `invalidArguments`.
    public static let codes: [String] =
        ["unknownMethod", "invalidArguments", "notConfigured", "internal"]
        + Refusal.Code.allCases.filter { $0 != .invalidArgument }.map(\.rawValue)

    static func notConfigured(_ method: BridgeMethod, _ problem: String) -> BridgeError {
        BridgeError(code: "notConfigured", message: "\(method.rawValue): \(problem)")
    }

    static func internalError(_ method: BridgeMethod, _ error: any Error) -> BridgeError {
        BridgeError(code: "internal", message: "\(method.rawValue): the answer could not be encoded (\(error)); please report it")
    }

    static func unknownMethod(_ name: String) -> BridgeError {
        BridgeError(
            code: "unknownMethod",
            message: "\"\(name)\" is not a Whereabouts method; call one of \(BridgeMethod.allCases.map(\.rawValue).joined(separator: ", "))"
        )
    }

    static func invalidArguments(_ method: BridgeMethod, _ problem: String) -> BridgeError {
        BridgeError(code: "invalidArguments", message: "\(method.rawValue): \(problem); pass \(method.expectedArguments)")
    }

    /// The engine's refusal: its code and message, except that a bad argument the engine found
    /// (`invalidArgument`) gets the same code and shape as one the bridge found (`invalidArguments`),
    /// so JavaScript switches on one code for every bad input.
    init(_ error: EngineError, method: BridgeMethod) {
        if error.code == .invalidArgument {
            self = .invalidArguments(method, error.message)
        } else {
            self.init(code: error.code.rawValue, message: "\(method.rawValue): \(error.message)")
        }
    }
}
