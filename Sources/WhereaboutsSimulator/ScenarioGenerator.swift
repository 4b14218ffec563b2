import Foundation
import WhereaboutsCore

/// Makes scenarios that stress what the shared ones spare: small regions at a trace's brief stops (a
/// few minutes still, the kind of visit a strategy misses whole), regions the trace only crosses in
/// passing, and large regions it only clips at their edge. The trace's own regions are kept. Seeded:
/// the same scenario and seed give the same regions.
public enum ScenarioGenerator {
    /// The regions added, by kind, at most.
    static let stopsPerTrace = 6
    static let passesPerTrace = 6
    static let edgesPerTrace = 3

    /// The name of the stressed scenario made from the scenario `name`: `name-stress`, which
    /// ``CrossValidation/assign(_:folds:)`` puts in `name`'s fold, so a trace is never scored in a
    /// fold tuned on its own stressed copy.
    public static func stressedName(of name: String) -> String { name + "-stress" }

    /// `scenario` with stressing regions added, named `name`, each region's kind beside it
    /// (`stop`, `pass`, `edge`; `nil` for the scenario's own).
    public static func stressed(_ scenario: Scenario, name: String, seed: UInt64) -> (scenario: Scenario, kinds: [String: String]) {
        var random = SeededGenerator(seed: seed ^ ScenarioRunner.stableHash(scenario.name))
        let truth = TruthPath(trace: scenario.trace, pad: 0)
        var added: [(Region, String)] = []
        for (index, stop) in pick(briefStops(truth), count: stopsPerTrace, random: &random).enumerated() {
            let radius = random.uniform(25...70)
            let center = Geodesy.destination(from: stop, distance: random.uniform(0...(0.3 * radius)), bearing: random.uniform(0...360))
            added.append((try! Region(id: "stop-g\(index)", center: center, radius: radius), "stop"))
        }
        let moving = movingPoints(truth)
        for (index, point) in pick(moving, count: passesPerTrace, random: &random).enumerated() {
            let radius = random.uniform(40...150)
            added.append(
                (
                    try! Region(
                        id: "pass-g\(index)", center: offset(point, truth, by: random.uniform(0...(0.7 * radius)), random: &random),
                        radius: radius), "pass"
                ))
        }
        for (index, point) in pick(moving, count: edgesPerTrace, random: &random).enumerated() {
            let radius = random.uniform(200...500)
            added.append(
                (
                    try! Region(
                        id: "edge-g\(index)",
                        center: offset(point, truth, by: random.uniform((0.75 * radius)...(0.95 * radius)), random: &random), radius: radius
                    ), "edge"
                ))
        }
        var kinds: [String: String] = [:]
        for (region, kind) in added { kinds[region.id] = kind }
        return (Scenario(name: name, trace: scenario.trace, regions: scenario.regions + added.map(\.0)), kinds)
    }

    /// The centres of the trace's stops of 60 s to 15 min within 25 m, away from its ends.
    static func briefStops(_ truth: TruthPath) -> [Coordinate] {
        var stops: [Coordinate] = []
        var anchor = 0
        for offset in truth.positions.indices {
            if Geodesy.distance(truth.positions[anchor], truth.positions[offset]) > 25 || offset == truth.positions.count - 1 {
                let length = offset - anchor
                if length >= 60 && length <= 900 && anchor > 120 && offset < truth.positions.count - 120 {
                    stops.append(truth.positions[anchor + length / 2])
                }
                anchor = offset
            }
        }
        return stops
    }

    /// The trace's moving seconds (at least 1 m/s), one a minute.
    static func movingPoints(_ truth: TruthPath) -> [Int] {
        stride(from: 0, to: truth.speeds.count, by: 60).filter { truth.speeds[$0] >= 1 }
    }

    /// `metres` off the trace at second `offset`, across its course, to one side at random.
    static func offset(_ offset: Int, _ truth: TruthPath, by metres: Double, random: inout SeededGenerator) -> Coordinate {
        let here = truth.positions[offset]
        let next = truth.positions[min(offset + 10, truth.positions.count - 1)]
        let course = Geodesy.bearing(from: here, to: next)
        return Geodesy.destination(from: here, distance: metres, bearing: course + (random.uniform(0...1) < 0.5 ? 90 : -90))
    }

    /// Up to `count` of `items`, drawn without repeats, in their order.
    static func pick<T>(_ items: [T], count: Int, random: inout SeededGenerator) -> [T] {
        var indices = Array(items.indices)
        var chosen: [Int] = []
        while chosen.count < count, !indices.isEmpty {
            chosen.append(indices.remove(at: Int(random.uniform(0...0.999_999) * Double(indices.count))))
        }
        return chosen.sorted().map { items[$0] }
    }
}
