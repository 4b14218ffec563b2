import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsSimulator

/// `whereabouts scenarios`: write scenarios that stress brief stops and passes.
struct Scenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write scenarios that stress brief stops and passes, from a folder of scenarios.",
        discussion: """
            For every NAME.gpx / NAME.regions.geojson pair in --from, writes NAME-stress.gpx (the same trace) and \
            NAME-stress.regions.geojson: the pair's regions plus small regions at the trace's brief stops, regions it \
            crosses in passing and large ones it clips at their edge (properties.kind says which). Seeded: the \
            same input and seed give the same files. Simulate them with simulate --scenarios OUT.
            """)

    @Option(help: "A folder of NAME.gpx / NAME.regions.geojson pairs, e.g. ../shared/scenarios.")
    var from: String

    @Option(help: "The folder to write to (created if missing).")
    var out: String

    @Option(help: "Seed of the regions' placement.")
    var seed: UInt64 = 1

    func run() throws {
        let pairs = try ScenarioLoader.pairs(in: from)
        // Refused before anything is written: with --out the --from folder, a NAME-stress pair already
        // there would be overwritten by the pair it was made from.
        let inputs = Set(pairs.flatMap { [Self.resolved($0.trace), Self.resolved($0.regions)] })
        for pair in pairs {
            let (trace, regions) = Self.outputs(of: pair.name, in: out)
            for path in [trace, regions] where inputs.contains(Self.resolved(path)) {
                throw InputError("--out \(out): \(path) is one of the --from scenarios and would be overwritten; give another folder")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw InputError("--out \(out): cannot create the folder (\(error.localizedDescription)); give a writable path")
        }
        for pair in pairs {
            let scenario = try ScenarioLoader.load(trace: pair.trace, regions: pair.regions, name: pair.name)
            let name = ScenarioGenerator.stressedName(of: pair.name)
            let (stressed, kinds) = ScenarioGenerator.stressed(scenario, name: name, seed: seed)
            let points = stressed.trace.map {
                GPXPoint(coordinate: $0.coordinate, time: Date(timeIntervalSince1970: $0.time), elevation: nil, speed: nil)
            }
            let (trace, regions) = Self.outputs(of: pair.name, in: out)
            try write(GPXWriter.document(name: name, points: points), to: trace)
            try write(GeoJSONWriter.document(stressed.regions.map { ($0, kinds[$0.id]) }), to: regions)
        }
        print("wrote \(pairs.count) scenarios to \(out) (seed \(seed))")
    }

    /// The trace and regions files written for the pair `name` in `folder`.
    private static func outputs(of name: String, in folder: String) -> (trace: String, regions: String) {
        let stressed = ScenarioGenerator.stressedName(of: name)
        return ("\(folder)/\(stressed).gpx", "\(folder)/\(stressed).regions.geojson")
    }

    /// `path` absolute, with `.`, `..` and symbolic links resolved, to tell whether two paths name one file.
    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    private func write(_ text: String, to path: String) throws {
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw InputError("\(path): cannot be written (\(error.localizedDescription)); give a writable --out")
        }
    }
}
