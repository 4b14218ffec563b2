/// The candidate settings a sweep tries: every combination of a few values of each parameter.
public struct ParameterGrid: Sendable {
    /// The values tried for each parameter.
    public let axes: [(parameter: PolicyParameter, values: [Double])]

    /// Creates a grid from its axes.
    public init(axes: [(parameter: PolicyParameter, values: [Double])]) {
        self.axes = axes
    }

    /// The grid `simulate --folds` and `--plot` sweep over the adaptive policy (balanced's distance
    /// filter of 20 m kept, a lead of 10 s, which four folds of five picked over 30 and 60 s for
    /// balanced on an earlier run of this sweep, accuracy raised for 3 s, which every preset picked
    /// over 8 s in the seventh round at both seeds, and positioning kept at a stop within 30 m of a
    /// boundary, ``MotionPolicy/watchDistance``): how far a fix may stray from the stillness anchor
    /// while the device counts as still (80 or 40 m), how soon a still device stops positioning (1, 2
    /// or 5 minutes), whether regions under 60 m call for GPS as soon as they are within reach,
    /// whether the app keeps running on motion activity while still (``MotionPolicy/stillSensing``),
    /// whether circles of 100 m or more are left to the OS (``MotionPolicy/osTrustRadius``), and how
    /// deep into a region's hysteresis band a fix asks for a finer one (``MotionPolicy/undecidedDepth``:
    /// the band's far edge, halfway, or the outline): 144 points, from which the three presets are
    /// picked as one front (``PresetGoal/presets``).
    ///
    /// The watch is not swept. It matters only on traces with stays near a boundary (short walks out
    /// of a stop and back); tuned on folds without such a trace, a preset dropped it to save energy
    /// and missed a tenth of the events of the trace it was then scored on (efficient's fold 4 of the
    /// fifteenth round: recall 0.884 without it, 0.939 with it). A safeguard that only some traces
    /// need is one a fold cannot learn to keep, so every point keeps it.
    public static let standard = ParameterGrid(axes: [
        (.lead, [10]),
        (.raisedAccuracyHold, [3]),
        (.stopRadius, [80, 40]),
        (.stopTimeout, [60, 120, 300]),
        (.watchDistance, [30]),
        (.fineRadius, [0, 60]),
        (.stillSensing, [0, 1]),
        (.osTrustRadius, [0, 100]),
        (.undecidedDepth, [1, 0.5, 0]),
    ])

    /// Every combination, the first axis varying slowest.
    public var candidates: [[PolicySetting]] {
        axes.reduce([[]]) { partial, axis in
            partial.flatMap { settings in axis.values.map { settings + [PolicySetting(parameter: axis.parameter, value: $0)] } }
        }
    }
}
