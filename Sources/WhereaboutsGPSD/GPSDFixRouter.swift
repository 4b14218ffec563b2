import Foundation
import Whereabouts
import WhereaboutsCore

/// Decides which decoded fixes become events, given what the engine asked for, with the OS services'
/// emulation the simulated phone shares. Pure value type.
///
/// - Standard updates deliver the fixes the ``DistanceFilter`` lets through.
/// - Significant-change monitoring delivers the fixes the ``SignificantChangeMonitor`` reports
///   (at least 500 m and 5 min apart; the first at once).
/// - A one-shot request delivers the next fix whatever the configuration.
/// - Monitored regions see every fix, delivered or not: the ``RegionMonitorEmulation`` reports a
///   region's state at the first fix, then each crossing, at once (Linux has no region monitor).
///
/// The requested accuracy is not applied: gpsd reports what its receiver measures, and the core's
/// filter judges each fix's accuracy.
struct GPSDFixRouter: Sendable {
    private(set) var request: LocationRequest = .off
    private(set) var oneShotPending = false
    private var filter = DistanceFilter()
    private var significant = SignificantChangeMonitor()
    private var regions = RegionMonitorEmulation()

    /// Whether anything needs fixes, so that gpsd must be watched.
    var wantsFixes: Bool {
        request.standard != nil || request.significantChange || oneShotPending || !regions.isEmpty
    }

    /// Applies a new configuration; a changed one delivers its first fix regardless of distance.
    mutating func configure(_ request: LocationRequest) {
        guard request != self.request else { return }
        self.request = request
        filter.reset(metres: request.standard?.distanceFilter)
        significant.set(on: request.significantChange)
    }

    /// Asks for the next fix whatever the configuration.
    mutating func requestOneShot() { oneShotPending = true }

    /// Monitors exactly `regions`; each new one reports its state at the next fix.
    mutating func monitor(_ regions: [MonitoredRegion], at time: Date) {
        self.regions.monitor(regions, at: time, position: nil, stateDelay: 0)
    }

    /// The events `fix` produces, in order (the fix, then region crossings), and whether the fix
    /// itself was delivered.
    mutating func route(_ fix: Fix) -> (events: [LocationServiceEvent], delivered: Bool) {
        var deliver = oneShotPending
        if request.standard != nil, filter.admits(fix.coordinate) { deliver = true }
        if significant.reports(fix.coordinate, at: fix.timestamp) { deliver = true }
        var events: [LocationServiceEvent] = []
        if deliver {
            oneShotPending = false
            events.append(.fix(fix))
        }
        for crossing in regions.step(at: fix.timestamp, position: fix.coordinate, stateDelay: 0, latency: { 0 }) {
            events.append(.regionCrossing(id: crossing.id, state: crossing.state))
        }
        return (events, deliver)
    }
}
