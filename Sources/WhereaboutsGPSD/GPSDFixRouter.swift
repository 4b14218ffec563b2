import Whereabouts
import WhereaboutsCore

/// Decides which decoded fixes become events, given what the engine asked for. Pure value type.
///
/// - Standard updates deliver every fix at least the distance filter (metres) away from the last
///   delivered one; no filter delivers every fix.
/// - Significant-change monitoring delivers a fix at least ``significantChangeDistance`` metres from
///   the last delivered one (and the first fix).
/// - A one-shot request delivers the next fix whatever the configuration.
/// - Monitored regions see every fix, delivered or not (see ``GPSDRegionWatch``).
///
/// The requested accuracy is not applied: gpsd reports what its receiver measures, and the core's
/// filter judges each fix's accuracy.
struct GPSDFixRouter: Sendable {
    /// How far in metres the device must move for a significant-change fix (CoreLocation's figure).
    static let significantChangeDistance: Double = 500

    private(set) var request: LocationRequest = .off
    private(set) var oneShotPending = false
    private var lastDelivered: Coordinate?
    private var regions = GPSDRegionWatch()

    /// Whether anything needs fixes, so that gpsd must be watched.
    var wantsFixes: Bool {
        request.standard != nil || request.significantChange || oneShotPending || !regions.isEmpty
    }

    /// Applies a new configuration; a changed one delivers its first fix regardless of distance.
    mutating func configure(_ request: LocationRequest) {
        guard request != self.request else { return }
        self.request = request
        lastDelivered = nil
    }

    /// Asks for the next fix whatever the configuration.
    mutating func requestOneShot() { oneShotPending = true }

    /// Monitors exactly `regions`.
    mutating func monitor(_ regions: [MonitoredRegion]) { self.regions.monitor(regions) }

    /// The events `fix` produces, in order (the fix, then region crossings), and whether the fix
    /// itself was delivered.
    mutating func route(_ fix: Fix) -> (events: [LocationServiceEvent], delivered: Bool) {
        let moved = lastDelivered.map { Geodesy.distance($0, fix.coordinate) }
        func movedAtLeast(_ metres: Double) -> Bool { moved.map { $0 >= metres } ?? true }
        var deliver = oneShotPending
        if let standard = request.standard, movedAtLeast(standard.distanceFilter ?? 0) { deliver = true }
        if request.significantChange, movedAtLeast(Self.significantChangeDistance) { deliver = true }
        var events: [LocationServiceEvent] = []
        if deliver {
            oneShotPending = false
            lastDelivered = fix.coordinate
            events.append(.fix(fix))
        }
        for crossing in regions.crossings(for: fix) {
            events.append(.regionCrossing(id: crossing.id, state: crossing.state))
        }
        return (events, deliver)
    }
}
