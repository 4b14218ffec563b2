import WhereaboutsCore

/// What a preset asks of the sweep: the least energy among the candidates whose recall and
/// precision reach its floors on the scenarios it is tuned on.
public struct PresetGoal: Sendable, Equatable {
    /// The preset's name (the strategy it tunes).
    public let name: String
    /// The recall a candidate must reach.
    public let recallFloor: Double
    /// The precision a candidate must reach.
    public let precisionFloor: Double

    /// Creates a goal.
    public init(name: String, recallFloor: Double, precisionFloor: Double) {
        self.name = name
        self.recallFloor = recallFloor
        self.precisionFloor = precisionFloor
    }

    /// The three presets, slowest to drain the battery first.
    public static let presets = [
        PresetGoal(name: MotionPolicy.efficient.name, recallFloor: 0.90, precisionFloor: 0.93),
        PresetGoal(name: MotionPolicy.adaptive.name, recallFloor: 0.93, precisionFloor: 0.95),
        PresetGoal(name: MotionPolicy.responsive.name, recallFloor: 0.96, precisionFloor: 0.95),
    ]

    /// The index of the candidate this goal picks from their aggregates: the least energy among those
    /// meeting both floors, else the best recall + precision.
    public func pick(_ aggregates: [StrategyAggregate]) -> Int {
        let meeting = aggregates.indices.filter { aggregates[$0].recall >= recallFloor && aggregates[$0].precision >= precisionFloor }
        if let cheapest = meeting.min(by: { (aggregates[$0].energyRatio, $0) < (aggregates[$1].energyRatio, $1) }) {
            return cheapest
        }
        return aggregates.indices.max {
            (aggregates[$0].recall + aggregates[$0].precision, -$0) < (aggregates[$1].recall + aggregates[$1].precision, -$1)
        }!
    }
}
