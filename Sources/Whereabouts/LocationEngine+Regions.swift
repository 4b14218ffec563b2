import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// Adds regions (any number: only the nearest are handed to the OS), replacing stored regions
    /// with the same id, whose state is forgotten without an exit.
    /// - Throws: ``EngineError/Code/duplicateRegion`` when an id appears twice in `regions` (nothing
    ///   is added), ``EngineError/Code/storeFailure`` when they cannot be stored.
    public func addRegions(_ regions: [Region]) throws(EngineError) {
        try launch(.user)
        try Self.requireUniqueIDs(regions)
        do { try store.save(regions) } catch { throw .store(error, doing: "store \(regions.count) regions") }
        handle(.command(.addRegions(regions)))
    }

    /// Removes regions by id; unknown ids are ignored.
    public func removeRegions(_ ids: [String]) throws(EngineError) {
        try launch(.user)
        do { try store.removeRegions(ids) } catch { throw .store(error, doing: "remove \(ids.count) regions") }
        handle(.command(.removeRegions(ids)))
    }

    /// Every region, sorted by id.
    public func regions() throws(EngineError) -> [Region] {
        do { return try store.regions() } catch { throw .store(error, doing: "read the regions") }
    }

    /// Makes `regions` the whole set (a server's `setRegions`, a regions file given to a tracker):
    /// regions not in it are removed, new or changed ones are stored (a changed one's state is
    /// forgotten without an exit), and unchanged ones keep their state.
    /// - Throws: as ``addRegions(_:)``; on a duplicate id nothing changes.
    public func setRegions(_ regions: [Region]) throws(EngineError) {
        try Self.requireUniqueIDs(regions)
        let stored = Dictionary(try self.regions().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = Set(regions.map(\.id))
        let dropped = stored.keys.filter { !kept.contains($0) }.sorted()
        if !dropped.isEmpty { try removeRegions(dropped) }
        let changed = regions.filter { stored[$0.id] != $0 }
        if !changed.isEmpty { try addRegions(changed) }
    }

    private static func requireUniqueIDs(_ regions: [Region]) throws(EngineError) {
        var seen: [String: Int] = [:]
        for (position, region) in regions.enumerated() {
            if let first = seen.updateValue(position, forKey: region.id) {
                throw EngineError(
                    .duplicateRegion,
                    "regions \(first) and \(position) both have the id \"\(region.id)\"; give each region its own id (nothing was changed)")
            }
        }
    }
}
