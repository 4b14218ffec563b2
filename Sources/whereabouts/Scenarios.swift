import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsSimulator

/// `whereabouts scenarios`: write scenarios of one ``ScenarioFamily`` from a folder of scenarios.
struct Scenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write scenarios unlike the shared ones (stress, sparse, large regions, a city block) from a folder of scenarios.",
        discussion: """
            For every NAME.gpx / NAME.regions.geojson pair in --from, writes NAME-FAMILY.gpx (the same trace) and \
            NAME-FAMILY.regions.geojson (properties.kind says what each added region is). stress: the pair's regions \
            plus small regions at the trace's brief stops, regions it crosses in passing and large ones it clips at \
            their edge. sparse: home, dest and six 150-300 m regions on the route. large: home, dest and eight \
            500-1500 m regions the route crosses or clips. block: the pair's regions plus a 6 x 6 grid of 25-50 m \
            regions, 100 m apart, on one stretch of the route. Seeded: the same input, family and seed give the same \
            files. Simulate them with simulate --scenarios OUT.
            """)

    @Option(help: "A folder of NAME.gpx / NAME.regions.geojson pairs, e.g. ../shared/scenarios.")
    var from: String

    @Option(help: "The folder to write to (created if missing).")
    var out: String

    @Option(help: "Seed of the regions' placement.")
    var seed: UInt64 = 1

    @Option(help: "Which scenarios to make: \(ScenarioFamily.allCases.map(\.rawValue).joined(separator: ", ")).")
    var family: String = ScenarioFamily.stress.rawValue

    func run() throws {
        guard let family = ScenarioFamily(rawValue: family) else {
            throw InputError(
                "--family \(self.family) is not a family; use one of \(ScenarioFamily.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let pairs = try ScenarioLoader.pairs(in: from)
        // Refused before anything is written: with --out the --from folder, a NAME-stress pair already
        // there would be overwritten by the pair it was made from.
        let inputs = Set(pairs.flatMap { [Self.resolved($0.trace), Self.resolved($0.regions)] })
        for pair in pairs {
            let (trace, regions) = Self.outputs(of: pair.name, family, in: out)
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
            let (made, kinds) = family.make(from: scenario, seed: seed)
            let points = made.trace.map {
                GPXPoint(coordinate: $0.coordinate, time: Date(timeIntervalSince1970: $0.time), elevation: nil, speed: nil)
            }
            let (trace, regions) = Self.outputs(of: pair.name, family, in: out)
            try write(GPXWriter.document(name: made.name, points: points), to: trace)
            try write(GeoJSONWriter.document(made.regions.map { ($0, kinds[$0.id]) }), to: regions)
        }
        print("wrote \(pairs.count) \(family.rawValue) scenarios to \(out) (seed \(seed))")
    }

    /// The trace and regions files written for the pair `name` of `family` in `folder`.
    private static func outputs(of name: String, _ family: ScenarioFamily, in folder: String) -> (trace: String, regions: String) {
        let made = family.name(of: name)
        return ("\(folder)/\(made).gpx", "\(folder)/\(made).regions.geojson")
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
