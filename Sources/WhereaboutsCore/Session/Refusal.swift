/// Why the ``Session`` refused an app's request: a stable ``code`` an app (or JavaScript) can switch
/// on, and a message naming the input, the problem and the fix.
public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable name of the problem.
    public let code: Code
    /// What went wrong and what to do, in one or two sentences.
    public let message: String

    /// The kinds of refusal.
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// The OS denies location to the app and will not ask again: only Settings can help.
        case permissionDenied
        /// The request needs tracking to be on.
        case trackingDisabled
        /// A region id appears twice in one request.
        case duplicateRegion
        /// A value is out of range or malformed.
        case invalidArgument
    }

    /// Creates a refusal.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
