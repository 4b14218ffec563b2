import Foundation

/// One JSON object on one line, keys in the order given: the building block of JSON Lines files.
/// The same values always give the same bytes.
public struct JSONLine: Sendable, Equatable {
    /// The members in output order.
    public var members: [(String, JSONScalar)]

    /// Creates a line from ordered members.
    public init(_ members: [(String, JSONScalar)]) { self.members = members }

    public static func == (lhs: JSONLine, rhs: JSONLine) -> Bool { lhs.text == rhs.text }

    /// The object as text, without a newline. Non-finite numbers are written as `null`.
    public var text: String {
        "{" + members.map { "\(Self.quote($0.0)):\(Self.render($0.1))" }.joined(separator: ",") + "}"
    }

    private static func render(_ value: JSONScalar) -> String {
        switch value {
        case .string(let s): quote(s)
        case .integer(let i): String(i)
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .number(let d):
            !d.isFinite ? "null" : d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        }
    }

    /// `text` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Joins lines into a JSON Lines document (each line ends with a newline).
    public static func document(_ lines: [JSONLine]) -> String {
        lines.map { $0.text + "\n" }.joined()
    }
}
