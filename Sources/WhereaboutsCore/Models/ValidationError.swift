/// A value that failed validation: which field, what value, what is wrong with it and how to fix it.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name of the field that was rejected, e.g. `latitude`.
    public let field: String
    /// The rejected value as text.
    public let value: String
    /// What is wrong with the value.
    public let problem: String
    /// What the caller should do instead.
    public let fix: String

    /// Creates a validation error.
    public init(field: String, value: String, problem: String, fix: String) {
        self.field = field
        self.value = value
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(field) \(value) \(problem); \(fix)" }
}
