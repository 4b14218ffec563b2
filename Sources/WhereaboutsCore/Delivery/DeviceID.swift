/// Device ids: the names `device add` accepts and every device path carries.
///
/// 1 to ``maxLength`` letters, digits, `.`, `_` or `-`, and not `.` or `..`: URLs resolve those two
/// away as path steps, so no upload could ever reach such a device.
public enum DeviceID {
    /// The longest id, in bytes.
    public static let maxLength = 64

    /// What is wrong with `id` as a device id, or `nil` when it is a valid one.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "is empty" }
        if id.utf8.count > maxLength { return "is \(id.utf8.count) bytes long; the limit is \(maxLength)" }
        if id == "." || id == ".." { return "is a path step (. or ..) that URLs resolve away, so no upload could reach it" }
        if let bad = id.unicodeScalars.first(where: { !allowed($0) }) {
            return "contains \(String(reflecting: String(bad))), which a device id cannot hold"
        }
        return nil
    }

    /// Whether `id` is a valid device id.
    public static func isValid(_ id: String) -> Bool { problem(with: id) == nil }

    /// The message for an invalid id: the id (quoted, control characters escaped), the problem and the rule.
    public static func message(for id: String, problem: String) -> String {
        "device id \(String(reflecting: String(id.prefix(80)))) \(problem); use 1 to \(maxLength) letters, digits, '.', '_' or '-', such as my-phone"
    }

    private static func allowed(_ c: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(c) || ("A"..."Z").contains(c) || ("a"..."z").contains(c) || c == "." || c == "_" || c == "-"
    }
}
