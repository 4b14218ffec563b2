import Foundation
import WhereaboutsCore

/// JSON written as text, so the fuzz can send what no encoder would: hostile numbers, wrong types,
/// duplicate keys, invalid literals.
enum JSONText {
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func number(_ value: Double) -> String { "\(value)" }
}

/// The hostile values the fuzz puts where a valid one belongs.
enum FuzzValues {
    /// Numbers at and beyond every bound, and beyond what Double and Int64 hold.
    static let numbers = [
        "1e16", "-1e16", "1.7976931348623157e308", "-1.7976931348623157e308", "1e400", "-1e400", "5e-324", "0", "-0", "1e-7",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "123456789012345678901234567890",
        "3.14", "-1", "100000", "100000.001", "1000", "1000.5", "31622400", "31622401", "-1000", "-1000.5", "360", "-360", "359.999",
        "90", "90.0000001", "-180", "180.0000001", "0.5", "1", "1000000", "1000000.5", "946684799", "946684800",
    ]

    /// Strings: NaN-ish words, impossible and extreme times, control characters, huge and odd text.
    static func strings(now: Date) -> [String] {
        [
            "NaN", "Infinity", "-Infinity", "nan", "", "1", "0x10", "\u{0}", "a\u{0}b", "\u{202E}evil", "😀", "é", "\r\n",
            "2026-02-30T00:00:00Z", "2025-02-29T12:00:00Z", "2026-01-01T23:59:60Z", "2026-01-01T24:00:00Z", "2026-01-01T10:00:00+99:99",
            "2026-01-01T10:00:00+24:00", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "1999-12-31T23:59:59Z", "1970-01-01T00:00:00Z",
            Timestamp.format(now.addingTimeInterval(2 * 86_400)), Timestamp.format(now.addingTimeInterval(86_000)), "2024-05-06T07:30:00.",
            "2024-05-06T07:30:00.000Zjunk", "2024-05-06", "yesterday", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a",
            "00000000-0000-0000-0000-000000000000", "not-a-uuid", String(repeating: "w", count: 201),
            String(repeating: "x", count: 100_000),
        ].map(JSONText.quote)
    }

    /// Literals and shapes of the wrong type, some of them not JSON at all.
    static let shapes = [
        "null", "true", "false", "NaN", "Infinity", "-Infinity", "[]", "{}", "[1,2]", "{\"a\":1}", "[null]", "undefined",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "{\"a\":", count: 400) + "1" + String(repeating: "}", count: 400),
        String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000),
    ]

    static func any(now: Date, using random: inout FuzzRandom) -> String {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: random.pick(numbers)
        case 1: random.pick(strings(now: now))
        default: random.pick(shapes)
        }
    }
}
