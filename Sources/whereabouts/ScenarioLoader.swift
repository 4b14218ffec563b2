import Foundation
import WhereaboutsCore
import WhereaboutsSimulator

/// Reads scenarios from files named on the command line; every failure becomes an ``InputError``.
enum ScenarioLoader {
    /// One `dNN.gpx` with its `dNN.regions.geojson`.
    struct Pair {
        let name: String
        let trace: String
        let regions: String
    }

    /// Loads a trace and, if given, its regions.
    static func load(trace: String, regions: String?, name: String? = nil) throws -> Scenario {
        do {
            let points = try GPXFile.readTrace(at: URL(fileURLWithPath: trace), now: Date())
            let regionList = try regions.map { try RegionFile.read(at: URL(fileURLWithPath: $0)) } ?? []
            let scenarioName = name ?? URL(fileURLWithPath: trace).deletingPathExtension().lastPathComponent
            return Scenario(name: scenarioName, trace: points, regions: regionList)
        } catch {
            throw InputError(reading: error)
        }
    }

    /// Every `NAME.gpx` in `folder` that has a `NAME.regions.geojson` beside it, sorted by name.
    static func pairs(in folder: String) throws -> [Pair] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw InputError(
                "--scenarios \(folder): cannot list the folder (\(error.localizedDescription)); give a folder holding dNN.gpx and dNN.regions.geojson pairs"
            )
        }
        let pairs = names.filter { $0.hasSuffix(".gpx") }.sorted().compactMap { file -> Pair? in
            let name = String(file.dropLast(4))
            guard names.contains("\(name).regions.geojson") else { return nil }
            return Pair(name: name, trace: "\(folder)/\(file)", regions: "\(folder)/\(name).regions.geojson")
        }
        guard !pairs.isEmpty else {
            throw InputError(
                "--scenarios \(folder): no NAME.gpx with a NAME.regions.geojson beside it; give a folder like ../shared/scenarios")
        }
        return pairs
    }
}
