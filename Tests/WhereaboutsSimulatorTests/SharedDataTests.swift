import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsSimulator

/// The shared traces and scenarios beside the repository (`../shared`), when present.
enum SharedData {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    static var available: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("traces").path) }

    static func files(under folder: String, suffix: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        let items = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
        return items.filter { $0.hasSuffix(suffix) }.sorted().map { base.appendingPathComponent($0) }
    }
}

@Suite("Shared traces and scenarios", .enabled(if: SharedData.available, "../shared is absent: shared traces are not checked"))
struct SharedDataTests {
    @Test("every shared trace parses or fails naming its file and line")
    func everyTrace() throws {
        let files = SharedData.files(under: "traces", suffix: ".gpx") + SharedData.files(under: "scenarios", suffix: ".gpx")
        #expect(files.count > 50)
        var failures: [String: String] = [:]
        for file in files {
            do {
                let trace = try GPXFile.readTrace(at: file, now: Date())
                #expect(!trace.isEmpty)
                #expect(zip(trace, trace.dropFirst()).allSatisfy { $0.time < $1.time }, "\(file.lastPathComponent)")
            } catch let error as FormatError {
                #expect(error.source == file.lastPathComponent)
                #expect(error.location.hasPrefix("line "), "\(error)")
                #expect(!error.fix.isEmpty)
                failures[file.lastPathComponent] = error.description
            }
        }
        #expect(failures.keys.contains { $0.hasPrefix("strava-android") }, "the year jumps of the Strava file should be refused")
        #expect(!failures.keys.contains { $0.hasPrefix("d") && $0.count == 7 }, "a scenario failed: \(failures)")
        #expect(!failures.keys.contains("dg100.gpx") || failures["dg100.gpx"]!.contains("line"))
    }

    @Test("every points file reads completely in raw form")
    func rawPoints() throws {
        for file in SharedData.files(under: "traces", suffix: ".gpx") {
            #expect(!(try GPXFile.readPoints(at: file)).isEmpty, "\(file.lastPathComponent)")
        }
    }

    @Test("every scenario's regions load")
    func regions() throws {
        for file in SharedData.files(under: "scenarios", suffix: ".regions.geojson") {
            let regions = try RegionFile.read(at: file)
            #expect(regions.count > 200)
        }
    }
}
