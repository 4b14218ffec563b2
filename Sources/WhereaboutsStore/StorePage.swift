import Foundation

/// One page of a store's file, as SQLite's `dbstat` table lists it.
public struct StorePage: Sendable, Equatable {
    /// The page's number, from 1.
    public let number: Int
    /// `internal`, `leaf` or `overflow`.
    public let kind: String
    /// How many cells (rows, index entries or child pointers) the page holds.
    public let cells: Int
    /// Where the page starts in the file.
    public let offset: UInt64
}
