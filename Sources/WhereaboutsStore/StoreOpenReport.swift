import Foundation

/// What happened when a store opened.
public struct StoreOpenReport: Sendable, Equatable {
    /// Whether the file did not exist (or was empty, for an app's own store) and a new store was started.
    public var created = false
    /// For a store opened read-only: what SQLite's check found wrong with it, if anything. Queries
    /// that touch a damaged page fail; opening the store for writing salvages what can be read.
    public var damage: String?
    /// The salvage of a damaged file made when the store opened for writing, if one was needed.
    public var salvage: StoreSalvage?

    /// Creates a report.
    public init(created: Bool = false, damage: String? = nil, salvage: StoreSalvage? = nil) {
        self.created = created
        self.damage = damage
        self.salvage = salvage
    }
}
