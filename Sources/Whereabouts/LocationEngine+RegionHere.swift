import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// Saves a circular region centred where the device is now, in one call (seed 001's button): asks
    /// for a fresh fix, waits for one taken after the call and at least as precise as `accuracy`, and
    /// adds the region around it (replacing a region with the same id). A position from before the
    /// call is never used.
    ///
    /// - Parameters:
    ///   - id: the region's id.
    ///   - radius: the radius in metres.
    ///   - accuracy: the largest horizontal accuracy in metres the centre may have; 20 m by default.
    ///   - timeout: how long to wait for such a fix, in seconds (1 to 120); 20 by default.
    /// - Returns: the region saved and the fix it is centred on.
    /// - Throws: `Refusal/Code/invalidArgument` for a bad id, radius, accuracy or timeout;
    ///   `Refusal/Code/locationUnavailable` when no fix that precise came in time (nothing is
    ///   saved: move to open sky, or allow a larger accuracy); `Refusal/Code/permissionDenied`
    ///   when location is not allowed;
    ///   `Refusal/Code/storeFailure` when the region cannot be stored.
    public func addRegionHere(id: String, radius: Double, accuracy: Double = 20, timeout: TimeInterval = 20) async throws(EngineError)
        -> (region: Region, fix: Fix)
    {
        guard accuracy.isFinite, accuracy > 0 else {
            throw Refusal(
                .invalidArgument, "accuracy \(accuracy) is not a positive number of metres; give the largest error the centre may have")
        }
        guard timeout.isFinite, (1...120).contains(timeout) else {
            throw Refusal(.invalidArgument, "timeout \(timeout) is not in 1...120 seconds")
        }
        do throws(ValidationError) {
            _ = try Region(id: id, center: Coordinate(latitude: 0, longitude: 0), radius: radius)
        } catch {
            throw Refusal(.invalidArgument, "\(error)")
        }
        try launch(.user)
        guard service.authorization().grantsForeground else {
            throw Refusal(
                .permissionDenied, "location is not allowed, so no position can centre region \"\(id)\"; ask for permission first")
        }
        let asked = clock.now()
        let deadline = asked.addingTimeInterval(timeout)
        perform(.requestFix)
        var best: Fix?
        while let fix = await nextFix(before: deadline) {
            guard fix.timestamp >= asked.addingTimeInterval(-1) else { continue }
            if fix.horizontalAccuracy <= accuracy {
                let region: Region
                do throws(ValidationError) {
                    region = try Region(id: id, center: fix.coordinate, radius: radius)
                } catch {
                    throw Refusal(.invalidArgument, "\(error)")
                }
                try addRegions([region])
                return (region, fix)
            }
            best = best.map { $0.horizontalAccuracy <= fix.horizontalAccuracy ? $0 : fix } ?? fix
            if clock.now() < deadline { perform(.requestFix) }
        }
        let closest = best.map { "the best was \(Int($0.horizontalAccuracy.rounded())) m" } ?? "none came"
        throw Refusal(
            .locationUnavailable,
            "no fix within \(Int(accuracy.rounded())) m came in \(Int(timeout)) s (\(closest)), so region \"\(id)\" was not saved; "
                + "try again under open sky, or allow a larger accuracy")
    }
}
