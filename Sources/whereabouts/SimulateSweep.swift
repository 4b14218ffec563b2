import Foundation
import WhereaboutsCore
import WhereaboutsSimulator

extension Simulate {
    /// The parameter sweep behind `--folds` and `--plot`: every strategy, and the adaptive policy at
    /// every point of ``ParameterGrid/standard``, on every scenario at every seed. With `--folds K`, each
    /// preset is tuned on K−1 folds (every seed's runs of them) and scored on the fold left out; only
    /// those held-out figures are printed for the presets, for each seed and pooled, and, when there
    /// are several `folders`, for each folder's scenarios (the seeds pooled). With `--plot FILE`, the
    /// picture of the pooled figures is written.
    func sweep(_ folders: [(folder: String, scenarios: [Scenario])], strategies: [Strategy]) async throws {
        let scenarios = folders.flatMap(\.scenarios)
        let candidates = ParameterGrid.standard.candidates
        let swept = candidates.enumerated().map { Strategy.adaptive.with($1, name: "sweep-\($0)") }
        let fixed = strategies.filter { !Self.isPreset($0) }
        let header = SweepRunsFile.Header(
            scenarios: scenarios.map(\.name), seeds: seeds, pad: pad,
            strategies: fixed.map(\.name) + zip(swept, candidates).map { "\($0.name): \($1.map(\.description).joined(separator: " "))" },
            settings: settings)
        let names = (fixed + swept).map(\.name)
        let table =
            if let loadRuns {
                try SweepRunsFile.read(from: loadRuns, expecting: header, names: names)
            } else {
                try await runAll(scenarios, strategies: fixed + swept, writing: nil)
            }
        // A file that cannot be written fails the command, but only after the figures are printed.
        var saveFailure: (any Error)?
        if let saveRuns {
            do { try SweepRunsFile.write(table, header: header, names: names, to: saveRuns) } catch { saveFailure = error }
        }
        print("\(scenarios.count) scenarios, pad \(Int(pad)) s, \(seedsDescription), \(candidates.count) settings swept")
        let sweptReports = swept.map { table.runs($0.name, over: scenarios, seeds: seeds) }
        print("the sweep on every scenario\(seeds.count > 1 ? ", seeds pooled" : "") (for the picture; not held out):")
        print(SummaryTable.render(swept.map { table.aggregate($0.name, over: scenarios, seeds: seeds) }))
        for (index, settings) in candidates.enumerated() {
            print("  sweep-\(index): \(settings.map(\.description).joined(separator: " "))")
        }
        var validations: [CrossValidation] = []
        if let folds {
            for goal in PresetGoal.presets {
                let validation = CrossValidation(
                    goal: goal, candidates: candidates, reports: sweptReports, folds: folds, above: validations.last)
                print(Self.describe(validation))
                validations.append(validation)
            }
            print("held-out figures (\(folds) folds; presets scored only on folds they were not tuned on):")
        } else {
            print("figures on every scenario (the presets' sweep points are tuned on these scenarios, so none is printed for them):")
        }
        func rows(at seeds: [UInt64], over scenarios: [Scenario] = scenarios) -> [[RunReport]] {
            let names = Set(scenarios.map(\.name))
            return fixed.map { table.runs($0.name, over: scenarios, seeds: seeds) }
                + validations.map { validation in
                    validation.heldOutRuns.filter { run in
                        names.contains(run.scenario) && seeds.contains { ScenarioRunner.runSeed($0, scenario: run.scenario) == run.seed }
                    }
                }
        }
        printBySeed { rows(at: $0) }
        if folds != nil { print(SummaryTable.renderFront(validations.map { ($0.goal.name, $0.heldOutRuns) })) }
        if folders.count > 1 {
            for (folder, inFolder) in folders {
                print("\(inFolder.count) scenarios of \(folder)\(seeds.count > 1 ? ", seeds pooled" : ""):")
                print(SummaryTable.render(rows(at: seeds, over: inFolder).map(StrategyAggregate.init(reports:))))
            }
        }
        if let plot {
            let points =
                rows(at: seeds).map(StrategyAggregate.init(reports:)).map {
                    EnergyRecallPlot.Point(label: $0.strategy, energyRatio: $0.energyRatio, recall: $0.recall, isStrategy: true)
                }
                + swept.map { strategy in
                    let figures = table.aggregate(strategy.name, over: scenarios, seeds: seeds)
                    return EnergyRecallPlot.Point(label: nil, energyRatio: figures.energyRatio, recall: figures.recall, isStrategy: false)
                }
            let title = "\(scenarios.count) scenarios, \(seedsDescription)" + (folds.map { ", presets held out over \($0) folds" } ?? "")
            do {
                try EnergyRecallPlot.svg(points, title: title).write(toFile: plot, atomically: true, encoding: .utf8)
            } catch {
                throw InputError("--plot \(plot): cannot be written (\(error.localizedDescription)); give a writable path")
            }
            print("wrote \(plot)")
        }
        if let saveFailure { throw saveFailure }
        if let saveRuns { print("wrote the sweep's runs to \(saveRuns)") }
    }

    private static func isPreset(_ strategy: Strategy) -> Bool {
        PresetGoal.presets.contains { $0.name == strategy.name }
    }

    private static func describe(_ validation: CrossValidation) -> String {
        func settings(_ chosen: [PolicySetting]) -> String { chosen.map(\.description).joined(separator: " ") }
        var lines = [validation.goal.summary]
        for fold in validation.folds {
            let h = fold.heldOut
            lines.append(
                "  fold \(fold.index): tuned on the others \(settings(fold.chosen)); held out: recall \(String(format: "%.3f", h.recall)), precision \(String(format: "%.3f", h.precision)), p95 \(SummaryTable.seconds(h.latencyP95)), energy \(String(format: "%.3f", h.energyRatio))"
            )
        }
        lines.append("  picked by the most folds (what ships): \(settings(validation.shipped))")
        return lines.joined(separator: "\n")
    }
}
