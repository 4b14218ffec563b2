import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// Marks a recorded location as a region centred on it with a monitoring radius, or unmarks it
    /// with a radius of 0 (OwnTracks' regions on published locations). The region's id is the
    /// location's (`MarkedRegion/id(of:)`): marking again changes the radius, and
    /// entering and leaving it are region events like any other region's.
    /// - Parameters:
    ///   - locationID: the id of a stored location (``recordedLocationStates(limit:)``, the snapshot's report).
    ///   - radius: metres, up to `MarkedRegion/maximumRadius`; 0 removes the region
    ///     (the location need not be stored any more).
    /// - Returns: the region now watched, or `nil` after unmarking.
    /// - Throws: `Refusal/Code/invalidArgument` for a negative, infinite, NaN or too
    ///   large radius, or an id that is not a stored location; `Refusal/Code/storeFailure`
    ///   when the store cannot be read or keep the change. Nothing changes then.
    @discardableResult
    public func markRegion(at locationID: UUID, radius: Double) throws(EngineError) -> Region? {
        try launch(.user)
        let marks: Bool
        do { marks = try MarkedRegion.isMark(radius) } catch { throw Refusal(.invalidArgument, error.description) }
        guard marks else {
            try removeRegions([MarkedRegion.id(of: locationID)])
            return nil
        }
        let stored: LocationRecord?
        do { stored = try store.record(id: locationID) } catch { throw .store(error, doing: "read the location to mark") }
        guard let stored else {
            throw Refusal(
                .invalidArgument,
                "id \(MarkedRegion.id(of: locationID)) is not a stored location; mark the id of a location getLocations lists "
                    + "(a cleared location cannot be marked)")
        }
        let region: Region
        do { region = try MarkedRegion.region(at: stored, radius: radius) } catch { throw Refusal(.invalidArgument, error.description) }
        try addRegions([region])
        return region
    }
}
