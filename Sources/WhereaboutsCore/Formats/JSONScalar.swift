import Foundation

/// A JSON value for ``JSONLine``.
public enum JSONScalar: Sendable, Equatable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
}
