import Foundation
import WhereaboutsCore

/// What a preset asks of the sweep, on the scenarios it is tuned on: floors and ceilings a candidate
/// must meet, and among those the least energy or the most recall.
public struct PresetGoal: Sendable, Equatable {
    /// What a goal asks for among the candidates it admits.
    public enum Objective: Sendable, Equatable {
        /// The least energy.
        case leastEnergy
        /// The most recall (then precision, then the least energy).
        case mostRecall
    }

    /// The preset's name (the strategy it tunes).
    public let name: String
    /// The recall a candidate must reach.
    public let recallFloor: Double
    /// The precision a candidate must reach.
    public let precisionFloor: Double
    /// The p95 latency (seconds) a candidate must not exceed; `nil` for no limit.
    public let latencyP95Ceiling: TimeInterval?
    /// The energy ratio a candidate must not exceed; `nil` for no limit.
    public let energyBudget: Double?
    /// What the goal asks for among the candidates it admits: with a budget, the most recall within
    /// it; without, the least energy.
    public var objective: Objective { energyBudget == nil ? .leastEnergy : .mostRecall }

    /// Creates a goal (see ``objective`` for what it asks for among the candidates it admits).
    public init(
        name: String, recallFloor: Double = 0, precisionFloor: Double, latencyP95Ceiling: TimeInterval? = nil,
        energyBudget: Double? = nil
    ) {
        self.name = name
        self.recallFloor = recallFloor
        self.precisionFloor = precisionFloor
        self.latencyP95Ceiling = latencyP95Ceiling
        self.energyBudget = energyBudget
    }

    /// The three presets, slowest to drain the battery first, each picked above the one before it
    /// (``admits(_:above:)``): `efficient` the least energy with recall ≥ 0.95; `balanced` (the
    /// adaptive default) the most recall within a sixth of continuous GPS's energy with a p95 latency
    /// of at most 60 s; `responsive` the most recall within a quarter with a p95 latency of at most
    /// 30 s (each as issue 50 aims); each with precision ≥ 0.95 (the city blocks of small regions
    /// bring every strategy's precision below 0.97).
    public static let presets = [
        PresetGoal(name: MotionPolicy.efficient.name, recallFloor: 0.95, precisionFloor: 0.95),
        PresetGoal(name: MotionPolicy.adaptive.name, precisionFloor: 0.95, latencyP95Ceiling: 60, energyBudget: 1.0 / 6),
        PresetGoal(name: MotionPolicy.responsive.name, precisionFloor: 0.95, latencyP95Ceiling: 30, energyBudget: 0.25),
    ]

    /// How much more energy a preset must spend than the one below it on the front, so that the
    /// cheaper one is clearly cheaper.
    public static let energyStep = 0.01

    /// Whether `figures` meet every floor, ceiling and budget of this goal; figures without a latency
    /// (no report matched) meet the latency ceiling.
    public func admits(_ figures: StrategyAggregate) -> Bool {
        figures.recall >= recallFloor && figures.precision >= precisionFloor
            && (latencyP95Ceiling.map { (figures.latencyP95 ?? 0) <= $0 } ?? true)
            && (energyBudget.map { figures.energyRatio <= $0 } ?? true)
    }

    /// Whether `figures` meet this goal and stand above `cheaper`, the figures of the preset below
    /// on the front: strictly more recall, a strictly lower p95 latency, and at least
    /// ``energyStep`` more energy.
    public func admits(_ figures: StrategyAggregate, above cheaper: StrategyAggregate?) -> Bool {
        guard admits(figures) else { return false }
        guard let cheaper else { return true }
        return figures.recall > cheaper.recall && (figures.latencyP95 ?? 0) < (cheaper.latencyP95 ?? .infinity)
            && figures.energyRatio >= cheaper.energyRatio + Self.energyStep
    }

    /// The index of the candidate this goal picks from their aggregates, among those above `cheaper`
    /// (``admits(_:above:)``) when any is, by its ``objective``; when it admits none, the best recall +
    /// precision. Ties go to the earlier candidate.
    public func pick(_ aggregates: [StrategyAggregate], above cheaper: StrategyAggregate? = nil) -> Int {
        var admitted = aggregates.indices.filter { admits(aggregates[$0], above: cheaper) }
        if admitted.isEmpty { admitted = aggregates.indices.filter { admits(aggregates[$0]) } }
        /// What the objective minimises, in order, for the candidate at `index`.
        func cost(_ index: Int) -> (Double, Double, Double, Int) {
            let figures = aggregates[index]
            switch objective {
            case .leastEnergy: return (figures.energyRatio, 0, 0, index)
            case .mostRecall: return (-figures.recall, -figures.precision, figures.energyRatio, index)
            }
        }
        if let best = admitted.min(by: { cost($0) < cost($1) }) { return best }
        return aggregates.indices.max {
            (aggregates[$0].recall + aggregates[$0].precision, -$0) < (aggregates[$1].recall + aggregates[$1].precision, -$1)
        }!
    }

    /// The goal in words, as `simulate --folds` prints it.
    public var summary: String {
        var terms: [String] = []
        if recallFloor > 0 { terms.append("recall ≥ \(recallFloor)") }
        terms.append("precision ≥ \(precisionFloor)")
        if let latencyP95Ceiling { terms.append("p95 latency ≤ \(Int(latencyP95Ceiling)) s") }
        if let energyBudget { terms.append(String(format: "energy ≤ %.3f", energyBudget)) }
        switch objective {
        case .leastEnergy: terms.append("least energy")
        case .mostRecall: terms.append("most recall")
        }
        return "\(name): " + terms.joined(separator: ", ")
    }
}
