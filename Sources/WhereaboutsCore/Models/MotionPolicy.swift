import Foundation

/// The parameters of the stop-detecting modes: how stillness is judged, what runs while moving and
/// what wakes the device while stationary.
///
/// While moving, a policy with a ``cruiseAccuracy`` keeps positioning as coarse as the regions allow:
/// from each fine fix it works out how far the device may travel before any region boundary can be
/// reached (the distance to the nearest boundary, less the fix's accuracy and ``lead`` seconds at
/// the top speed of the reported activity) and cruises on cell positions until then; near a
/// boundary it asks for the accuracy that boundary needs.
public struct MotionPolicy: Sendable, Equatable, Hashable {
    /// A name for reports.
    public var name: String
    /// The device counts as still while every fix stays within this many metres of an anchor.
    public var stopRadius: Double
    /// Seconds of stillness before positioning is turned off.
    public var stopTimeout: TimeInterval
    /// Radius in metres of the stationary fence left around the device when it stops.
    public var stationaryRadius: Double
    /// Accuracy requested while moving within reach of a region boundary that this accuracy can judge.
    public var movingAccuracy: LocationAccuracy
    /// Accuracy requested while a region boundary is near enough to matter and ``movingAccuracy``
    /// cannot judge it (a fix left a region undecided, or a region under ``fineRadius`` is within
    /// reach); `nil` never raises it.
    public var nearBoundaryAccuracy: LocationAccuracy?
    /// Seconds accuracy stays raised after the last fix that called for it.
    public var raisedAccuracyHold: TimeInterval
    /// Base distance filter in metres while moving.
    public var distanceFilter: Double
    /// Multiplier of the elastic distance filter: filter = max(base, speed rounded to 5 m/s × multiplier).
    /// Zero turns elasticity off.
    public var elasticityMultiplier: Double
    /// Whether significant-location-change monitoring wakes the device while stationary.
    public var significantChangeWhileStationary: Bool
    /// Accuracy requested while every region boundary is out of reach; `nil` never cruises. A
    /// kilometre (cell) keeps the app running for almost nothing, so the Tracker's timer can bring
    /// finer positioning back in time.
    public var cruiseAccuracy: LocationAccuracy?
    /// Seconds of travel at the top speed kept between the device and the nearest region boundary:
    /// finer positioning starts this long before a boundary can be reached.
    public var lead: TimeInterval
    /// The longest a cruise lasts without a fine fix (a Wi-Fi one-shot is taken then), which bounds
    /// the recorded track's error. A suspended cruise (``osTrustRadius``) takes it at the first wake
    /// after that.
    public var maximumCruise: TimeInterval
    /// Regions with a radius under this many metres need ``nearBoundaryAccuracy`` as soon as they are
    /// within reach: a Wi-Fi fix cannot tell inside from outside. Zero never asks for it.
    public var fineRadius: Double
    /// A still device closer than this many metres to a region boundary keeps moving-state
    /// positioning (Wi-Fi scans once a minute when still) instead of turning it off: the stationary
    /// fence could not tell a step across that boundary. Zero always turns it off.
    public var watchDistance: Double
    /// Whether motion activity (the top speed of the reported class, stillness) and visits (arrivals,
    /// departures) inform the policy. Motion activity stays on while the device is still: a suspended
    /// app reads the reports it missed when the OS next wakes it, and a walk among them ends the stay
    /// when the walk began rather than when the OS noticed.
    public var motionSensing: Bool
    /// Whether a stop is placed by one GPS fix: once the device has been still for the stop timeout,
    /// a stay whose record has only a coarse (Wi-Fi or cell) position asks for one fix at the best
    /// accuracy, which places the record (``TrackerEffect/placeRecord(_:)``) and judges the regions
    /// around. It costs about what four Wi-Fi scans do, once per stop.
    public var placesStops: Bool
    /// Whether the app keeps running while the device is still, on the coarsest standard updates
    /// (cell positions, at most one every 100 m, which a still device does not get), so that the
    /// motion coprocessor's reports reach it (with ``motionSensing``): a confident report of walking
    /// or faster sets the device moving at once, where a suspended app waits for the OS to notice it
    /// left (a region exit or a significant change, a minute or more after it set off) and reads the
    /// report then. Costs the app's running power for every still minute.
    public var stillSensing: Bool
    /// Circular regions at least this many metres in radius are left to the OS while it monitors
    /// them (while they are in the slot plan in force): their boundaries do not end a cruise, a fix
    /// that leaves one undecided raises no accuracy, and the OS's report of the crossing (20–180 s
    /// after it on iOS) is the event. Only while the OS reports crossings whatever the app does
    /// (``Tracker/osMonitorsRegions``). Zero judges every region on the policy's own fixes.
    ///
    /// While every region the device could reach before significant-change monitoring wakes the app
    /// (500 m, or five minutes at the top speed of the reported activity) is one the OS settles, or
    /// will once the refresh region's exit hands it, the cruise suspends the app: no standard
    /// updates, only significant changes, visits and the OS's region reports wake it, and each wake
    /// plans again. The track is then recorded at those wakes alone.
    public var osTrustRadius: Double
    /// How far past a region's outline, as a fraction of its hysteresis band (25 m, or a quarter of a
    /// smaller radius), a fix that is no evidence of crossing it calls for
    /// ``nearBoundaryAccuracy``: at 1 only where a fix without error would be evidence, so a more
    /// accurate one would decide; at 0 as soon as the fix lies past the outline, so fine fixes go on
    /// while the device crosses the band. A passage that grazes a region is beyond the band for a few
    /// seconds, and the fix that sees it is the one taken while crossing. Between 0 and 1.
    public var undecidedDepth: Double
    /// Seconds between two uploads started by the threshold, a region event or a motion change, where
    /// the app's configuration names none (``TrackerConfiguration/minimumFlushInterval``): what the
    /// preset ships with. Longer coalescing wakes the radio less often (about 12 J an upload) and
    /// brings what was recorded on the way to the server later; stopping, an arrival and the
    /// foreground still upload at once.
    public var uploadInterval: TimeInterval

