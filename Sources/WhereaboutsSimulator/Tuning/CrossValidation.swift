/// What a preset's tuning earns on scenarios it never saw: for each of K folds, the candidate its
/// goal picks on the other folds, scored on the fold left out.
///
/// Scenarios made from the same trace (`d07` and `d07-stress`) share a group, named by what comes
/// before the first `-`, and every group lies in one fold, so no trace is tuned on and scored at once.
/// Runs of one scenario at several seeds share its fold too: the goal then picks on every seed's runs
/// of the other folds, so a pick does not follow one seed's noise.
public struct CrossValidation: Sendable {
    /// One fold: what was picked without it, and how that did on it.
    public struct Fold: Sendable {
        /// The fold's number, from 0.
        public let index: Int
        /// The settings picked on the other folds.
        public let chosen: [PolicySetting]
        /// Their figures on this fold.
        public let heldOut: StrategyAggregate
        /// Their place among the candidates.
        let candidate: Int
    }

    /// The goal tuned for.
    public let goal: PresetGoal
    /// The folds.
    public let folds: [Fold]
    /// Every fold's held-out runs: each scenario (at each seed) once, by settings not tuned on it.
    public let heldOutRuns: [RunReport]
    /// The held-out runs pooled.
    public var heldOut: StrategyAggregate { StrategyAggregate(reports: heldOutRuns) }
    /// What the preset ships with: the settings the most folds picked, the one the goal picks on
    /// every scenario among several picked as often. The choice least tied to which traces it was
    /// tuned on; the figures the goal picks by on every scenario sit at its floors with no margin,
    /// and fall on traces it did not see.
    public let shipped: [PolicySetting]
    /// The place of ``shipped`` among the candidates.
    let shippedCandidate: Int

    /// Cross-validates `goal` over `candidates`, where `reports[c][s]` is candidate `c` on run `s` (a
    /// scenario at one seed; the same run order for every candidate), with `folds` folds.
    ///
    /// With `cheaper`, the validation of the preset below this one on the front, the goal picks on
    /// each fold's training runs among the candidates that beat the cheaper preset's pick there
    /// (``PresetGoal/admits(_:above:)``), and between folds' picks tied for ``shipped`` among those that
    /// beat what it ships.
    public init(
        goal: PresetGoal, candidates: [[PolicySetting]], reports: [[RunReport]], folds: Int, above cheaper: CrossValidation? = nil
    ) {
        let scenarios = reports.first?.map(\.scenario) ?? []
        let fold = Self.assign(scenarios, folds: folds)
        func run(_ candidate: Int, _ scenario: Int) -> RunReport {
            var report = reports[candidate][scenario]
            report.strategy = goal.name
            return report
        }
        func aggregate(_ candidate: Int, where include: (Int) -> Bool) -> StrategyAggregate {
            StrategyAggregate(reports: scenarios.indices.filter(include).map { run(candidate, $0) })
        }
        var built: [Fold] = []
        var heldOutPick: [Int: Int] = [:]
        for index in 0..<folds where fold.contains(index) {
            let trained = candidates.indices.map { aggregate($0) { fold[$0] != index } }
            let below = cheaper?.folds.first { $0.index == index }.map { trained[$0.candidate] }
            let pick = goal.pick(trained, above: below)
            built.append(Fold(index: index, chosen: candidates[pick], heldOut: aggregate(pick) { fold[$0] == index }, candidate: pick))
            for scenario in scenarios.indices where fold[scenario] == index { heldOutPick[scenario] = pick }
        }
        self.goal = goal
        self.folds = built
        self.heldOutRuns = scenarios.indices.compactMap { index in heldOutPick[index].map { run($0, index) } }
        let everywhere = candidates.indices.map { aggregate($0) { _ in true } }
        let tied = Self.mostPicked(built.map(\.candidate), among: candidates.count)
        let shippedBelow = cheaper.map { everywhere[$0.shippedCandidate] }
        shippedCandidate =
            tied.count == 1 ? tied[0] : tied[goal.pick(tied.map { everywhere[$0] }, above: shippedBelow)]
        self.shipped = candidates[shippedCandidate]
    }

    /// The candidates (of `count`) the most folds picked, in candidate order; every candidate when no
    /// fold picked one.
    static func mostPicked(_ picks: [Int], among count: Int) -> [Int] {
        let counts = Dictionary(picks.map { ($0, 1) }, uniquingKeysWith: +)
        guard let most = counts.values.max() else { return Array(0..<count) }
        return counts.filter { $0.value == most }.keys.sorted()
    }

    /// The fold of each scenario: groups (``ScenarioFamily/trace(of:)``) in name order, dealt out in turn.
    public static func assign(_ scenarios: [String], folds: Int) -> [Int] {
        let group = scenarios.map(ScenarioFamily.trace(of:))
        let order = Array(Set(group)).sorted()
        let number = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0 % max(1, folds)) })
        return group.map { number[$0]! }
    }
}
