import Foundation
import WhereaboutsCore

/// A problem a location service reports without stopping: a receiver that went away, a fix that
/// could not be taken, a report it could not read.
public struct LocationServiceFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, for example `gpsd at 127.0.0.1:2947`.
    public let source: String
    /// What went wrong.
    public let problem: String
    /// What the service or the user does about it.
    public let fix: String

    /// Creates a failure.
    public init(source: String, problem: String, fix: String) {
        self.source = source
        self.problem = problem
        self.fix = fix
    }

    /// One sentence naming the source, the problem and the fix.
    public var description: String { "\(source): \(problem); \(fix)" }
}
