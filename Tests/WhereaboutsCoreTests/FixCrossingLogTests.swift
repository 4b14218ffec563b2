import Foundation
import Testing

@testable import WhereaboutsCore

/// The engine's log of crossings fixes reported answers as a plain list of every noting, forgetting
/// and pruning would: for each kind, the crossing noted last since the region was last forgotten,
/// among those at most `fixPrecedence` seconds before the latest pruning time.
@Suite("Fix crossing log: the same answers as the whole history")
struct FixCrossingLogTests {
    /// One step of the history: a crossing noted, or a region forgotten (`kind` nil).
    private struct Step {
        var time: Date
        var slot: Int32
        var kind: RegionEventKind?
    }

    /// What the history says of `slot`, read from all of it.
    private static func answer(_ history: [Step], slot: Int32, prunedAt: Date) -> GeofenceRule.FixCrossings? {
        var crossings = GeofenceRule.FixCrossings()
        var found: Set<RegionEventKind> = []
        for step in history.reversed() where step.slot == slot {
            guard let kind = step.kind else { break }
            guard prunedAt.timeIntervalSince(step.time) <= GeofenceRule.fixPrecedence, !found.contains(kind) else { continue }
            crossings[kind] = step.time
            found.insert(kind)
        }
        return found.isEmpty ? nil : crossings
    }

    @Test("random crossings, forgotten regions and times out of order", arguments: [1, 2, 3, 4] as [UInt64])
    func matchesHistory(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var log = FixCrossingLog()
        var history: [Step] = []
        var prunedAt = Date.distantPast
        var now = Date(timeIntervalSince1970: 1_700_000_000)
        for step in 0..<3_000 {
            // Mostly forward a second a fix, now and then a step back or far ahead.
            now = now.addingTimeInterval(Double(Int(random.next() % 5)) - 1)
            if random.next() % 50 == 0 { now = now.addingTimeInterval(-400) }
            if random.next() % 400 == 0 { now = now.addingTimeInterval(3_600) }
            switch random.next() % 100 {
            case 0..<3:
                let slot = Int32(random.next() % 200)
                log.forget(slot)
                history.append(Step(time: now, slot: slot, kind: nil))
            case 3:
                log.forgetAll()
                history = []
            default:
                log.dropExpired(at: now)
                prunedAt = max(prunedAt, now)
                for _ in 0..<Int(random.next() % 12) {
                    let slot = Int32(random.next() % 200)
                    let kind: RegionEventKind = random.next() % 2 == 0 ? .enter : .exit
                    log.note(kind, ofSlot: slot, at: now)
                    history.append(Step(time: now, slot: slot, kind: kind))
                }
            }
            for slot in Int32(0)..<200 where log[slot] != Self.answer(history, slot: slot, prunedAt: prunedAt) {
                Issue.record("step \(step): slot \(slot) differs from the history")
                return
            }
        }
    }

    @Test("crossings stamped in the future do not make the log grow without bound")
    func futureCrossingsBounded() {
        var log = FixCrossingLog()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        log.note(.enter, ofSlot: 7, at: start.addingTimeInterval(86_400))
        for second in 0..<20_000 {
            let now = start.addingTimeInterval(Double(second))
            log.dropExpired(at: now)
            for slot in Int32(0)..<10 { log.note(.exit, ofSlot: slot, at: now) }
        }
        #expect(log.entryCount < 6_000)
        #expect(log[7]?.enter == start.addingTimeInterval(86_400))
    }
}