    /// Creates a policy. The parameters after `significantChangeWhileStationary` default to a policy
    /// that never cruises, uses no motion sensing and places no stop.
    public init(
        name: String, stopRadius: Double, stopTimeout: TimeInterval, stationaryRadius: Double,
        movingAccuracy: LocationAccuracy, nearBoundaryAccuracy: LocationAccuracy?,
        raisedAccuracyHold: TimeInterval, distanceFilter: Double,
        elasticityMultiplier: Double, significantChangeWhileStationary: Bool,
        cruiseAccuracy: LocationAccuracy? = nil, lead: TimeInterval = 0, maximumCruise: TimeInterval = 0,
        fineRadius: Double = 0, watchDistance: Double = 0, motionSensing: Bool = false, placesStops: Bool = false,
        stillSensing: Bool = false, osTrustRadius: Double = 0, undecidedDepth: Double = 1,
        uploadInterval: TimeInterval = TrackingMode.standardUploadInterval
    ) {
        self.name = name
        self.stopRadius = stopRadius
        self.stopTimeout = stopTimeout
        self.stationaryRadius = stationaryRadius
        self.movingAccuracy = movingAccuracy
        self.nearBoundaryAccuracy = nearBoundaryAccuracy
        self.raisedAccuracyHold = raisedAccuracyHold
        self.distanceFilter = distanceFilter
        self.elasticityMultiplier = elasticityMultiplier
        self.significantChangeWhileStationary = significantChangeWhileStationary
        self.cruiseAccuracy = cruiseAccuracy
        self.lead = lead
        self.maximumCruise = maximumCruise
        self.fineRadius = fineRadius
        self.watchDistance = watchDistance
        self.motionSensing = motionSensing
        self.placesStops = placesStops
        self.stillSensing = stillSensing
        self.osTrustRadius = osTrustRadius
        self.undecidedDepth = undecidedDepth
        self.uploadInterval = uploadInterval
    }

