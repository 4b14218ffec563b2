import Foundation
import WhereaboutsSimulator

/// Writes one run's files: `events.jsonl`, `fixes.jsonl`, `timeline.jsonl` and `report.json`.
enum OutputFolder {
    static func write(_ result: ScenarioResult, to folder: String) throws {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let run = result.outcome.run
            try Data(RunFiles.events(run.events).utf8).write(to: url.appendingPathComponent("events.jsonl"))
            try Data(RunFiles.fixes(run.fixes).utf8).write(to: url.appendingPathComponent("fixes.jsonl"))
            try Data(RunFiles.timeline(run.timeline).utf8).write(to: url.appendingPathComponent("timeline.jsonl"))
            try result.report.encoded().write(to: url.appendingPathComponent("report.json"))
        } catch {
            throw InputError("--out \(folder): cannot write the run's files (\(error.localizedDescription)); give a writable folder")
        }
    }
}
