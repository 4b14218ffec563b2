import Foundation

extension Tracker {
    /// The farthest a device at `speed` metres per second can travel before significant-change
    /// monitoring, started now, wakes the app: its report comes once the device is both
    /// ``SignificantChangeMonitor/distance`` metres and ``SignificantChangeMonitor/interval`` seconds
    /// from where and when it started.
    static func suspendedCruiseDistance(speed: Double) -> Double {
        max(SignificantChangeMonitor.distance, speed * SignificantChangeMonitor.interval)
    }

    /// The farthest a region the OS would not settle is looked for beyond the nearest boundaries: a
    /// device fast enough to need more (a vehicle, five minutes at 40 m/s) keeps the app running.
    static let longestSuspendedCruiseSearch: Double = 3000

    /// Metres the device may travel from `fix` before a region that `policy` does not leave to the OS
    /// (``osTrusts(circle:radius:id:_:)``) comes within `reach`, when that is at least as far as it can
    /// travel before significant-change monitoring wakes the app (``suspendedCruiseDistance(speed:)``);
    /// `nil` otherwise, or when the policy leaves no region to the OS.
    ///
    /// Such a cruise suspends the app: the OS settles the regions it is handed, and the refresh region's
    /// exit wakes the app to hand it the next ones before the device reaches them (as in
    /// regions-only tracking), while significant-change monitoring wakes it before the device can
    /// reach a region the OS would not settle. `around` is the `limit` nearest boundaries.
    func suspendedClearance(
        _ policy: MotionPolicy, fix: Fix, around: [(region: Region, distance: Double)], limit: Int, reach: Double, speed: Double
    ) -> Double? {
        guard policy.osTrustRadius > 0, osMonitorsRegions, !unmonitored.contains(nil) else { return nil }
        let needed = Self.suspendedCruiseDistance(speed: speed)
        let untrusted: Double
        if let first = around.first(where: { !osTrusts($0.region, policy) }) {
            untrusted = first.distance
        } else if around.count < limit {
            untrusted = .infinity
        } else if let last = around.last, last.distance - reach >= needed {
            untrusted = last.distance
        } else if needed + reach <= Self.longestSuspendedCruiseSearch {
            untrusted = nearestUntrustedBoundary(to: fix.coordinate, within: needed + reach, policy)
        } else {
            return nil
        }
        return untrusted - reach >= needed ? untrusted - reach : nil
    }

    /// Wakes the app from a suspended cruise once the OS may not settle what it was left: it could not
    /// monitor a region it was handed, or no longer reports crossings (``osMonitorsRegions``).
    /// Positioning comes back, and the next fine fix plans again.
    mutating func endSuspendedCruise(into effects: inout [TrackerEffect]) {
        guard clearance?.suspends == true else { return }
        endCruise()
        applyLocationRequest(into: &effects)
    }

    /// Whether `policy` leaves `region` to the OS while the OS monitors it
    /// (``osTrusts(circle:radius:id:_:)``).
    func osTrusts(_ region: Region, _ policy: MotionPolicy) -> Bool {
        osTrusts(circle: region.isCircle, radius: region.radius, id: region.id, policy)
    }

    /// Whether `policy` leaves a region to the OS while the OS monitors it
    /// (``MotionPolicy/osTrustRadius``): a circle that large, while the OS reports crossings
    /// (``osMonitorsRegions``) and has not said it could not monitor it (``monitoringFailed(for:)``).
    private func osTrusts(circle: Bool, radius: Double, id: @autoclosure () -> String, _ policy: MotionPolicy) -> Bool {
        guard policy.osTrustRadius > 0, osMonitorsRegions, circle, radius >= policy.osTrustRadius else { return false }
        return unmonitored.isEmpty || (!unmonitored.contains(nil) && !unmonitored.contains(id()))
    }

    /// The distance in metres from `point` to the nearest boundary within `margin` of a region that
    /// `policy` does not leave to the OS; infinity when there is none. A polygon counts from its
    /// enclosing circle, and as at the point once the point is inside that circle.
    private func nearestUntrustedBoundary(to point: Coordinate, within margin: Double, _ policy: MotionPolicy) -> Double {
        var nearest = Double.infinity
        geofences.index.forEachWithin(margin, of: LocalFrame(at: point)) { candidate in
            let trusted = osTrusts(
                circle: candidate.isCircle, radius: candidate.radius, id: geofences.index.region(atSlot: candidate.slot)?.id ?? "", policy)
            guard !trusted else { return }
            nearest = min(nearest, candidate.isCircle ? abs(candidate.distance) : max(0, candidate.distance))
        }
        return nearest
    }
}
