import Foundation
import WhereaboutsSimulator

/// Every run of a sweep in one file (`simulate --save-runs`), so that it can be scored again
/// (`--load-runs`) without running it: JSON Lines, a header saying what was run, then one line a run.
///
/// A sweep of the grid over the scenarios at two seeds takes the better part of an hour; scoring it
/// takes seconds. Reading refuses a file whose scenarios, seeds, pad or `--set` changes differ from the
/// sweep asked for, or that lacks a run, so that figures never mix sweeps. A file may hold more
/// strategies than asked for (a sweep of a larger grid): each one asked for is found by its settings,
/// whatever its number there, and the rest are left out.
struct SweepRunsFile {
    /// What a sweep ran: everything its runs depend on that the command line gives.
    struct Header: Codable, Equatable {
        /// The scenarios' names, in order.
        var scenarios: [String]
        /// The seeds, in order.
        var seeds: [UInt64]
        /// The pad, seconds.
        var pad: Double
        /// Each strategy run, with its settings (`sweep-N: lead=10 …`, or a fixed strategy's name).
        var strategies: [String]
        /// The `--set` changes made to every strategy.
        var settings: [String]
    }

    private struct Line: Codable {
        let seed: UInt64
        var report: RunReport
    }

    /// Writes `table`'s runs of `header`'s strategies under `header` to `path`, through a temporary
    /// file beside it, so that a failed write leaves no partial file under that name.
    static func write(_ table: RunTable, header: Header, names: [String], to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var data = try encoder.encode(header) + Data("\n".utf8)
        for name in names {
            let runs = table.reports[name, default: [:]].sorted { ($0.key.seed, $0.key.scenario) < ($1.key.seed, $1.key.scenario) }
            for (key, report) in runs {
                data += try encoder.encode(Line(seed: key.seed, report: report)) + Data("\n".utf8)
            }
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw InputError("--save-runs \(path): cannot be written (\(error.localizedDescription)); give a writable path")
        }
    }

    /// The runs in `path`, which must have been written for `header`'s scenarios, seeds, pad and
    /// changes, and hold every run of `names` on those scenarios at those seeds, under the names
    /// `header` gives them.
    static func read(from path: String, expecting header: Header, names: [String]) throws -> RunTable {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw InputError("--load-runs \(path): cannot be read (\(error.localizedDescription)); give a file --save-runs wrote")
        }
        let decoder = JSONDecoder()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
        guard let first = lines.next(), let found = try? decoder.decode(Header.self, from: Data(first.utf8)) else {
            throw InputError("--load-runs \(path): its first line is not a sweep's header; give a file --save-runs wrote")
        }
        if let mismatch = Self.mismatch(found, header) {
            throw InputError(
                "--load-runs \(path): it holds a sweep of other \(mismatch); run the sweep it was written for, or run it again")
        }
        let renamed = try Self.names(in: found, for: header, path: path)
        var table = RunTable()
        var number = 1
        while let line = lines.next() {
            number += 1
            guard var run = try? decoder.decode(Line.self, from: Data(line.utf8)) else {
                throw InputError("--load-runs \(path): line \(number) is not a run's report; the file is damaged, run the sweep again")
            }
            guard let name = renamed[run.report.strategy] else { continue }
            run.report.strategy = name
            table.reports[name, default: [:]][RunTable.Key(scenario: run.report.scenario, seed: run.seed)] = run.report
        }
        for name in names {
            for seed in header.seeds {
                for scenario in header.scenarios where table.reports[name]?[RunTable.Key(scenario: scenario, seed: seed)] == nil {
                    throw InputError(
                        "--load-runs \(path): it lacks \(name) on \(scenario) at seed \(seed); the file is cut short, run the sweep again")
                }
            }
        }
        return table
    }

    /// What differs between two headers but their strategies, in words; `nil` when nothing does.
    private static func mismatch(_ found: Header, _ expected: Header) -> String? {
        if found.scenarios != expected.scenarios { return "scenarios (\(found.scenarios.count), not these \(expected.scenarios.count))" }
        if found.seeds != expected.seeds { return "seeds (\(found.seeds.map(String.init).joined(separator: ", ")))" }
        if found.pad != expected.pad { return "pad (\(Int(found.pad)) s)" }
        if found.settings != expected.settings { return "--set changes (\(found.settings.joined(separator: " ")))" }
        return nil
    }

    /// For each strategy of `expected`, its name in `found`, found by what it ran: the file's name →
    /// the name asked for.
    private static func names(in found: Header, for expected: Header, path: String) throws -> [String: String] {
        let foundName = Dictionary(found.strategies.map(Self.parts(of:)).map { ($0.ran, $0.name) }, uniquingKeysWith: { first, _ in first })
        var renamed: [String: String] = [:]
        for strategy in expected.strategies {
            let asked = Self.parts(of: strategy)
            guard let name = foundName[asked.ran] else {
                throw InputError(
                    "--load-runs \(path): it holds no runs of \(strategy) (a grid unlike this one); run the sweep it was written for, or run it again"
                )
            }
            renamed[name] = asked.name
        }
        return renamed
    }

    /// A header's strategy entry in its two parts: the name its runs carry (`sweep-N` of
    /// `sweep-N: lead=10 …`, or a fixed strategy's name) and what it ran, without the number a sweep
    /// gave it (a point's settings, or the fixed strategy's name).
    private static func parts(of strategy: String) -> (name: String, ran: String) {
        guard let colon = strategy.range(of: ": ") else { return (strategy, strategy) }
        return (String(strategy[..<colon.lowerBound]), String(strategy[colon.upperBound...]))
    }
}
