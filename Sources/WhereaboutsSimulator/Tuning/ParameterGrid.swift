/// The candidate settings a sweep tries: every combination of a few values of each parameter.
public struct ParameterGrid: Sendable {
    /// The values tried for each parameter.
    public let axes: [(parameter: PolicyParameter, values: [Double])]

    /// Creates a grid from its axes.
    public init(axes: [(parameter: PolicyParameter, values: [Double])]) {
        self.axes = axes
    }

    /// The grid `simulate --folds` and `--plot` sweep over the adaptive policy: how early finer
    /// positioning starts, how long accuracy stays raised, how soon a still device stops positioning
    /// (1, 2 or 3 minutes: a minute saves energy at every stop, and costs latency where a stop's
    /// regions are left to the stationary fence), whether it keeps positioning at a stop near a
    /// boundary (none, within 10 m, within 30 m), and how far apart moving fixes are.
    /// The fine radius stays at none: since the engine ignores the OS's late echoes and a settled
    /// device's Wi-Fi noise, no fold of the sweep that tried 60 and 120 m picked either (earlier
    /// engines' sweeps did).
    public static let standard = ParameterGrid(axes: [
        (.lead, [10, 30]),
        (.raisedAccuracyHold, [3, 8]),
        (.stopTimeout, [60, 120, 180]),
        (.watchDistance, [0, 10, 30]),
        (.distanceFilter, [20, 50]),
    ])

    /// Every combination, the first axis varying slowest.
    public var candidates: [[PolicySetting]] {
        axes.reduce([[]]) { partial, axis in
            partial.flatMap { settings in axis.values.map { settings + [PolicySetting(parameter: axis.parameter, value: $0)] } }
        }
    }
}
