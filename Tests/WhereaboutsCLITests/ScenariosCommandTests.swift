import Foundation
import Testing
import WhereaboutsTestSupport

/// Writes the scenario pair `name` (a ten-minute walk north and an empty region list) into `folder`.
private func writePair(_ name: String, in folder: URL) throws {
    let points = (0..<11).map { minute in
        "<trkpt lat=\"\(48.1 + Double(minute) * 0.001)\" lon=\"11.5\"><time>2024-05-06T07:\(30 + minute):00Z</time></trkpt>"
    }
    let gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n\(points.joined(separator: "\n"))\n</trkseg></trk></gpx>\n"
    try Data(gpx.utf8).write(to: folder.appendingPathComponent("\(name).gpx"))
    try Data(#"{"type":"FeatureCollection","features":[]}"#.utf8).write(to: folder.appendingPathComponent("\(name).regions.geojson"))
}

/// Every file in `folder` with its bytes.
private func contents(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return files
}

@Suite("whereabouts scenarios, and simulate --scenarios")
struct ScenariosCommandTests {
    @Test("scenarios writes NAME-FAMILY pairs to --out (stress by default), leaves --from as it was, refuses an unknown family")
    func writesFamilies() async throws {
        let from = temporaryFolder("cli")
        let out = temporaryFolder("cli")
        defer { for url in [from, out] { try? FileManager.default.removeItem(at: url) } }
        try writePair("d01", in: from)
        let before = try contents(from)
        for family in [nil, "sparse", "large", "block"] {
            let result = try await CommandRunner.run(
                ["scenarios", "--from", from.path, "--out", out.path] + (family.map { ["--family", $0] } ?? []))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("wrote 1 \(family ?? "stress") scenarios"), "\(result.stdout)")
        }
        #expect(try contents(from) == before)
        let names = ["stress", "sparse", "large", "block"].flatMap { ["d01-\($0).gpx", "d01-\($0).regions.geojson"] }
        #expect(Set(try contents(out).keys) == Set(names))
        let refused = try await CommandRunner.run(["scenarios", "--from", from.path, "--out", out.path, "--family", "dense"])
        #expect(refused.status == 2 && refused.stderr.contains("--family dense is not a family"), "\(refused.stderr)")
    }

    @Test("scenarios refuses an --out where it would overwrite a --from scenario, and writes nothing")
    func refusesToOverwriteInput() async throws {
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try writePair("d01", in: folder)
        try writePair("d01-stress", in: folder)
        let before = try contents(folder)
        for out in [folder.path, folder.path + "/.", folder.path + "/../" + folder.lastPathComponent] {
            let result = try await CommandRunner.run(["scenarios", "--from", folder.path, "--out", out])
            #expect(result.status == 2, "\(out): \(result.stderr)")
            #expect(result.stderr.contains("d01-stress.gpx is one of the --from scenarios"), "\(out): \(result.stderr)")
            #expect(try contents(folder) == before, "--out \(out) changed the --from folder")
        }
    }

    @Test("simulate --scenarios at two seeds prints each seed's figures and the pooled ones, and files each seed's runs apart")
    func severalSeeds() async throws {
        let folder = temporaryFolder("cli")
        let out = temporaryFolder("cli")
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        try writePair("d01", in: folder)
        let result = try await CommandRunner.run([
            "simulate", "--scenarios", folder.path, "--strategy", "adaptive", "--pad", "60", "--seed", "2", "--seed", "5", "--out",
            out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for line in [
            "1 scenarios, pad 60 s, seeds 2, 5", "seed 2:", "seed 5:", "2 seeds pooled:",
            "no intervals: the runs come from one trace, and resampling needs two or more",
        ] {
            #expect(result.stdout.contains(line), "stdout lacks \(line): \(result.stdout)")
        }
        // What the pooled runs' energy went on follows their table, its items adding up to the energy ratio.
        let pooled = try #require(result.stdout.components(separatedBy: "2 seeds pooled:").last)
        let energy = try #require(
            pooled.components(separatedBy: "energy by what spent it").dropFirst().first, "no energy table: \(pooled)")
        /// The adaptive row's "energy ratio" cell in `table`: columns are right-aligned under their heading.
        func energyRatio(_ table: String) throws -> Substring? {
            let lines = table.split(separator: "\n")
            let header = try #require(lines.first { $0.hasPrefix("strategy ") }, "\(table)")
            let end = header.distance(from: header.startIndex, to: try #require(header.range(of: "energy ratio")).upperBound)
            let row = try #require(lines.first { $0.hasPrefix("adaptive ") }, "\(table)")
            return row.prefix(end).split(separator: " ").last
        }
        let row = try #require(energy.split(separator: "\n").first { $0.hasPrefix("adaptive ") }, "\(energy)")
        let items = row.split(separator: " ").dropFirst().compactMap { Double($0) }
        #expect(items.count == 8, "gps, wifi, cell, app, motion, uploads, wakes and the ratio: \(energy)")
        #expect(abs(items.dropLast().reduce(0, +) - items[7]) <= 0.004, "the items (rounded) add up to the ratio: \(items)")
        let (ratio, itemsRatio) = (try energyRatio(pooled), try energyRatio(energy))
        #expect(ratio != nil && ratio == itemsRatio, "the same energy ratio as the pooled table: \(pooled)")
        var seeds: Set<UInt64> = []
        for seed in [2, 5] {
            let report = out.appendingPathComponent("seed-\(seed)/d01/adaptive/report.json")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            seeds.insert(try #require(object?["seed"] as? UInt64))
        }
        #expect(seeds.count == 2, "the two seeds' runs got the same noise")
    }

    @Test("a sweep refuses --out, which it would not write, and cross-validation over one trace, before running")
    func sweepRefusals() async throws {
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["d01", "d01-stress"] { try writePair(name, in: folder) }
        let cases: [([String], [String])] = [
            (["--folds", "2"], ["--folds 2", "1 trace (d01)", "two or more traces"]),
            (["--folds", "2", "--out", folder.appendingPathComponent("out").path], ["--out", "--save-runs"]),
            (["--plot", folder.appendingPathComponent("front.svg").path, "--out", folder.appendingPathComponent("out").path], ["--out"]),
        ]
        for (arguments, words) in cases {
            let result = try await CommandRunner.run(
                ["simulate", "--scenarios", folder.path, "--strategy", "continuous", "--pad", "0"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(words.allSatisfy(result.stderr.contains), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("held-out"), "nothing ran")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test("simulate --folds at two seeds tunes on both and prints each seed's held-out figures and the pooled ones")
    func foldsOverSeeds() async throws {
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["d01", "d02"] { try writePair(name, in: folder) }
        let result = try await CommandRunner.run([
            "simulate", "--scenarios", folder.path, "--strategy", "continuous", "--pad", "0", "--seed", "2", "--seed", "5", "--folds", "2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let heldOut = try #require(result.stdout.components(separatedBy: "held-out figures").last)
        for line in ["seed 2:", "seed 5:", "2 seeds pooled:", "adaptive", "responsive", "efficient", "continuous"] {
            #expect(heldOut.contains(line), "the held-out part lacks \(line): \(heldOut)")
        }
        #expect(result.stdout.contains("2 scenarios, pad 0 s, seeds 2, 5, "), "\(result.stdout)")
        // Held out, each preset scores both scenarios at both seeds: 4 runs pooled, 2 at each seed.
        let pooled = try #require(heldOut.components(separatedBy: "2 seeds pooled:").last)
        for (table, runs) in [
            (pooled, 4), (heldOut.components(separatedBy: "seed 5:")[1].components(separatedBy: "2 seeds pooled:")[0], 2),
        ] {
            let row = try #require(table.split(separator: "\n").first { $0.hasPrefix("adaptive ") }, "\(table)")
            #expect(row.split(separator: " ").dropFirst().first == "\(runs)", "\(row)")
        }
        // The held-out runs' intervals follow the pooled table: one row a strategy, the two traces resampled.
        let heading = "95 % intervals of the pooled figures (bootstrap: 1000 draws of 2 trace groups, each with its families and seeds):"
        let intervals = try #require(pooled.components(separatedBy: heading).dropFirst().first, "no intervals: \(pooled)")
        for strategy in ["continuous ", "efficient ", "adaptive ", "responsive "] {
            let row = try #require(intervals.split(separator: "\n").first { $0.hasPrefix(strategy) }, "\(intervals)")
            #expect(row.filter { $0 == "–" }.count >= 3, "recall, precision and energy each have a range: \(row)")
        }
        let front = try #require(pooled.components(separatedBy: "each preset less the one below it").dropFirst().first, "\(pooled)")
        for pair in ["adaptive − efficient ", "responsive − adaptive "] {
            let row = try #require(front.split(separator: "\n").first { $0.hasPrefix(pair) }, "\(front)")
            #expect(row.components(separatedBy: " to ").count >= 4, "recall, precision and energy each have a range: \(row)")
        }
    }

    @Test(
        "simulate --save-runs keeps a sweep's runs and --load-runs scores them again without running; another sweep's file, a cut or damaged one, is refused"
    )
    func savedRuns() async throws {
        let scenarios = temporaryFolder("cli")
        let kept = temporaryFolder("cli")
        defer { for url in [scenarios, kept] { try? FileManager.default.removeItem(at: url) } }
        for name in ["d01", "d02"] { try writePair(name, in: scenarios) }
        let file = kept.appendingPathComponent("runs.jsonl").path
        let sweep = ["simulate", "--scenarios", scenarios.path, "--strategy", "continuous", "--pad", "0", "--seed", "2", "--folds", "2"]
        // A file that cannot be written fails the command once the figures are printed.
        let unwritable = try await CommandRunner.run(sweep + ["--save-runs", kept.path + "/missing/runs.jsonl"])
        #expect(unwritable.status == 2 && unwritable.stderr.contains("cannot be written"), "\(unwritable.stderr)")
        #expect(unwritable.stdout.contains("held-out figures"), "\(unwritable.stdout)")
        let saved = try await CommandRunner.run(sweep + ["--save-runs", file])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains("wrote the sweep's runs to \(file)"), "\(saved.stdout)")
        let loaded = try await CommandRunner.run(sweep + ["--load-runs", file])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let figures = saved.stdout.split(separator: "\n").filter { !$0.hasPrefix("wrote the sweep's runs") }
        #expect(loaded.stdout.split(separator: "\n") == figures, "the loaded runs score as the sweep did")
        #expect(unwritable.stdout.split(separator: "\n") == figures, "the runs are the same whether or not the file is written")

        // A larger grid's file numbers its points otherwise: each point asked for is found by its settings.
        let renumbered = kept.appendingPathComponent("renumbered.jsonl").path
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try original.replacingOccurrences(of: "\"sweep-", with: "\"sweep-1").write(toFile: renumbered, atomically: true, encoding: .utf8)
        let found = try await CommandRunner.run(sweep + ["--load-runs", renumbered])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.split(separator: "\n") == figures, "a renumbered file scores as the sweep did")
        var parts = original.split(separator: "\n", maxSplits: 1).map(String.init)
        var header = try #require(try JSONSerialization.jsonObject(with: Data(parts[0].utf8)) as? [String: Any])
        let points = try #require(header["strategies"] as? [String])
        header["strategies"] = Array(points.dropLast())
        parts[0] = String(decoding: try JSONSerialization.data(withJSONObject: header), as: UTF8.self)
        try parts.joined(separator: "\n").write(toFile: renumbered, atomically: true, encoding: .utf8)
        let lacking = try await CommandRunner.run(sweep + ["--load-runs", renumbered])
        #expect(lacking.status == 2 && lacking.stderr.contains("it holds no runs of \(points.last ?? "")"), "\(lacking.stderr)")

        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let other = sweep.map { $0 == "2" ? "3" : $0 }
        let refusals: [([String], String)] = [
            (other + ["--load-runs", file], "it holds a sweep of other seeds (2)"),
            (sweep + ["--load-runs", file, "--set", "lead=30"], "it holds a sweep of other --set changes"),
            (sweep + ["--load-runs", file, "--save-runs", file], "drop --save-runs"),
            (["simulate", "--scenarios", scenarios.path, "--load-runs", file], "give --folds K or --plot FILE"),
        ]
        for (arguments, message) in refusals {
            let refused = try await CommandRunner.run(arguments)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        lines.removeLast()
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let cut = try await CommandRunner.run(sweep + ["--load-runs", file])
        #expect(cut.status == 2 && cut.stderr.contains("the file is cut short"), "\(cut.stderr)")
        lines[1] = "{"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let damaged = try await CommandRunner.run(sweep + ["--load-runs", file])
        #expect(damaged.status == 2 && damaged.stderr.contains("line 2 is not a run's report"), "\(damaged.stderr)")
    }

    @Test("simulate --folds over two folders also prints each folder's held-out figures, counting only its runs")
    func foldsByFolder() async throws {
        let first = temporaryFolder("cli")
        let second = temporaryFolder("cli")
        defer { for url in [first, second] { try? FileManager.default.removeItem(at: url) } }
        for name in ["d01", "d02"] { try writePair(name, in: first) }
        try writePair("d03", in: second)
        let result = try await CommandRunner.run([
            "simulate", "--scenarios", first.path, "--scenarios", second.path, "--strategy", "continuous", "--pad", "0", "--seed", "2",
            "--seed", "5", "--folds", "3",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // Each folder's table pools both seeds: 2 scenarios × 2 seeds, then 1 × 2, for a fixed strategy and a preset alike.
        for (folder, count, runs) in [(first, 2, 4), (second, 1, 2)] {
            let heading = "\(count) scenarios of \(folder.path), seeds pooled:"
            let table = try #require(result.stdout.components(separatedBy: heading).dropFirst().first, "no \(heading): \(result.stdout)")
            let lines = table.split(separator: "\n").prefix(10)
            for strategy in ["continuous ", "adaptive "] {
                let row = try #require(lines.first { $0.hasPrefix(strategy) }, "\(heading) lacks \(strategy): \(table)")
                #expect(row.split(separator: " ").dropFirst().first == "\(runs)", "\(heading) \(row)")
            }
        }
    }

    @Test("simulate --scenarios refuses two scenarios of one name, which one run would stand for")
    func refusesDuplicateNames() async throws {
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try writePair("d01", in: folder)
        let result = try await CommandRunner.run(["simulate", "--scenarios", folder.path, "--scenarios", folder.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("are both scenario d01"), "\(result.stderr)")
    }
}
