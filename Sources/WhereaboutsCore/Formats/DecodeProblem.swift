import Foundation

/// A decoding error in words: which field, and what it should have been. Used wherever JSON from
/// outside arrives (the server's API, the app bridge), so every such error reads the same.
public struct DecodeProblem: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the field, e.g. `minutes is not a number`.
    public let reason: String
    /// Whether the text is not JSON at all (rather than JSON of the wrong shape or values).
    public let isSyntax: Bool

    /// Words the error a `JSONDecoder` threw. `data`, the text it was decoding, lets a syntax error
    /// say what is wrong (empty, too deeply nested, not UTF-8, where the JSON breaks).
    public init(_ error: any Error, in data: Data? = nil) {
        func field(_ context: DecodingError.Context) -> String { context.codingPath.last?.stringValue ?? "the top level" }
        var isSyntax = false
        switch error {
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            // A validation message names its field itself ("minutes -5 is not in 1...1440").
            let name = field(context)
            reason = context.debugDescription.hasPrefix(name + " ") ? context.debugDescription : "\(name) \(context.debugDescription)"
        case DecodingError.dataCorrupted:
            reason = data.map(Self.syntaxProblem) ?? "is not valid JSON"
            isSyntax = true
        case DecodingError.keyNotFound(let key, _): reason = "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(let type, let context): reason = "\(field(context)) is not \(Self.describe(type))"
        case DecodingError.valueNotFound(_, let context): reason = "\(field(context)) is null"
        case let error as ValidationError: reason = error.description
        default:
            (reason, isSyntax) = Self.parserProblem("\(error)").map { ($0, true) } ?? ("could not be read (\(error))", false)
        }
        self.isSyntax = isSyntax
    }

    /// Why `data` is not JSON, as `JSONSerialization` finds it.
    static func syntaxProblem(_ data: Data) -> String {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return "is empty; it should be JSON text" }
        let nonNumbers =
            ["NaN", "Infinity"].contains { data.range(of: Data($0.utf8)) != nil } ? " (NaN and Infinity are not JSON numbers)" : ""
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String).map {
                ": " + $0.trimmingCharacters(in: .init(charactersIn: "."))
            }
            return "is not valid JSON\(detail ?? "")\(nonNumbers)"
        }
        return "is not valid JSON\(nonNumbers)"
    }

    /// Words for an error of Foundation's JSON parser that reaches a decoder as it is (inside an
    /// item decoded on its own), or `nil` for another error.
    static func parserProblem(_ text: String) -> String? {
        if text.hasPrefix("cannotConvertInputStringDataToUTF8") { return "holds a string that is not valid UTF-8" }
        if text.hasPrefix("numberIsNotRepresentableInSwift"), let start = text.range(of: "parsed: \"")?.upperBound,
            let end = text[start...].firstIndex(of: "\"")
        {
            return "holds the number \(text[start..<end]), which is out of range or not a whole number where one is needed"
        }
        return nil
    }

    public var description: String { reason }

    private static func describe(_ type: Any.Type) -> String {
        if type == Double.self || type == Int.self { return "a number" }
        if type == String.self { return "a string" }
        if type == Bool.self { return "true or false" }
        return "\(type)".hasPrefix("Array") ? "an array" : "an object"
    }
}