    /// Whereabouts' flagship, the `balanced` preset: cell positions while every boundary is out of
    /// reach, Wi-Fi from 10 s of travel before one (a fix every 20 m), GPS where Wi-Fi cannot decide or
    /// a fix lies halfway across a region's band (``undecidedDepth`` 0.5; held 3 s after the last fix
    /// that needed it), still while the fixes stay within 40 m of an anchor, everything off after a
    /// minute still (unless the device stopped within 30 m of a boundary: then Wi-Fi stays on to see a
    /// step across it), one GPS fix to place each stop, woken by the stationary fence, a significant change
    /// or a visit departure. Its stop radius, stop timeout, fine radius and undecided depth were picked
    /// by `simulate --folds` as the middle of one front with ``efficient`` and ``responsive``: the
    /// point the most folds picked (the Evaluation article,
    /// `Sources/Whereabouts/Whereabouts.docc/Evaluation.md`). The 30 m watch is not tuned: every
    /// preset keeps it, since only traces with stays near a boundary show what dropping it costs.
    public static let adaptive = preset(
        name: "adaptive", stopRadius: 40, stopTimeout: 60, watchDistance: 30, fineRadius: 0, undecidedDepth: 0.5)

    /// The `efficient` preset: GPS held 3 s and asked for only where a fix lies across a region's band
    /// (``undecidedDepth`` 1), still while the fixes stay within 80 m of an anchor, positioning off
    /// after a minute still (unless the device stopped within 30 m of a boundary), no fine radius, and
    /// circles of 100 m or more left to the OS while it monitors them (``osTrustRadius``): their
    /// boundaries neither end a cruise nor call for Wi-Fi or GPS, and the OS's report (20–180 s after
    /// the crossing) is their event, and while only such circles are within reach of the next wake the
    /// app sleeps through the cruise. It reports later than ``adaptive`` and spends about half its
    /// energy. It uploads what it records on the way at most once an hour (``uploadInterval``), not
    /// every half hour: the server learns of a trip's records and events up to an hour after they
    /// happen (an arrival, a stop and the foreground still upload at once), for about 0.008 of
    /// continuous GPS's energy less.
    public static let efficient = preset(
        name: "efficient", stopRadius: 80, stopTimeout: 60, watchDistance: 30, fineRadius: 0, osTrustRadius: 100, undecidedDepth: 1,
        uploadInterval: 3600)

    /// The `responsive` preset: GPS held 3 s after the last fix that needed it and asked for as soon
    /// as a fix lies past a region's outline (``undecidedDepth`` 0, so GPS follows the device across
    /// each band), GPS for regions under 60 m within reach, still while the fixes stay within 80 m of
    /// an anchor, positioning off after a minute still (unless the device stopped within 30 m of a
    /// boundary), and the app kept running on motion activity while still (``stillSensing``), so a
    /// region near the device is judged on fine fixes, a passage that grazes a region is seen, and a
    /// departure is seen when the motion coprocessor reports it rather than when the OS notices it.
    /// Picked by `simulate --folds` as ``adaptive`` is.
    public static let responsive = preset(
        name: "responsive", stopRadius: 80, stopTimeout: 60, watchDistance: 30, fineRadius: 60, stillSensing: true, undecidedDepth: 0)

