import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// Adds regions (any number: only the nearest are handed to the OS), replacing stored regions
    /// with the same id, whose state is forgotten without an exit.
    /// - Throws: `Refusal/Code/duplicateRegion` when an id appears twice in `regions` (nothing
    ///   is added), `Refusal/Code/storeFailure` when they cannot be stored (nothing is added).
    public func addRegions(_ regions: [Region]) throws(EngineError) {
        try launch(.user)
        try request(.addRegions(regions), doing: "store \(regions.count) regions")
    }

    /// Removes regions by id; unknown ids are ignored.
    public func removeRegions(_ ids: [String]) throws(EngineError) {
        try launch(.user)
        try request(.removeRegions(ids), doing: "remove \(ids.count) regions")
    }

    /// Every region, sorted by id.
    public func regions() throws(EngineError) -> [Region] {
        try launch(.user)
        return session.tracker.geofences.index.regions
    }

    /// Makes `regions` the whole set (a server's `setRegions`, a regions file given to a tracker):
    /// regions not in it are removed, new or changed ones are stored (a changed one's state is
    /// forgotten without an exit), and unchanged ones keep their state.
    /// - Throws: as ``addRegions(_:)``; on a duplicate id nothing changes.
    public func setRegions(_ regions: [Region]) throws(EngineError) {
        try launch(.user)
        try request(.setRegions(regions), doing: "store \(regions.count) regions")
    }
}
