import Foundation

/// Times as JavaScript writes them: whole milliseconds since 1970-01-01T00:00:00Z (`Date.now()`).
public enum JavaScriptTime {
    /// `date` in whole milliseconds since 1970, rounded to the nearest millisecond (so that the
    /// binary fraction of a `Date` such as 1700000000.123 s becomes 1700000000123, not …122).
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
