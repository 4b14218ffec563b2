import Foundation
import Testing

@testable import WhereaboutsCore

/// The engine's log of crossings fixes reported drops exactly what the filter over every record it
/// replaced dropped: records whose later crossing came more than `fixPrecedence` seconds before the
/// fix, once the log holds 64 records or more.
@Suite("Fix crossing log: the same records as filtering them all")
struct FixCrossingLogTests {
    @Test("random crossings, forgotten regions and times out of order", arguments: [1, 2, 3] as [UInt64])
    func matchesFilter(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var log = FixCrossingLog()
        var reference: [Int32: GeofenceRule.FixCrossings] = [:]
        var now = Date(timeIntervalSince1970: 1_700_000_000)
        for step in 0..<2_000 {
            // Mostly forward a second a fix, now and then a step back.
            now = now.addingTimeInterval(Double(Int(random.next() % 5)) - (random.next() % 50 == 0 ? 400 : 1))
            if random.next() % 40 == 0 {
                let slot = Int32(random.next() % 200)
                log.forget(slot)
                reference[slot] = nil
                continue
            }
            if reference.count >= 64 {
                log.dropExpired(at: now)
                reference = reference.filter { now.timeIntervalSince($0.value.latest) <= GeofenceRule.fixPrecedence }
            }
            for _ in 0..<Int(random.next() % 6) {
                let slot = Int32(random.next() % 200)
                let kind: RegionEventKind = random.next() % 2 == 0 ? .enter : .exit
                log.note(kind, ofSlot: slot, at: now)
                reference[slot, default: .init()][kind] = now
            }
            #expect(log.count == reference.count, "step \(step)")
            for slot in Int32(0)..<200 where log[slot] != reference[slot] {
                Issue.record("step \(step): slot \(slot) differs from the filtered records")
                return
            }
        }
    }
}
