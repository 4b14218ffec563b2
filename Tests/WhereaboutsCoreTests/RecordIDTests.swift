import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Record ids")
struct RecordIDTests {
    private static func bytes(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }

    @Test("carry version 7, the RFC 9562 variant and the time in milliseconds")
    func layout() {
        var generator = SeededGenerator(seed: 1)
        let date = Date(timeIntervalSince1970: 1_767_225_600.123_9)
        for _ in 0..<1000 {
            let bytes = Self.bytes(RecordID.make(at: date, using: &generator))
            #expect(bytes[6] >> 4 == 7)
            #expect(bytes[8] >> 6 == 0b10)
            #expect(bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == 1_767_225_600_123)
        }
        let string = RecordID.make(at: date).uuidString
        #expect(string.hasPrefix("019B76DA-A87B-7"))
        #expect("89AB".contains(string[string.index(string.startIndex, offsetBy: 19)]))
    }

    @Test("sort by time, bytes and lowercase text alike")
    func ordering() {
        var generator = SeededGenerator(seed: 2)
        let start = Date(timeIntervalSince1970: 1_700_000_000.000_5)
        let ids = (0..<2000).map { RecordID.make(at: start.addingTimeInterval(Double($0) * 0.001), using: &generator) }
        for (earlier, later) in zip(ids, ids.dropFirst()) {
            #expect(Self.bytes(earlier).lexicographicallyPrecedes(Self.bytes(later)))
            #expect(earlier.uuidString.lowercased() < later.uuidString.lowercased())
        }
    }

    @Test("are unique within one millisecond")
    func uniqueness() {
        let date = Date()
        let ids = (0..<100_000).map { _ in RecordID.make(at: date) }
        #expect(Set(ids).count == ids.count)
    }

    @Test("are the same for the same seed and date")
    func determinism() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        var first = SeededGenerator(seed: 3)
        var second = SeededGenerator(seed: 3)
        #expect(RecordID.make(at: date, using: &first) == RecordID.make(at: date, using: &second))
    }

    @Test("derived from given bits: the same date and bits give the same id, the bits fill what is not time, version or variant")
    func givenBits() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let id = RecordID.make(at: date, bits: (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210))
        #expect(id == RecordID.make(at: date, bits: (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)))
        #expect(id.uuidString == "018BCFE5-6800-7DEF-BEDC-BA9876543210")
        #expect(id != RecordID.make(at: date, bits: (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3211)))
    }

    @Test("clamp dates outside the 48-bit range")
    func clamping() {
        var generator = SeededGenerator(seed: 4)
        let early = Self.bytes(RecordID.make(at: Date(timeIntervalSince1970: -5), using: &generator))
        #expect(early[0..<6].allSatisfy { $0 == 0 })
        let late = Self.bytes(RecordID.make(at: .distantFuture.addingTimeInterval(1e15), using: &generator))
        #expect(late[0..<6].allSatisfy { $0 == 0xFF })
    }

    @Test("are given to new location and event records, from their own timestamps")
    func records() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let fix = try Fix(coordinate: Coordinate(latitude: 1, longitude: 2), horizontalAccuracy: 5, timestamp: date)
        let record = LocationRecord(fix: fix, trigger: .policy)
        #expect(Self.bytes(record.id)[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == 1_700_000_000_500)
        let event = EventRecord(event: RegionEvent(regionID: "home", kind: .enter, timestamp: date, initial: false, fix: fix))
        #expect(Self.bytes(event.id)[6] >> 4 == 7)
    }
}
