import WhereaboutsCore

/// A tracking strategy: a named configuration of the one Tracker.
public struct Strategy: Sendable, Equatable {
    /// The name used on the command line and in reports.
    public let name: String
    /// What it does, in a line.
    public let summary: String
    /// The Tracker configuration.
    public let configuration: TrackerConfiguration

    /// Creates a strategy.
    public init(name: String, summary: String, configuration: TrackerConfiguration) {
        self.name = name
        self.summary = summary
        self.configuration = configuration
    }

    /// Best accuracy with no filter, every fix beyond the merge radius recorded: what the seed app
    /// did. The reference.
    public static let continuous = Strategy(
        name: "continuous", summary: "GPS always on, best accuracy, no filter",
        configuration: TrackerConfiguration(mode: .continuous(accuracy: .best, distanceFilter: nil)))
    /// OwnTracks' move mode: GPS on, a record every 100 m or 300 s.
    public static let move = Strategy(
        name: "move", summary: "GPS on, a record every 100 m or 300 s",
        configuration: TrackerConfiguration(mode: .move(distance: 100, interval: 300)))
    /// Significant-location-change monitoring only.
    public static let significant = Strategy(
        name: "significant", summary: "significant-change events (500 m / 5 min)",
        configuration: TrackerConfiguration(mode: .significant, oneShotAccuracy: .hundredMeters))
    /// OS region monitoring with slot planning; no GPS, Wi-Fi one-shots to re-plan.
    public static let regionsOnly = Strategy(
        name: "regions-only", summary: "OS region monitoring with slot planning, no GPS",
        configuration: TrackerConfiguration(mode: .manual, oneShotAccuracy: .hundredMeters))
    /// The commercial SDK's moving/stationary state machine.
    public static let stopDetect = Strategy(
        name: "stop-detect", summary: "moving: GPS with 10 m elastic filter; still 5 min: 200 m fence",
        configuration: TrackerConfiguration(mode: .adaptive(.stopDetect)))
    /// Whereabouts' adaptive mode, the `balanced` preset.
    public static let adaptive = preset(
        .adaptive,
        summary:
            "cell while boundaries are out of reach, Wi-Fi near them, GPS where Wi-Fi cannot decide or a fix lies halfway across a band (held 3 s), still within 40 m, off after 1 min still unless within 30 m of one"
    )
    /// The `efficient` preset of the adaptive mode.
    public static let efficient = preset(
        .efficient,
        summary:
            "adaptive off after 1 min still unless within 30 m of a boundary, circles of 100 m or more left to the OS's monitoring (reported 20–180 s late), uploads at most hourly"
    )
    /// The `responsive` preset of the adaptive mode.
    public static let responsive = preset(
        .responsive,
        summary:
            "adaptive with GPS asked for once a fix lies past a region's outline, GPS for regions under 60 m, still within 80 m, off after 1 min still unless within 30 m of a boundary, motion activity watched while still"
    )

    /// The adaptive mode with `policy`, named for it.
    public static func preset(_ policy: MotionPolicy, summary: String) -> Strategy {
        Strategy(
            name: policy.name, summary: summary,
            configuration: TrackerConfiguration(mode: .adaptive(policy), oneShotAccuracy: .hundredMeters))
    }

    /// Every strategy, in report order.
    public static let all: [Strategy] = [continuous, move, significant, regionsOnly, stopDetect, adaptive, efficient, responsive]

    /// The preset names the README, the bridge and TypeScript use for a strategy named otherwise here.
    public static let aliases = ["balanced": adaptive.name]

    /// The strategy with the given name or alias (`balanced` is ``adaptive``), if any.
    public static func named(_ name: String) -> Strategy? {
        let name = aliases[name] ?? name
        return all.first { $0.name == name }
    }
}
