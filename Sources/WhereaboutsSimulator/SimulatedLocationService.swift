import Foundation
import WhereaboutsCore

/// The positioning half of the simulated phone: standard updates by source (GPS, Wi-Fi, cell),
/// GPS acquisition, one-shot requests and significant-change events, as `evaluation.md` describes.
///
/// Wi-Fi scans every 10 s while the device moves and every 60 s while it is still, both counted
/// from the previous scan and judged each second: a device that sets off after a still scan is
/// scanned once 10 s have passed since it, as CoreLocation's updates quicken when the motion
/// coprocessor sees the device move, rather than 60 s after it.
///
/// Restarting standard updates (a new source: turned on, or handing GPS back to Wi-Fi) first delivers
/// the OS's most recent location when it is under ``cacheAge`` seconds old, with its own time, accuracy
/// and source, at no cost; Wi-Fi scans then keep that schedule, counted from the previous scan, not
/// from the restart.
///
/// Starting significant-change monitoring first delivers the OS's most recent location, whatever its
/// age ("first event often a cached fix"), with its own time, accuracy and source, at no cost, and
/// the next event comes 500 m and 5 minutes from it; only a phone that never had a location
/// observes a fresh one. So turning the service off and on yields no new observation.
struct SimulatedLocationService {
    /// How old, in seconds, the OS's most recent location may be to be delivered again on a restart.
    static let cacheAge = 10.0

    /// Which receiver produces a fix.
    enum Source { case gps, wifi, cell }

    private(set) var request = LocationRequest.off
    private var oneShot: (source: Source, readyAt: Double)?
    private var gps = GPSReceiver()
    private var lastWifiScan: Double?
    /// The newest location the OS produced (any source), and the one a restart delivers first.
    private var lastLocation: Fix?
    private var cached: Fix?
    /// What starting significant-change monitoring delivers at the next step.
    private var significantStart: Fix?
    private var cellTravel = 0.0
    private var nextCellChange = 0.0
    private var cellStarted = false
    private var filter = DistanceFilter()
    private var significant = SignificantChangeMonitor()

    /// Whether standard updates are on (which keeps the app running).
    var standardOn: Bool { request.standard != nil }

    static func source(for accuracy: LocationAccuracy) -> Source {
        switch accuracy {
        case .best, .tenMeters: .gps
        case .hundredMeters: .wifi
        case .kilometer, .threeKilometers: .cell
        }
    }

    /// Applies a new configuration at second `t`.
    mutating func configure(_ new: LocationRequest, at t: Double) {
        let oldSource = request.standard.map { Self.source(for: $0.accuracy) }
        let newSource = new.standard.map { Self.source(for: $0.accuracy) }
        if newSource != oldSource {
            cellStarted = false
            cached = newSource == nil ? nil : lastLocation.flatMap { t - $0.timestamp.timeIntervalSince1970 < Self.cacheAge ? $0 : nil }
        }
        if newSource != oldSource || new.standard?.distanceFilter != request.standard?.distanceFilter {
            filter.reset(metres: new.standard?.distanceFilter)
        }
        let starting = new.significantChange && !significant.isOn
        significant.set(on: new.significantChange)
        if starting, let last = lastLocation {
            significant.take(last.coordinate, at: Date(timeIntervalSince1970: t))
            significantStart = last
        } else if !new.significantChange {
            significantStart = nil
        }
        request = new
    }

    /// Starts a one-shot request at second `t`.
    mutating func requestOneShot(_ accuracy: LocationAccuracy, at t: Double) {
        let source = Self.source(for: accuracy)
        let delay = source == .gps ? 0 : 2
        if let pending = oneShot, pending.source == .gps || source != .gps { return }
        oneShot = (source, t + Double(delay))
    }

