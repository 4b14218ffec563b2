/// Why the decoder skipped a line from gpsd that it could not turn into a fix.
public enum GPSDRejectionReason: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The line is not one complete JSON object (truncated, garbled, not JSON at all).
    case malformedJSON
    /// The line is longer than ``GPSDLineSplitter/maximumLineLength`` bytes.
    case lineTooLong
    /// The JSON object has no `class` member.
    case missingClass
    /// The `class` member names no report gpsd documents.
    case unknownClass
    /// A member has the wrong JSON type, for example a string where gpsd sends a number.
    case wrongType
    /// A TPV report has no `mode`, or a mode other than 0, 1, 2 or 3.
    case invalidMode
    /// A TPV report with a fix (mode 2 or 3) has no `lat` or no `lon`.
    case missingPosition
    /// The latitude or longitude is outside −90…90 / −180…180 degrees.
    case invalidPosition
    /// A TPV report with a fix has no `time`, so the fix's age is unknown.
    case missingTime
    /// The `time` is not RFC 3339, or lies outside 2000–2099.
    case invalidTime
    /// `eph`, `epx` or `epy` is negative or larger than ``GPSDDecoder/maximumAccuracy`` metres.
    case invalidAccuracy
    /// The altitude is outside ``GPSDDecoder/altitudeRange`` metres.
    case invalidAltitude
    /// The speed is negative or faster than ``GPSDDecoder/maximumSpeed`` metres per second.
    case invalidSpeed
    /// The track is outside 0…360 degrees.
    case invalidCourse

    /// Orders reasons by declaration, for stable listings.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
