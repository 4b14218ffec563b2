import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsSimulator

/// `whereabouts bench geofence`: per-fix evaluation and slot planning with N regions, against brute
/// force in the same process.
struct BenchGeofence: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geofence",
        abstract: "Geofence engine speed and memory with N regions, against brute force in the same run.",
        discussion: """
            Regions are circles of 20–200 m over a 100 km square around Munich. Prints median and p99 \
            microseconds per fix evaluation (all regions the fix is judged against, with transitions) for \
            fixes scattered at random over the city (every query a cache miss) and for a device moving \
            through it at 10 m/s, per \
            slot plan (nearest 19 boundaries and the refresh region) and per containment query, the same for \
            brute force over every region, and the ratios. --export writes the query set and answers for \
            Benchmarks/geofence_peer.py.
            """)

    @Option(help: "How many regions.")
    var regions: Int = 1_000_000

    @Option(help: "How regions are spread: uniform or clustered.")
    var layout: String = "uniform"

    @Option(help: "How many fixes to time.")
    var fixes: Int = 20_000

    @Option(help: "Write regions.csv, fixes.csv and answers.csv to this folder.")
    var export: String?

    @Flag(help: "Also write the regions as GeoJSON to a temporary file and time streaming them back.")
    var geojson = false

    @Flag(help: "Print one JSON object as the last line.")
    var json = false

    static let side = 100_000.0

    func run() throws {
        guard let layout = SyntheticCity.Layout(rawValue: layout) else {
            throw InputError("--layout \(self.layout) is not a layout; use uniform or clustered")
        }
        guard regions > 0, fixes > 0 else { throw InputError("--regions and --fixes must be positive whole numbers") }
        let regionSet = SyntheticCity.regions(count: regions, side: Self.side, radii: 20...200, layout: layout, seed: 1)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let queries = SyntheticCity.fixes(count: fixes, side: Self.side, layout: layout, start: start, seed: 2)
        let watch = Stopwatch()

        let memoryBefore = residentBytes()
        var engine = GeofenceEngine()
        let build = watch.time { engine.add(regionSet) }
        let memory = Double(residentBytes() - memoryBefore) / Double(regions)

        var reported: [Int] = []
        reported.reserveCapacity(queries.count)
        let evaluate = queries.map { fix in watch.time { reported.append(engine.evaluate(fix).count) } }
        let transitions = reported.reduce(0, +)
        let track = SyntheticCity.track(count: fixes, side: Self.side, start: start.addingTimeInterval(1e6), seed: 3)
        let evaluateTrack = track.map { fix in watch.time { _ = engine.evaluate(fix) } }
        var plans: [Double] = []
        var answers: [[String]] = []
        for fix in queries {
            plans.append(
                watch.time {
                    _ = SlotPlanner.plan(
                        engine, at: fix.coordinate, slots: 20, minimumRefresh: 150, maximumRefresh: 5000,
                        device: (fix.coordinate, fix.horizontalAccuracy))
                })
        }
        let refits = refitAlong(track, &engine, watch)
        let query = queries.map { fix in
            watch.time { answers.append(engine.index.containing(fix.coordinate, accuracy: fix.horizontalAccuracy)) }
        }

        let bruteCount = min(fixes, max(20, 20_000_000 / regions))
        var bruteEvaluate: [Double] = []
        var brutePlan: [Double] = []
        var mismatches = 0
        for (i, fix) in queries.prefix(bruteCount).enumerated() {
            var found: [String] = []
            bruteEvaluate.append(
                watch.time {
                    for region in regionSet where region.signedDistance(from: fix.coordinate) <= fix.horizontalAccuracy {
                        found.append(region.id)
                    }
                })
            if found.sorted() != answers[i] { mismatches += 1 }
            brutePlan.append(
                watch.time {
                    var nearest = regionSet.map { abs($0.signedDistance(from: fix.coordinate)) }
                    nearest.sort()
                    precondition(nearest.count >= 0)
                })
        }

        let e = Stopwatch.summary(evaluate)
        let p = Stopwatch.summary(plans)
        let q = Stopwatch.summary(query)
        let et = Stopwatch.summary(evaluateTrack)
        let be = Stopwatch.summary(bruteEvaluate)
        let bp = Stopwatch.summary(brutePlan)
        print("regions \(regions), layout \(layout.rawValue), fixes \(fixes) (brute force: \(bruteCount))")
        print(String(format: "index build %.2f s, memory %.0f bytes/region (resident growth)", build, memory))
        print(
            String(
                format: "scattered fixes average %.1f transitions each (every fix is a jump across the city)",
                Double(transitions) / Double(fixes)))
        print("                              median µs      p99 µs   brute median µs      ratio")
        for (name, ours, brute) in [("evaluate", e, be), ("evaluate, a device moving", et, be), ("slot plan", p, bp), ("query", q, be)] {
            let figures = String(
                format: "%12.2f %11.2f %17.0f %9.0f×", ours.median, ours.p99, brute.median, brute.median / max(ours.median, 1e-3))
            print(name.padding(toLength: 26, withPad: " ", startingAt: 0) + figures)
        }
        print(Self.byTransitions(evaluate, reported))
        let r = Stopwatch.summary(refits)
        print(
            String(
                format: "slot refit after each moving fix (as the Tracker does): median %.2f µs, p99 %.2f µs, %.0f× judging that fix",
                r.median, r.p99, r.median / max(et.median, 1e-3)))
        print(mismatches == 0 ? "answers identical to brute force" : "MISMATCHES against brute force: \(mismatches)")
        if let export { try write(export, regionSet, queries, answers) }
        var load: [String: Any] = [:]
        if geojson { load = try streamGeoJSON(regionSet, watch) }
        if json {
            let object: [String: Any] = [
                "bench": "geofence", "regions": regions, "layout": layout.rawValue, "fixes": fixes,
                "buildSeconds": build, "bytesPerRegion": memory.rounded(),
                "evaluateMedianMicroseconds": e.median, "evaluateP99Microseconds": e.p99,
                "transitionsPerScatteredFix": Double(transitions) / Double(fixes),
                "evaluateTrackMedianMicroseconds": et.median, "evaluateTrackP99Microseconds": et.p99,
                "planMedianMicroseconds": p.median, "planP99Microseconds": p.p99,
                "refitMedianMicroseconds": r.median, "refitP99Microseconds": r.p99,
                "queryMicroseconds": q.median, "queryP99Microseconds": q.p99,
                "bruteEvaluateMedianMicroseconds": be.median, "brutePlanMedianMicroseconds": bp.median,
                "evaluateRatio": be.median / max(e.median, 1e-3), "planRatio": bp.median / max(p.median, 1e-3),
                "mismatches": mismatches,
            ].merging(load) { a, _ in a }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        if mismatches > 0 { throw ExitCode(1) }
    }

    /// The median evaluation of the scattered fixes by how many transitions each reported, in bands of
    /// four (the last band takes every fix with more): what a fix costs beyond finding its cell grows
    /// with the regions it enters and leaves.
    private static func byTransitions(_ seconds: [Double], _ reported: [Int]) -> String {
        let last = 24
        var bands: [Int: [Double]] = [:]
        for (time, count) in zip(seconds, reported) { bands[min(count, last) / 4 * 4, default: []].append(time) }
        let parts = bands.keys.sorted().map { band -> String in
            let times = bands[band]!
            let label = band == last ? "\(band)+" : "\(band)–\(band + 3)"
            return label + String(format: ": %.2f µs (%d fixes)", Stopwatch.summary(times).median, times.count)
        }
        return "evaluate by transitions reported, median: " + parts.joined(separator: ", ")
    }

    /// Times refitting the slot plan after each fix of `track`, as the Tracker does: the fix is judged
    /// (untimed), then the plan in force is refitted to the states and the fix, or made anew when the
    /// fix left its refresh region (untimed).
    private func refitAlong(_ track: [Fix], _ engine: inout GeofenceEngine, _ watch: Stopwatch) -> [Double] {
        var plan: SlotPlan?
        var times: [Double] = []
        for fix in track {
            _ = engine.evaluate(fix)
            let device = (position: fix.coordinate, uncertainty: fix.horizontalAccuracy)
            if let current = plan, !current.isStale(at: fix.coordinate) {
                times.append(
                    watch.time {
                        plan = SlotPlanner.refit(current, engine, cushion: .iOS, device: device)
                    })
            } else {
                plan = SlotPlanner.plan(
                    engine, at: fix.coordinate, slots: 20, minimumRefresh: 150, maximumRefresh: 5000, device: device, handed: plan)
            }
        }
        return times
    }

    /// Writes `regions` as a GeoJSON FeatureCollection, streams it back with ``RegionFile``, and
    /// reports the time, the file's size and how much resident memory grew while reading.
    private func streamGeoJSON(_ regions: [Region], _ watch: Stopwatch) throws -> [String: Any] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "whereabouts-bench-\(ProcessInfo.processInfo.processIdentifier).geojson")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        handle.write(Data(GeoJSONWriter.header.utf8))
        var chunk = ""
        for (i, r) in regions.enumerated() {
            chunk += (i == 0 ? "" : ",") + GeoJSONWriter.feature(r)
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data((chunk + GeoJSONWriter.footer).utf8))
        try handle.close()
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        let before = residentBytes()
        var loaded: [Region] = []
        var failure: (any Error)?
        let seconds = watch.time {
            do { loaded = try RegionFile.read(at: url) } catch { failure = error }
        }
        if let failure { throw InputError(reading: failure) }
        let growth = residentBytes() - before
        print(
            String(
                format: "GeoJSON stream: %d regions from %.0f MB in %.2f s, resident growth %.0f MB", loaded.count, Double(size) / 1e6,
                seconds, Double(growth) / 1e6))
        return ["geojsonRegions": loaded.count, "geojsonBytes": size, "geojsonSeconds": seconds, "geojsonResidentGrowthBytes": growth]
    }

    private func write(_ folder: String, _ regions: [Region], _ fixes: [Fix], _ answers: [[String]]) throws {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            var text = "id,lat,lon,radius\n"
            for r in regions { text += "\(r.id),\(r.center.latitude),\(r.center.longitude),\(r.radius)\n" }
            try Data(text.utf8).write(to: url.appendingPathComponent("regions.csv"))
            text = "lat,lon,accuracy\n"
            for f in fixes { text += "\(f.coordinate.latitude),\(f.coordinate.longitude),\(f.horizontalAccuracy)\n" }
            try Data(text.utf8).write(to: url.appendingPathComponent("fixes.csv"))
            text = "fix,regions\n"
            for (i, ids) in answers.enumerated() { text += "\(i),\(ids.joined(separator: ";"))\n" }
            try Data(text.utf8).write(to: url.appendingPathComponent("answers.csv"))
        } catch {
            throw InputError("--export \(folder): cannot write the query set (\(error.localizedDescription)); give a writable folder")
        }
    }
}