    /// What happened in second `t`: fixes from standard updates, a one-shot fix, a significant-change fix.
    mutating func step(
        at t: Double, truth: TruthPath, random: inout SeededGenerator, timeline: inout [TimelineRecord]
    ) -> (standard: Fix?, oneShot: Fix?, significant: Fix?) {
        let position = truth.position(at: t)
        let speed = truth.speed(at: t)
        let standardSource = request.standard.map { Self.source(for: $0.accuracy) }
        let gpsWanted = standardSource == .gps || oneShot?.source == .gps
        let gpsReady = gps.step(wanted: gpsWanted, at: t, timeline: &timeline)

        var standardFix: Fix?
        let scanInterval: Double = speed > 0.5 ? 10 : 60
        switch standardSource {
        case _ where cached != nil:
            standardFix = cached
            cached = nil
        case .gps? where gpsReady:
            standardFix = Self.fix(.gps, position, speed, t, &random)
        case .wifi?:
            if lastWifiScan.map({ t - $0 >= scanInterval }) ?? true {
                timeline.append(.wifiScan(t: t))
                lastWifiScan = t
                standardFix = Self.fix(.wifi, position, speed, t, &random)
            }
        case .cell?:
            cellTravel += speed
            if !cellStarted || cellTravel >= nextCellChange {
                cellStarted = true
                cellTravel = 0
                nextCellChange = random.uniform(500...1000)
                timeline.append(.cellFix(t: t))
                standardFix = Self.fix(.cell, position, speed, t, &random)
            }
        default:
            break
        }
        if let fix = standardFix, fix.timestamp.timeIntervalSince1970 == t { lastLocation = fix }
        if let fix = standardFix, !filter.admits(fix.coordinate) { standardFix = nil }

        var oneShotFix: Fix?
        if let pending = oneShot, t >= pending.readyAt, pending.source != .gps || gpsReady {
            oneShot = nil
            switch pending.source {
            case .wifi:
                timeline.append(.wifiScan(t: t))
                lastWifiScan = t
            case .cell: timeline.append(.cellFix(t: t))
            case .gps: break
            }
            oneShotFix = Self.fix(pending.source, position, speed, t, &random)
            lastLocation = oneShotFix
            if standardFix?.source == oneShotFix?.source { standardFix = nil }
        }

        var significantFix: Fix?
        if let start = significantStart {
            significantStart = nil
            significantFix = start
        } else if significant.reports(position, at: Date(timeIntervalSince1970: t)) {
            timeline.append(.cellFix(t: t))
            significantFix = Self.noisyFix(
                position, sigma: 100, accuracy: random.uniform(100...200), source: .significantChange, speed: nil, t, &random)
            lastLocation = significantFix
        }
        return (standardFix, oneShotFix, significantFix)
    }

    private static func fix(_ source: Source, _ position: Coordinate, _ speed: Double, _ t: Double, _ random: inout SeededGenerator) -> Fix
    {
        switch source {
        case .gps:
            noisyFix(position, sigma: 5, accuracy: random.uniform(5...15), source: .gps, speed: speed, t, &random)
        case .wifi:
            noisyFix(position, sigma: 30, accuracy: random.uniform(30...65), source: .wifi, speed: nil, t, &random)
        case .cell:
            noisyFix(position, sigma: 300, accuracy: random.uniform(800...1500), source: .cell, speed: nil, t, &random)
        }
    }

    static func noisyFix(
        _ position: Coordinate, sigma: Double, accuracy: Double, source: FixSource, speed: Double?, _ t: Double,
        _ random: inout SeededGenerator
    ) -> Fix {
        let north = random.gaussian(sigma: sigma)
        let east = random.gaussian(sigma: sigma)
        let latitude = position.latitude + north / Geodesy.metresPerDegreeLatitude
        let longitude =
            position.longitude
            + east / (Geodesy.metresPerDegreeLatitude * max(0.01, cos(position.latitude * .pi / 180)))
        return try! Fix(
            coordinate: Coordinate(normalizingLatitude: latitude, longitude: longitude), horizontalAccuracy: accuracy,
            speed: speed, timestamp: Date(timeIntervalSince1970: t), source: source)
    }
}

/// The GPS receiver: off, acquiring (3 s warm, 15 s cold) or tracking, with its timeline records.
struct GPSReceiver {
    /// GPS counts as warm when it was on within this many seconds.
    static let warmWindow: Double = 4 * 3600
    private var state = TimelineRecord.GPSState.off
    private var trackingFrom = 0.0
    private var lastOn: Double?

    /// Moves the receiver to the wanted state at second `t`; returns whether it delivers a fix this second.
    mutating func step(wanted: Bool, at t: Double, timeline: inout [TimelineRecord]) -> Bool {
        switch (state, wanted) {
        case (.off, true):
            let warm = lastOn.map { t - $0 <= Self.warmWindow } ?? false
            trackingFrom = t + (warm ? 3 : 15)
            state = .acquiring
            timeline.append(.gps(t: t, state: .acquiring))
        case (.acquiring, true) where t >= trackingFrom:
            state = .tracking
            timeline.append(.gps(t: t, state: .tracking))
        case (.acquiring, false), (.tracking, false):
            state = .off
            lastOn = t
            timeline.append(.gps(t: t, state: .off))
        default:
            break
        }
        if state == .tracking { lastOn = t }
        return state == .tracking
    }
}
