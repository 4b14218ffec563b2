import Foundation

/// Why a store operation failed; each case names the file, the problem and what to do.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Equatable {
        /// The disk (or the configured `max_page_count`) is full; nothing written before is harmed.
        case diskFull
        /// The file is damaged.
        case corrupt
        /// The file cannot be opened or written for another reason.
        case io
        /// The file is not a Whereabouts store (empty, not a database, another application's
        /// database); it was left as it was.
        case notAStore
        /// The store was written by a version of Whereabouts this one cannot open that way.
        case incompatible
        /// The store was opened read-only and a write was asked for.
        case readOnly
    }

    /// The kind of failure.
    public let kind: Kind
    /// The store file.
    public let path: String
    /// What went wrong.
    public let problem: String
    /// What to do about it.
    public let fix: String

    /// Creates an error.
    public init(kind: Kind, path: String, problem: String, fix: String) {
        self.kind = kind
        self.path = path
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(path): \(problem); \(fix)" }
}
