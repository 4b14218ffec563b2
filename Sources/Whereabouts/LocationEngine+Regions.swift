import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// Adds regions (any number: only the nearest are handed to the OS), replacing stored regions
    /// with the same id, whose state is forgotten without an exit.
    /// - Throws: ``EngineError/Code/duplicateRegion`` when an id appears twice in `regions` (nothing
    ///   is added), ``EngineError/Code/storeFailure`` when they cannot be stored.
    public func addRegions(_ regions: [Region]) throws(EngineError) {
        try launch(.user)
        var seen: [String: Int] = [:]
        for (position, region) in regions.enumerated() {
            if let first = seen.updateValue(position, forKey: region.id) {
                throw EngineError(
                    .duplicateRegion,
                    "regions \(first) and \(position) both have the id \"\(region.id)\"; give each region its own id (nothing was added)")
            }
        }
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

    /// Replaces every region with `regions` (a server's `setRegions`).
    func replaceRegions(with regions: [Region]) throws(EngineError) {
        let kept = Set(regions.map(\.id))
        let dropped = try self.regions().map(\.id).filter { !kept.contains($0) }
        if !dropped.isEmpty { try removeRegions(dropped) }
        try addRegions(regions)
    }
}
