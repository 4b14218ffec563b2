import Foundation

/// Energy spent by a run, from its timeline, with the figures of `evaluation.md`.
public struct EnergyMeter: Sendable, Equatable, Codable {
    /// Watts while GPS tracks.
    public static let gpsTracking = 0.30
    /// Watts while GPS acquires.
    public static let gpsAcquiring = 0.45
    /// Joules per Wi-Fi scan.
    public static let wifiScan = 0.45
    /// Joules per cell fix.
    public static let cellFix = 0.05
    /// Joules to promote the radio for an upload.
    public static let uploadPromotion = 0.31
    /// Watts of the radio tail after an upload.
    public static let uploadTailPower = 1.06
    /// Seconds of the radio tail.
    public static let uploadTail = 11.6
    /// Watts while the app runs in the background.
    public static let appRunning = 0.02
    /// Joules per wake.
    public static let wake = 0.05
    /// Watts while motion sensing is on.
    public static let motion = 0.001

    /// Joules spent by GPS (tracking and acquiring).
    public var gps = 0.0
    /// Joules spent on Wi-Fi scans.
    public var wifi = 0.0
    /// Joules spent on cell fixes.
    public var cell = 0.0
    /// Joules spent on uploads (promotions and tails).
    public var network = 0.0
    /// Joules spent running the app in the background.
    public var app = 0.0
    /// Joules spent on wakes.
    public var wakes = 0.0
    /// Joules spent on motion sensing.
    public var motionSensing = 0.0

    /// Total joules.
    public var total: Double { gps + wifi + cell + network + app + wakes + motionSensing }

    /// Meters `timeline` (sorted by time) over `start…end` epoch seconds.
    public init(timeline: [TimelineRecord], start: Double, end: Double) {
        var gpsState = TimelineRecord.GPSState.off
        var gpsSince = start
        var appOn = false
        var appSince = start
        var motionOn = false
        var motionSince = start
        var tailEnd = -Double.infinity
        func closeGPS(at t: Double) {
            let watts = gpsState == .tracking ? Self.gpsTracking : gpsState == .acquiring ? Self.gpsAcquiring : 0
            gps += watts * max(0, t - gpsSince)
        }
        for record in timeline {
            let t = min(max(record.t, start), end)
            switch record {
            case .gps(_, let state):
                closeGPS(at: t)
                gpsState = state
                gpsSince = t
            case .wifiScan: wifi += Self.wifiScan
            case .cellFix: cell += Self.cellFix
            case .upload:
                if t >= tailEnd {
                    network += Self.uploadPromotion
                } else {
                    network -= Self.uploadTailPower * (tailEnd - t)
                }
                tailEnd = t + Self.uploadTail
                network += Self.uploadTailPower * Self.uploadTail
            case .app(_, let state):
                if appOn { app += Self.appRunning * max(0, t - appSince) }
                appOn = state == .running
                appSince = t
            case .wake: wakes += Self.wake
            case .motion(_, let on):
                if motionOn { motionSensing += Self.motion * max(0, t - motionSince) }
                motionOn = on
                motionSince = t
            }
        }
        closeGPS(at: end)
        if appOn { app += Self.appRunning * max(0, end - appSince) }
        if motionOn { motionSensing += Self.motion * max(0, end - motionSince) }
    }

    /// The reference: continuous GPS at 0.30 W over `duration` seconds.
    public static func reference(duration: Double) -> Double { gpsTracking * duration }
}
