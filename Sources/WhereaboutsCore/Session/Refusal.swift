/// Why a request was refused: a stable ``code`` an app (or JavaScript) can switch on, and a message
/// naming the input, the problem and the fix. The ``Session`` refuses what its rules forbid; the
/// engine refuses what its store cannot keep (the engine's `EngineError` is this type).
public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable name of the problem.
    public let code: Code
    /// What went wrong and what to do, in one or two sentences.
    public let message: String

    /// The kinds of refusal.
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// The OS denies location to the app; the message says whether Settings is the only way back.
        case permissionDenied
        /// The request needs tracking to be on.
        case trackingDisabled
        /// A region id appears twice in one request.
        case duplicateRegion
        /// A value is out of range or malformed.
        case invalidArgument
        /// The store could not be read or could not keep the change; nothing was changed.
        case storeFailure
        /// No position precise enough came in time; nothing was changed.
        case locationUnavailable
    }

    /// Creates a refusal.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
