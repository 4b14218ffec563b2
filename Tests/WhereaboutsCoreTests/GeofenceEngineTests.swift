import Foundation
import Testing
import WhereaboutsCore

@Suite("Geofence engine")
struct GeofenceEngineTests {
    typealias F = TestFixtures

    @Test("a GPS walk through a 200 m region enters once and exits once")
    func walkThrough() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200)])
        var events: [RegionEvent] = []
        for (i, x) in stride(from: -400.0, through: 400, by: 10).enumerated() {
            events += engine.evaluate(F.fix(east: x, at: Double(i)))
        }
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(events.allSatisfy { !$0.initial })
        let enterX = -400 + 10 * events[0].timestamp.timeIntervalSince(F.date(0))
        #expect(enterX >= -175 - 1 && enterX <= -175 + 10)
    }

    @Test("a 1 km fix is no evidence of entering a 150 m region; only certain exits count")
    func coarseFixes() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 150)])
        #expect(engine.evaluate(F.fix(east: 1000, accuracy: 10, at: 0)).isEmpty)
        #expect(engine.evaluate(F.fix(east: 0, accuracy: 1000, at: 10)).isEmpty)
        #expect(engine.state(of: "a") == .outside)
        #expect(engine.evaluate(F.fix(east: 0, accuracy: 10, at: 20)).map(\.kind) == [.enter])
        #expect(engine.evaluate(F.fix(east: 600, accuracy: 1414, at: 30)).isEmpty)
        #expect(engine.state(of: "a") == .inside)
    }

    @Test("fixes jittering at the boundary never flap")
    func jitter() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200)])
        _ = engine.evaluate(F.fix(east: 500, at: 0))
        var events: [RegionEvent] = []
        for i in 1...200 { events += engine.evaluate(F.fix(east: i % 2 == 0 ? 190 : 210, accuracy: 8, at: Double(i))) }
        #expect(events.isEmpty)
    }

    @Test("Wi-Fi fixes near the band need the next fix to agree; deep ones act alone")
    func confirmation() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 300)])
        _ = engine.evaluate(F.fix(east: 1000, accuracy: 50, at: 0))
        #expect(engine.evaluate(F.fix(east: 240, accuracy: 50, at: 10)).isEmpty)
        #expect(engine.undecidedCount == 1)
        #expect(engine.evaluate(F.fix(east: 235, accuracy: 50, at: 20)).map(\.kind) == [.enter])
        // Evidence awaits the next fix to reach the region: one far away drops it.
        var interrupted = GeofenceEngine(regions: [F.region("a", radius: 300)])
        _ = interrupted.evaluate(F.fix(east: 1000, accuracy: 50, at: 0))
        #expect(interrupted.evaluate(F.fix(east: 240, accuracy: 50, at: 10)).isEmpty)
        #expect(interrupted.evaluate(F.fix(east: 5000, accuracy: 50, at: 20)).isEmpty)
        #expect(interrupted.evaluate(F.fix(east: 235, accuracy: 50, at: 30)).isEmpty)
        #expect(interrupted.evaluate(F.fix(east: 230, accuracy: 50, at: 40)).map(\.kind) == [.enter])
        var deep = GeofenceEngine(regions: [F.region("b", radius: 300)])
        _ = deep.evaluate(F.fix(east: 1000, accuracy: 50, at: 0))
        #expect(deep.evaluate(F.fix(east: 50, accuracy: 50, at: 10)).map(\.kind) == [.enter])
    }

    @Test("a stay survives a significant-change fix one accuracy out; two accuracies out, or a second fix agreeing, end it")
    func coarseExit() {
        // A 60 m stop (hysteresis 15 m) and a 150 m significant-change fix 200 m beyond its outline:
        // a whole accuracy beyond the band, short of two.
        var engine = GeofenceEngine(regions: [F.region("stop", radius: 60)])
        #expect(engine.evaluate(F.fix(east: 0, accuracy: 8, at: 0)).map(\.kind) == [.enter])
        #expect(engine.evaluate(F.fix(east: 260, accuracy: 150, at: 60)).isEmpty)
        #expect(engine.undecidedCount == 0, "a fix at the same accuracy can confirm it: no finer one is asked for")
        #expect(engine.evaluate(F.fix(east: 10, accuracy: 8, at: 70)).isEmpty, "a fine fix inside drops the evidence")
        #expect(engine.state(of: "stop") == .inside)
        #expect(engine.evaluate(F.fix(east: 260, accuracy: 150, at: 80)).isEmpty)
        #expect(engine.evaluate(F.fix(east: 300, accuracy: 150, at: 90)).map(\.kind) == [.exit], "a second coarse fix agreeing")
        var far = GeofenceEngine(regions: [F.region("stop", radius: 60)])
        _ = far.evaluate(F.fix(east: 0, accuracy: 8, at: 0))
        #expect(far.evaluate(F.fix(east: 380, accuracy: 150, at: 60)).map(\.kind) == [.exit], "two accuracies beyond the band")
        var away = GeofenceEngine(regions: [F.region("stop", radius: 60)])
        _ = away.evaluate(F.fix(east: 0, accuracy: 8, at: 0))
        #expect(away.evaluate(F.fix(east: 5000, accuracy: 150, at: 60)).map(\.kind) == [.exit], "far beyond any reach")
    }

    @Test("the state found first is reported as initial")
    func initialState() {
        var engine = GeofenceEngine(regions: [F.region("in", radius: 200), F.region("out", at: F.point(3000), radius: 200)])
        let events = engine.evaluate(F.fix(east: 10, at: 0))
        #expect(events.map(\.regionID) == ["in"])
        #expect(events.allSatisfy { $0.initial && $0.kind == .enter })
        #expect(engine.state(of: "out") == .outside)
        engine.add([F.region("late", radius: 500)])
        #expect(engine.state(of: "late") == nil)
        let later = engine.evaluate(F.fix(east: 10, at: 10))
        #expect(later.map(\.regionID) == ["late"] && later[0].initial)
    }

    @Test("OS crossings are trusted, deduplicated, and yield to a fresh decisive fix")
    func osCrossings() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200)])
        _ = engine.evaluate(F.fix(east: 1000, at: 0))
        #expect(engine.osCrossing(id: "a", state: .inside, at: F.date(100)) == nil)
        let event = engine.osCrossing(id: "a", state: .inside, at: F.date(400))
        #expect(event?.kind == .enter && event?.fix == nil)
        #expect(engine.osCrossing(id: "a", state: .inside, at: F.date(500)) == nil)
        #expect(engine.osCrossing(id: "unknown", state: .inside, at: F.date(500)) == nil)
    }

    @Test("an OS crossing that fixes may have missed is applied whatever the latest fix says, and the next fix judges the way back")
    func osCrossingFixesMissed() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200)])
        _ = engine.evaluate(F.fix(east: 1000, at: 0))
        _ = engine.evaluate(F.fix(east: 400, at: 100))
        #expect(engine.osCrossing(id: "a", state: .inside, at: F.date(150)) == nil, "watched: yields to the fix at 100 s")
        #expect(engine.osCrossing(id: "a", state: .inside, at: F.date(160), fixesMissed: true)?.kind == .enter)
        #expect(engine.evaluate(F.fix(east: 410, at: 161)).map(\.kind) == [.exit])
        #expect(
            engine.osCrossing(id: "a", state: .outside, at: F.date(170), fixesMissed: true) == nil,
            "the exit fixes saw: an echo, missed or not")
    }

    @Test("the OS's late report of a crossing fixes already reported does not undo what fixes saw since")
    func osEcho() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200)])
        _ = engine.evaluate(F.fix(east: 1000, at: 0))
        #expect(engine.evaluate(F.fix(east: 0, at: 10)).map(\.kind) == [.enter])
        // Wi-Fi fixes, too coarse to outweigh an OS crossing on their own (their evidence is in the band).
        #expect(engine.evaluate(F.fix(east: 350, accuracy: 60, at: 50)).map(\.kind) == [.exit])
        _ = engine.evaluate(F.fix(east: 240, accuracy: 60, at: 100))
        #expect(engine.osCrossing(id: "a", state: .inside, at: F.date(120)) == nil, "the enter at 10 s, reported late")
        #expect(engine.state(of: "a") == .outside)
        #expect(engine.osCrossing(id: "a", state: .inside, at: F.date(190)) == nil)
        #expect(engine.osCrossing(id: "a", state: .inside, at: F.date(191))?.kind == .enter, "past the fix precedence: a new crossing")
        var replaced = GeofenceEngine(regions: [F.region("b", radius: 200)])
        _ = replaced.evaluate(F.fix(east: 1000, at: 0))
        #expect(replaced.evaluate(F.fix(east: 0, at: 10)).map(\.kind) == [.enter])
        replaced.add([F.region("b", radius: 200)])
        let found = replaced.osCrossing(id: "b", state: .inside, at: F.date(20))
        #expect(found?.kind == .enter && found?.initial == true, "a replaced region forgets the crossings of the one before")
    }

    @Test("crossings of more regions than the engine keeps before pruning are all remembered while fresh")
    func osEchoOfManyRegions() {
        let ids = (0..<70).map { "r\($0)" }
        var engine = GeofenceEngine(regions: ids.map { F.region($0, radius: 200) })
        _ = engine.evaluate(F.fix(east: 1000, at: 0))
        #expect(engine.evaluate(F.fix(east: 0, at: 10)).count == 70)
        #expect(engine.evaluate(F.fix(east: 350, accuracy: 60, at: 50)).count == 70, "pruning runs here, with 70 kept")
        _ = engine.evaluate(F.fix(east: 240, accuracy: 60, at: 100))
        #expect(ids.allSatisfy { engine.osCrossing(id: $0, state: .inside, at: F.date(120)) == nil })
        #expect(ids.allSatisfy { engine.osCrossing(id: $0, state: .inside, at: F.date(400))?.kind == .enter })
    }

    @Test("notifyOnEntry false tracks the state without reporting the enter")
    func silentEntry() throws {
        let region = try Region(id: "a", center: F.origin, radius: 200, notifyOnEntry: false)
        var engine = GeofenceEngine(regions: [region])
        _ = engine.evaluate(F.fix(east: 1000, at: 0))
        #expect(engine.evaluate(F.fix(east: 0, at: 10)).isEmpty)
        #expect(engine.state(of: "a") == .inside)
        #expect(engine.evaluate(F.fix(east: 1000, at: 20)).map(\.kind) == [.exit])
    }

    @Test("among many regions changing at once, only those that asked are reported, still sorted by id")
    func mixedNotification() throws {
        var g = SeededGenerator(seed: 5)
        let regions: [Region] = try (0..<40).map { i in
            try Region(
                id: "r\(Int.random(in: 0..<1_000_000, using: &g))-\(i)",
                center: F.point(Double.random(in: 0...50, using: &g), bearing: Double(i * 9)),
                radius: 200, notifyOnEntry: i % 3 != 0, notifyOnExit: i % 4 != 0)
        }
        var engine = GeofenceEngine(regions: regions)
        _ = engine.evaluate(F.fix(east: 5000, at: 0))
        let enters = engine.evaluate(F.fix(east: 0, at: 10))
        #expect(enters.map(\.regionID) == regions.filter(\.notifyOnEntry).map(\.id).sorted())
        #expect(enters.allSatisfy { $0.kind == .enter && !$0.initial })
        #expect(engine.insideIDs == regions.map(\.id).sorted())
        let exits = engine.evaluate(F.fix(east: 5000, at: 20))
        #expect(exits.map(\.regionID) == regions.filter(\.notifyOnExit).map(\.id).sorted())
        #expect(exits.allSatisfy { $0.kind == .exit })
    }

    @Test(
        "the events of many regions changing at once are sorted by id, whether or not ids share their first eight bytes",
        arguments: [(12, false), (24, false), (12, true), (24, true), (40, true)])
    func sortedEvents(count: Int, sharedPrefixes: Bool) throws {
        var g = SeededGenerator(seed: UInt64(count))
        // Ids of up to 16 characters; with shared prefixes, every third starts "region-", so several
        // agree in their first eight bytes and only their whole ids can order them.
        let regions = (0..<count).map { i in
            let number = Int.random(in: 0..<1_000_000, using: &g)
            let id = sharedPrefixes && i % 3 == 0 ? "region-\(number % 10)-\(i)" : "\(number)-\(i)"
            return F.region(id, at: F.point(Double.random(in: 0...50, using: &g), bearing: Double(i * 9)), radius: 200)
        }
        var engine = GeofenceEngine(regions: regions)
        _ = engine.evaluate(F.fix(east: 5000, at: 0))
        #expect(engine.evaluate(F.fix(east: 0, at: 10)).map(\.regionID) == regions.map(\.id).sorted())
        #expect(engine.evaluate(F.fix(east: 5000, at: 20)).map(\.regionID) == regions.map(\.id).sorted())
    }

    @Test("judging only the regions a fix lies in, plus those with pending evidence, decides as judging all within reach")
    func narrowScanMatchesFullReach() throws {
        // A second engine re-adds a far region before every fix: an undetermined region makes it scan
        // the whole reach of each fix, as the engine did before it narrowed the scan.
        var g = SeededGenerator(seed: 17)
        func place() -> Coordinate { F.point(Double.random(in: 0...600, using: &g), bearing: Double.random(in: 0..<360, using: &g)) }
        var regions: [Region] = (0..<300).map { F.region("c\($0)", at: place(), radius: Double.random(in: 15...200, using: &g)) }
        regions += try (0..<20).map { i in
            let corner = place()
            let side = Double.random(in: 0.0005...0.002, using: &g)
            let ring = [(0.0, 0.0), (side, 0), (side, side), (0, side), (0, 0)].map {
                Coordinate(normalizingLatitude: corner.latitude + $0.0, longitude: corner.longitude + $0.1)
            }
            return try Region(id: "p\(i)", polygons: [[ring]])
        }
        let far = F.region("far", at: F.point(5_000_000), radius: 100)
        var narrow = GeofenceEngine(regions: regions)
        var full = GeofenceEngine(regions: regions)
        var position = F.origin
        for i in 0..<3000 {
            // A walk with jumps, and accuracies from decisive to coarse enough to leave evidence pending.
            position =
                i % 25 == 0
                ? place() : F.point(Double.random(in: 0...30, using: &g), bearing: Double.random(in: 0..<360, using: &g), from: position)
            let accuracy = [5.0, 12, 35, 60, 90, 150][Int.random(in: 0..<6, using: &g)]
            let fix = F.fix(position, accuracy: accuracy, at: Double(i) * 10)
            if i == 1500 {
                let moved = regions.prefix(40).map { F.region($0.id, at: place(), radius: $0.radius) }
                narrow.add(moved)
                full.add(moved)
                narrow.remove(["c50", "c51", "p3"])
                full.remove(["c50", "c51", "p3"])
            }
            if i == 2200 {
                narrow.forgetStates()
                full.forgetStates()
            }
            if i % 7 == 3 {
                // An OS crossing, late, for a region near the device: it may clear pending evidence.
                let id = regions[Int.random(in: 0..<regions.count, using: &g)].id
                let state: RegionState = Bool.random(using: &g) ? .inside : .outside
                let time = F.date(Double(i) * 10 - 5)
                #expect(
                    narrow.osCrossing(id: id, state: state, at: time) == full.osCrossing(id: id, state: state, at: time),
                    "crossing before fix \(i)")
            }
            full.add([far])
            #expect(narrow.evaluate(fix) == full.evaluate(fix), "fix \(i)")
            #expect(narrow.undecidedCount == full.undecidedCount, "fix \(i)")
        }
        #expect(narrow.insideIDs == full.insideIDs)
    }

    @Test("dwell fires once, stamped when the delay ended, and an exit cancels it")
    func dwell() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200, loitering: 300)])
        _ = engine.evaluate(F.fix(east: 1000, at: 0))
        _ = engine.evaluate(F.fix(east: 0, at: 100))
        #expect(engine.nextDwellDue == F.date(400))
        #expect(engine.dueDwells(at: F.date(399)).isEmpty)
        let late = engine.dueDwells(at: F.date(5000))
        #expect(late.map(\.kind) == [.dwell] && late[0].timestamp == F.date(400))
        #expect(engine.dueDwells(at: F.date(6000)).isEmpty)
        _ = engine.evaluate(F.fix(east: 1000, at: 6100))
        _ = engine.evaluate(F.fix(east: 0, at: 6200))
        _ = engine.evaluate(F.fix(east: 1000, at: 6300))
        #expect(engine.nextDwellDue == nil)
        #expect(engine.dueDwells(at: F.date(9000)).isEmpty)
    }

    @Test("removing a region reports nothing")
    func removal() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200)])
        _ = engine.evaluate(F.fix(east: 0, at: 0))
        engine.remove(["a"])
        #expect(engine.evaluate(F.fix(east: 1000, at: 10)).isEmpty)
        #expect(engine.insideIDs.isEmpty)
    }

    @Test("inside several regions, OS exits, removals and forgetting keep the inside list right")
    func insideList() {
        let radii = [150.0, 200, 300, 400, 500, 600]
        var engine = GeofenceEngine(regions: radii.enumerated().map { F.region("r\($0.offset)", radius: $0.element) })
        #expect(engine.evaluate(F.fix(east: 0, at: 0)).map(\.regionID) == ["r0", "r1", "r2", "r3", "r4", "r5"])
        #expect(engine.osCrossing(id: "r2", state: .outside, at: F.date(1000))?.kind == .exit)
        engine.remove(["r4"])
        #expect(engine.insideIDs == ["r0", "r1", "r3", "r5"])
        let left = engine.evaluate(F.fix(east: 350, at: 1010))
        #expect(left.map(\.regionID) == ["r0", "r1"] && left.allSatisfy { $0.kind == .exit })
        #expect(engine.insideIDs == ["r3", "r5"])
        engine.forgetStates()
        #expect(engine.insideIDs.isEmpty)
        let found = engine.evaluate(F.fix(east: 0, at: 1020))
        #expect(found.map(\.regionID) == ["r0", "r1", "r2", "r3", "r5"] && found.allSatisfy(\.initial))
        #expect(engine.evaluate(F.fix(east: 5000, at: 1030)).map(\.kind) == Array(repeating: .exit, count: 5))
        #expect(engine.insideIDs.isEmpty)
    }

    @Test("the events of one fix come sorted exactly as String sorts their ids")
    func eventOrder() {
        // Ids sharing their first eight bytes, ids one begins, NULs, case, and non-ASCII ids where a
        // combining mark changes the order that the bytes alone would give.
        let ids = [
            "b", "a", "ab", "a\u{0}", "a\u{0}b", "Z", "zz", "abcdefgh", "abcdefghi", "abcdefgha", "abcdefgd",
            "abcdefgc\u{301}", "abc\u{301}", "abd", "poi-00001234", "poi-00001233", "poi-0000123", "Zürich", "Zurich",
            "\u{1F600}", "r10", "r9", "r100", "ÅB", "A\u{30A}C",
        ]
        var g = SeededGenerator(seed: 21)
        let regions = ids.shuffled(using: &g).map {
            F.region($0, at: F.point(Double.random(in: 0...50, using: &g), bearing: Double.random(in: 0..<360, using: &g)), radius: 200)
        }
        var engine = GeofenceEngine(regions: regions)
        #expect(engine.evaluate(F.fix(east: 0, at: 0)).map(\.regionID) == ids.sorted())
        // ASCII ids, removed and added again so that each lands in a slot another id left: with no
        // id to compare in full, the order rests on the keys alone.
        let ascii = ids.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        var reused = GeofenceEngine(regions: zip(regions, ascii).map { F.region($1, at: $0.center, radius: 200) })
        reused.remove(ascii)
        reused.add(zip(regions, ascii.shuffled(using: &g)).map { F.region($1, at: $0.center, radius: 200) })
        #expect(reused.evaluate(F.fix(east: 0, at: 10)).map(\.regionID) == ascii.sorted())
    }

    @Test("regions added since the last fix are settled by the next: far ones outside, ambiguous ones not yet")
    func settlingAddedRegions() {
        var engine = GeofenceEngine(regions: [F.region("A", radius: 200)])
        #expect(engine.evaluate(F.fix(east: 5000, at: 0)).isEmpty)
        #expect(engine.state(of: "A") == .outside)
        engine.add([F.region("B", radius: 200)])
        engine.add([F.region("B", radius: 200)])
        #expect(engine.state(of: "B") == nil)
        engine.remove(["A"])
        engine.add([F.region("C", at: F.point(10_000), radius: 200)])
        #expect(engine.evaluate(F.fix(east: 5000, at: 10)).isEmpty)
        #expect(engine.state(of: "B") == .outside && engine.state(of: "C") == .outside)
        engine.add([F.region("D", radius: 200)])
        #expect(engine.evaluate(F.fix(east: 200, at: 20)).isEmpty)
        #expect(engine.state(of: "D") == nil && engine.state(of: "B") == .outside)
        let entered = engine.evaluate(F.fix(east: 0, at: 30))
        #expect(entered.map(\.regionID) == ["B", "D"] && entered.map(\.initial) == [false, true])
    }

    @Test("a fix exactly on the boundary decides nothing")
    func onBoundary() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200)])
        _ = engine.evaluate(F.fix(east: 1000, at: 0))
        #expect(engine.evaluate(F.fix(east: 200, accuracy: 0, at: 10)).isEmpty)
        #expect(TransitionRule.evidence(distance: 200, accuracy: 0, radius: 200) == nil)
    }
}