    /// The adaptive family with the parameters its presets differ in. Every one starts Wi-Fi 10 s of
    /// travel before a boundary, takes a fix every 20 m, holds raised accuracy 3 s after the last fix
    /// that needed it and places its stops.
    private static func preset(
        name: String, stopRadius: Double, stopTimeout: TimeInterval, watchDistance: Double, fineRadius: Double,
        stillSensing: Bool = false, osTrustRadius: Double = 0, undecidedDepth: Double = 1,
        uploadInterval: TimeInterval = TrackingMode.standardUploadInterval
    ) -> MotionPolicy {
        MotionPolicy(
            name: name, stopRadius: stopRadius, stopTimeout: stopTimeout, stationaryRadius: 150,
            movingAccuracy: .hundredMeters, nearBoundaryAccuracy: .best, raisedAccuracyHold: 3,
            distanceFilter: 20,
            elasticityMultiplier: 2, significantChangeWhileStationary: true,
            cruiseAccuracy: .kilometer, lead: 10, maximumCruise: 120, fineRadius: fineRadius, watchDistance: watchDistance,
            motionSensing: true, placesStops: true, stillSensing: stillSensing, osTrustRadius: osTrustRadius,
            undecidedDepth: undecidedDepth, uploadInterval: uploadInterval)
    }

    /// The commercial SDK's state machine as documented: best accuracy with a 10 m elastic filter
    /// while moving, stationary after 5 minutes still, a 200 m stationary geofence.
    public static let stopDetect = MotionPolicy(
        name: "stop-detect", stopRadius: 25, stopTimeout: 300, stationaryRadius: 200,
        movingAccuracy: .best, nearBoundaryAccuracy: nil, raisedAccuracyHold: 0,
        distanceFilter: 10, elasticityMultiplier: 1, significantChangeWhileStationary: false)
}

extension MotionPolicy: Codable {
    private enum CodingKeys: String, CodingKey {
        case preset
        case name, stopRadius, stopTimeout, stationaryRadius, movingAccuracy, nearBoundaryAccuracy, raisedAccuracyHold
        case distanceFilter, elasticityMultiplier, significantChangeWhileStationary
        case cruiseAccuracy, lead, maximumCruise, fineRadius, watchDistance, motionSensing, placesStops, stillSensing, osTrustRadius
        case undecidedDepth, uploadInterval
    }

    /// The built-in presets, which are saved by name.
    public static let presets = [adaptive, efficient, responsive, stopDetect]

