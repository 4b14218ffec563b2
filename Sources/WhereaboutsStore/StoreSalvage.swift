import Foundation

/// A damaged store's readable rows copied into a new store at the same path; the damaged file is
/// kept beside it.
public struct StoreSalvage: Sendable, Equatable {
    /// Where the damaged file now is (`<path>.damaged-<time>`).
    public let damagedFile: String
    /// What was wrong with it.
    public let problem: String
    /// Rows copied into the new store, every table counted.
    public let saved: Int
    /// Rows known to have been in the damaged file that could not be read.
    public let lost: Int
    /// Unreadable stretches whose number of rows is not known (a damaged last page with no index to
    /// count from, a damaged page of regions or settings); each held at least one row.
    public let uncounted: Int
    /// When the salvage was made.
    public let at: Date

    /// Creates a salvage record.
    public init(damagedFile: String, problem: String, saved: Int, lost: Int, uncounted: Int, at: Date) {
        self.damagedFile = damagedFile
        self.problem = problem
        self.saved = saved
        self.lost = lost
        self.uncounted = uncounted
        self.at = at
    }

    /// One line for a person: where the damaged file went, what was saved and what was lost.
    public var summary: String {
        var text = "salvaged \(saved) rows into a new store, lost \(lost)"
        if uncounted > 0 { text += " and \(uncounted) unreadable stretch\(uncounted == 1 ? "" : "es") of unknown size" }
        return text + "; the damaged file (\(problem)) is kept at \(damagedFile)"
    }
}
