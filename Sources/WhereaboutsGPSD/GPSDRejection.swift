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

/// A line from gpsd that the decoder skipped: which line, what is wrong with it, and what was done.
public struct GPSDRejection: Sendable, Hashable, CustomStringConvertible {
    /// The category, counted in ``GPSDStatistics/rejectedByReason``.
    public let reason: GPSDRejectionReason
    /// The start of the offending line (at most ``GPSDRejection/excerptLength`` characters).
    public let excerpt: String
    /// What is wrong with the line.
    public let problem: String

    /// How many characters of the offending line a rejection keeps.
    public static let excerptLength = 120

    /// Creates a rejection, shortening `line` to an excerpt.
    public init(reason: GPSDRejectionReason, line: some StringProtocol, problem: String) {
        self.reason = reason
        self.problem = problem
        let text = String(line)
        self.excerpt = text.count > Self.excerptLength ? String(text.prefix(Self.excerptLength)) + "…" : text
    }

    /// One sentence naming the input, the problem and what is done about it.
    public var description: String {
        "gpsd line `\(excerpt)`: \(problem); the line is skipped and counted as \(reason.rawValue), "
            + "and reading goes on with the next line"
    }
}