    /// Saves a built-in preset by name (`{"preset": "efficient"}`), so that a saved mode keeps meaning
    /// the preset when an app update retunes it; any other policy, a preset with one value changed
    /// included, by every value.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if Self.presets.contains(self) {
            try c.encode(name, forKey: .preset)
            return
        }
        try c.encode(name, forKey: .name)
        try c.encode(stopRadius, forKey: .stopRadius)
        try c.encode(stopTimeout, forKey: .stopTimeout)
        try c.encode(stationaryRadius, forKey: .stationaryRadius)
        try c.encode(movingAccuracy, forKey: .movingAccuracy)
        try c.encodeIfPresent(nearBoundaryAccuracy, forKey: .nearBoundaryAccuracy)
        try c.encode(raisedAccuracyHold, forKey: .raisedAccuracyHold)
        try c.encode(distanceFilter, forKey: .distanceFilter)
        try c.encode(elasticityMultiplier, forKey: .elasticityMultiplier)
        try c.encode(significantChangeWhileStationary, forKey: .significantChangeWhileStationary)
        try c.encodeIfPresent(cruiseAccuracy, forKey: .cruiseAccuracy)
        try c.encode(lead, forKey: .lead)
        try c.encode(maximumCruise, forKey: .maximumCruise)
        try c.encode(fineRadius, forKey: .fineRadius)
        try c.encode(watchDistance, forKey: .watchDistance)
        try c.encode(motionSensing, forKey: .motionSensing)
        try c.encode(placesStops, forKey: .placesStops)
        try c.encode(stillSensing, forKey: .stillSensing)
        try c.encode(osTrustRadius, forKey: .osTrustRadius)
        try c.encode(undecidedDepth, forKey: .undecidedDepth)
        try c.encode(uploadInterval, forKey: .uploadInterval)
    }

    /// Decodes a policy: a preset saved by name is today's preset of that name; a policy saved by
    /// value keeps its values, and one saved before cruising (or stop placing, or trusting the OS, or
    /// the undecided depth, or the upload interval) existed decodes as a policy that never cruises
    /// (or places stops, or leaves regions to the OS, or asks for finer fixes in the band, or
    /// coalesces uploads other than every half hour).
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a preset name this version does not know, an
    ///   undecided depth outside 0...1 (or not a number), or an upload interval outside
    ///   ``TrackerConfiguration/uploadIntervals`` (0 to 86 400 s).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let name = try c.decodeIfPresent(String.self, forKey: .preset) {
            guard let preset = Self.presets.first(where: { $0.name == name }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .preset, in: c,
                    debugDescription: "preset \"\(name)\" is not one of \(Self.presets.map(\.name).joined(separator: ", "))")
            }
            self = preset
            return
        }
        let undecidedDepth = try c.decodeIfPresent(Double.self, forKey: .undecidedDepth) ?? 1
        guard (0...1).contains(undecidedDepth) else {
            throw DecodingError.dataCorruptedError(
                forKey: .undecidedDepth, in: c,
                debugDescription: "undecidedDepth \(undecidedDepth) is not a fraction of the hysteresis band: "
                    + "give 0 (the outline) to 1 (the band's far edge)")
        }
        let uploadInterval = try c.decodeIfPresent(TimeInterval.self, forKey: .uploadInterval) ?? TrackingMode.standardUploadInterval
        if let problem = TrackerConfiguration.uploadIntervalProblem(uploadInterval) {
            throw DecodingError.dataCorruptedError(forKey: .uploadInterval, in: c, debugDescription: "uploadInterval \(problem)")
        }
        self.init(
            name: try c.decode(String.self, forKey: .name), stopRadius: try c.decode(Double.self, forKey: .stopRadius),
            stopTimeout: try c.decode(TimeInterval.self, forKey: .stopTimeout),
            stationaryRadius: try c.decode(Double.self, forKey: .stationaryRadius),
            movingAccuracy: try c.decode(LocationAccuracy.self, forKey: .movingAccuracy),
            nearBoundaryAccuracy: try c.decodeIfPresent(LocationAccuracy.self, forKey: .nearBoundaryAccuracy),
            raisedAccuracyHold: try c.decode(TimeInterval.self, forKey: .raisedAccuracyHold),
            distanceFilter: try c.decode(Double.self, forKey: .distanceFilter),
            elasticityMultiplier: try c.decode(Double.self, forKey: .elasticityMultiplier),
            significantChangeWhileStationary: try c.decode(Bool.self, forKey: .significantChangeWhileStationary),
            cruiseAccuracy: try c.decodeIfPresent(LocationAccuracy.self, forKey: .cruiseAccuracy),
            lead: try c.decodeIfPresent(TimeInterval.self, forKey: .lead) ?? 0,
            maximumCruise: try c.decodeIfPresent(TimeInterval.self, forKey: .maximumCruise) ?? 0,
            fineRadius: try c.decodeIfPresent(Double.self, forKey: .fineRadius) ?? 0,
            watchDistance: try c.decodeIfPresent(Double.self, forKey: .watchDistance) ?? 0,
            motionSensing: try c.decodeIfPresent(Bool.self, forKey: .motionSensing) ?? false,
            placesStops: try c.decodeIfPresent(Bool.self, forKey: .placesStops) ?? false,
            stillSensing: try c.decodeIfPresent(Bool.self, forKey: .stillSensing) ?? false,
            osTrustRadius: try c.decodeIfPresent(Double.self, forKey: .osTrustRadius) ?? 0,
            undecidedDepth: undecidedDepth, uploadInterval: uploadInterval)
    }
}
