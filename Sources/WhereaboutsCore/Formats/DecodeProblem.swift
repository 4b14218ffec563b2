import Foundation

/// A decoding error in words: which field, and what it should have been. Used wherever JSON from
/// outside arrives (the server's API, the app bridge), so every such error reads the same.
public struct DecodeProblem: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the field, e.g. `minutes is not a number`.
    public let reason: String

    /// Words the error a `JSONDecoder` threw.
    public init(_ error: any Error) {
        func field(_ context: DecodingError.Context) -> String { context.codingPath.last?.stringValue ?? "the top level" }
        switch error {
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            reason = "\(field(context)) \(context.debugDescription)"
        case DecodingError.dataCorrupted: reason = "is not valid JSON (NaN and Infinity are not JSON numbers)"
        case DecodingError.keyNotFound(let key, _): reason = "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(let type, let context): reason = "\(field(context)) is not \(Self.describe(type))"
        case DecodingError.valueNotFound(_, let context): reason = "\(field(context)) is null"
        case let error as ValidationError: reason = error.description
        default: reason = "could not be read (\(error))"
        }
    }

    public var description: String { reason }

    private static func describe(_ type: Any.Type) -> String {
        if type == Double.self || type == Int.self { return "a number" }
        if type == String.self { return "a string" }
        if type == Bool.self { return "true or false" }
        return "\(type)".hasPrefix("Array") ? "an array" : "an object"
    }
}
