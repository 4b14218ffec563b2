import Foundation
import WhereaboutsCore

/// The kinds of scenario ``ScenarioGenerator`` makes from one trace, each unlike the shared scenarios
/// (250–300 regions of 100–500 m, most of them far distractors) in one way, so that presets tuned on
/// all of them do not follow one density or size of region.
///
/// Every family keeps the trace and its `home` and `dest` regions. A scenario made from `dNN` is
/// named `dNN-FAMILY`, which ``CrossValidation/assign(_:folds:)`` puts in `dNN`'s fold.
public enum ScenarioFamily: String, Sendable, CaseIterable {
    /// The trace's own regions plus small ones at brief stops, passes and clipped edges
    /// (``ScenarioGenerator/stressed(_:name:seed:)``).
    case stress
    /// A few regions (150–300 m) on the route and nothing else: long stretches with no boundary in
    /// reach, where a strategy cruises and must start finer positioning in time.
    case sparse
    /// Large regions (500–1 500 m) that the route crosses or clips: boundaries a coarse fix can judge,
    /// crossed at speed.
    case large
    /// A city block of small regions (25–50 m, 100 m apart, 6 × 6) around one stretch of the route, plus
    /// the trace's own regions: many boundaries that only a fine fix can tell apart.
    case block

    /// The name of the scenario of this family made from the scenario `name`.
    public func name(of name: String) -> String { "\(name)-\(rawValue)" }

    /// The trace a scenario called `scenario` was made from: its name up to the first `-` (`d07` for
    /// `d07-stress` and for `d07` itself). Scenarios of one trace are one group when tuning and scoring.
    public static func trace(of scenario: String) -> String {
        String(scenario.split(separator: "-", maxSplits: 1).first ?? Substring(scenario))
    }

    /// The scenario of this family made from `scenario`, each added region's kind beside it.
    public func make(from scenario: Scenario, seed: UInt64) -> (scenario: Scenario, kinds: [String: String]) {
        let name = name(of: scenario.name)
        if self == .stress { return ScenarioGenerator.stressed(scenario, name: name, seed: seed) }
        var random = SeededGenerator(seed: seed ^ ScenarioRunner.stableHash(name))
        let truth = TruthPath(trace: scenario.trace, pad: 0)
        let ends = scenario.regions.filter { $0.id == "home" || $0.id == "dest" }
        let moving = ScenarioGenerator.movingPoints(truth)
        var added: [(Region, String)] = []
        switch self {
        case .stress: break
        case .sparse:
            for (index, point) in ScenarioGenerator.pick(moving, count: 6, random: &random).enumerated() {
                let radius = random.uniform(150...300)
                let center = ScenarioGenerator.offset(point, truth, by: random.uniform(0...(0.5 * radius)), random: &random)
                added.append((try! Region(id: "sparse-g\(index)", center: center, radius: radius), "route"))
            }
        case .large:
            for (index, point) in ScenarioGenerator.pick(moving, count: 8, random: &random).enumerated() {
                let radius = random.uniform(500...1500)
                let clipped = index % 3 == 2
                let distance = clipped ? random.uniform((0.8 * radius)...(0.95 * radius)) : random.uniform(0...(0.7 * radius))
                let center = ScenarioGenerator.offset(point, truth, by: distance, random: &random)
                added.append((try! Region(id: "large-g\(index)", center: center, radius: radius), clipped ? "edge" : "route"))
            }
        case .block:
            if let middle = ScenarioGenerator.pick(moving, count: 1, random: &random).first {
                added = cityBlock(around: middle, truth, random: &random)
            }
        }
        let own = self == .block ? scenario.regions : ends
        var kinds: [String: String] = [:]
        for (region, kind) in added { kinds[region.id] = kind }
        return (Scenario(name: name, trace: scenario.trace, regions: own + added.map(\.0)), kinds)
    }

    /// A 6 × 6 grid of small regions, 100 m apart, centred on the trace at second `offset` and turned
    /// to its course there.
    private func cityBlock(around offset: Int, _ truth: TruthPath, random: inout SeededGenerator) -> [(Region, String)] {
        let here = truth.positions[offset]
        let next = truth.positions[min(offset + 10, truth.positions.count - 1)]
        let course = Geodesy.bearing(from: here, to: next)
        var regions: [(Region, String)] = []
        for row in 0..<6 {
            for column in 0..<6 {
                let along = (Double(row) - 2.5) * 100
                let across = (Double(column) - 2.5) * 100
                let ahead = Geodesy.destination(from: here, distance: abs(along), bearing: course + (along < 0 ? 180 : 0))
                let center = Geodesy.destination(from: ahead, distance: abs(across), bearing: course + (across < 0 ? -90 : 90))
                let radius = random.uniform(25...50)
                regions.append((try! Region(id: "block-g\(row)\(column)", center: center, radius: radius), "block"))
            }
        }
        return regions
    }
}
