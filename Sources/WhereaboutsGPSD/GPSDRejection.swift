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
