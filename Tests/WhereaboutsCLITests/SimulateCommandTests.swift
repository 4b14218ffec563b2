import Foundation
import Testing
import WhereaboutsTestSupport

@Suite("whereabouts simulate")
struct SimulateCommandTests {
    @Test("the sample scenario runs every strategy and writes the four files per strategy")
    func sampleRun() async throws {
        let out = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CommandRunner.run(["simulate", "--out", out.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        for strategy in ["continuous", "move", "significant", "regions-only", "stop-detect", "adaptive"] {
            #expect(result.stdout.contains(strategy))
            for file in ["events.jsonl", "fixes.jsonl", "timeline.jsonl", "report.json"] {
                let path = out.appendingPathComponent(strategy).appendingPathComponent(file).path
                #expect(FileManager.default.fileExists(atPath: path), "missing \(path)")
            }
        }
    }

    @Test("the same seed gives byte-identical files; another seed gives other noise")
    func determinism() async throws {
        let a = temporaryFolder("cli")
        let b = temporaryFolder("cli")
        let c = temporaryFolder("cli")
        defer { for url in [a, b, c] { try? FileManager.default.removeItem(at: url) } }
        for (folder, seed) in [(a, "7"), (b, "7"), (c, "8")] {
            let result = try await CommandRunner.run(["simulate", "--strategy", "adaptive", "--seed", seed, "--out", folder.path])
            #expect(result.status == 0, "stderr: \(result.stderr)")
        }
        for file in ["events.jsonl", "fixes.jsonl", "timeline.jsonl", "report.json"] {
            let first = try Data(contentsOf: a.appendingPathComponent(file))
            let second = try Data(contentsOf: b.appendingPathComponent(file))
            #expect(first == second, "\(file) differs between two runs with seed 7")
        }
        let fixesA = try Data(contentsOf: a.appendingPathComponent("fixes.jsonl"))
        let fixesC = try Data(contentsOf: c.appendingPathComponent("fixes.jsonl"))
        #expect(fixesA != fixesC, "seeds 7 and 8 gave the same fixes")
    }

    @Test("the balanced preset runs by the name the README, the bridge and TypeScript give it, as adaptive")
    func balancedByName() async throws {
        let (balanced, adaptive) = (temporaryFolder("cli"), temporaryFolder("cli"))
        defer { for url in [balanced, adaptive] { try? FileManager.default.removeItem(at: url) } }
        for (folder, name) in [(balanced, "balanced"), (adaptive, "adaptive")] {
            let result = try await CommandRunner.run(["simulate", "--strategy", name, "--seed", "3", "--out", folder.path])
            #expect(result.status == 0, "stderr: \(result.stderr)")
        }
        let file = "events.jsonl"
        #expect(try Data(contentsOf: balanced.appendingPathComponent(file)) == Data(contentsOf: adaptive.appendingPathComponent(file)))
        let refused = try await CommandRunner.run(["simulate", "--strategy", "teleport"])
        #expect(refused.stderr.contains("balanced"), "the refusal lists the preset's name")
    }

    @Test("--strategy repeats: each strategy named runs once; a second name for one strategy, or all among names, is refused")
    func severalStrategies() async throws {
        let out = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CommandRunner.run(["simulate", "--strategy", "balanced", "--strategy", "continuous", "--out", out.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let figures = try #require(result.stdout.components(separatedBy: "energy by what spent it").first)
        let rows = figures.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(rows.filter { ["adaptive", "continuous", "move"].contains($0) } == ["adaptive", "continuous"], "\(result.stdout)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["adaptive", "continuous"])
        for (names, message) in [
            (["balanced", "adaptive"], "--strategy adaptive names adaptive a second time"),
            (["all", "continuous"], "--strategy all runs every strategy; give it alone"),
        ] {
            let refused = try await CommandRunner.run(["simulate"] + names.flatMap { ["--strategy", $0] })
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(names): \(refused.stderr)")
        }
    }

    @Test(
        "bad input exits with status 2 and a message naming the problem",
        arguments: [
            (["simulate", "--strategy", "teleport"], "teleport"),
            (["simulate", "--trace", "/nonexistent/trace.gpx"], "/nonexistent/trace.gpx"),
            (["simulate", "--regions", "r.geojson"], "--trace"),
            (["simulate", "--pad", "-5"], "--pad"),
            (["simulate", "--scenarios", "/nonexistent-folder"], "/nonexistent-folder"),
            (["simulate", "--seed", "banana"], "banana"),
            (["simulate", "--seed", "3", "--seed", "3", "--scenarios", "/tmp"], "--seed 3 is given twice"),
            (["simulate", "--seed", "1", "--seed", "2"], "several seeds need --scenarios DIR"),
            (["simulate", "--folds", "5"], "--scenarios"),
            (["simulate", "--plot", "/tmp/x.svg"], "--scenarios"),
            (["simulate", "--scenarios", "/tmp", "--folds", "1"], "--folds 1"),
            (["simulate", "--set", "lead"], "name=value"),
            (["simulate", "--set", "lead=-3"], "non-negative"),
        ])
    func badInput(arguments: [String], mentions: String) async throws {
        let result = try await CommandRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(mentions), "stderr: \(result.stderr)")
    }

    @Test("a malformed GPX file exits with status 2 naming the file and line")
    func malformedTrace() async throws {
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("broken.gpx")
        try Data(
            """
            <?xml version="1.0"?>
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="91.5" lon="11.5"><time>2024-05-06T07:30:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """.utf8
        ).write(to: trace)
        let result = try await CommandRunner.run(["simulate", "--trace", trace.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("broken.gpx"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("3"), "stderr should name line 3: \(result.stderr)")
    }
}
