/// A problem in an input file: which file, where in it, what is wrong and how to fix it.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's name (or another name for the input).
    public let source: String
    /// Where in the file: `line 12`, `feature 3 (id "home")`; empty when the whole file is at fault.
    public let location: String
    /// What is wrong.
    public let problem: String
    /// What to do about it.
    public let fix: String

    /// Creates an error.
    public init(source: String, location: String, problem: String, fix: String) {
        self.source = source
        self.location = location
        self.problem = problem
        self.fix = fix
    }

    public var description: String {
        let place = location.isEmpty ? source : "\(source) \(location)"
        return "\(place): \(problem); \(fix)"
    }
}
