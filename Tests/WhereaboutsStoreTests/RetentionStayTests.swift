import Foundation
import GRDB
import Testing
import WhereaboutsCore
import WhereaboutsStoreTestSupport
import WhereaboutsTestSupport

@testable import WhereaboutsStore

/// Retention beside a stay that goes on: the record a stay changes is never dropped, changes reach
/// only the record they name, and a retention that fails never undoes a write already stored.
@Suite("Store retention and the ongoing stay")
struct RetentionStayTests {
    @Test("a stay longer than the age limit keeps its record, whose dwell goes on growing")
    func longStayKept() throws {
        let store = try makeStore(retention: RetentionPolicy(maxAge: 3600, checkEvery: 1))
        let stay = sampleRecords(1, start: Date(timeIntervalSinceNow: -7200))[0]
        try store.apply([.record(stay)], at: Date())
        try store.markDelivered([stay.id])
        try store.apply([.dwell(7190, of: stay.id)], at: Date())
        try store.enforceRetention(now: Date())
        #expect(try store.record(id: stay.id)?.dwell == 7190, "its stay ends now, not two hours ago")
        try store.apply([.dwell(7300, of: stay.id)], at: Date())
        #expect(try store.record(id: stay.id)?.dwell == 7300)
        #expect(try store.pendingCount() == 1, "the longer stay is sent again")
    }

    @Test("count retention never drops the newest record, and a stay's change reaches only the record it names")
    func newestKeptByCount() throws {
        let store = try makeStore(retention: RetentionPolicy(maxRecords: 3, checkEvery: 1_000_000))
        let records = sampleRecords(5)
        try store.append(records, at: Date())
        try store.markDelivered([records[4].id])  // newest first: the live stay went out before the older ones
        try store.enforceRetention(now: Date())
        #expect(try store.allRecords().map(\.record.id) == [records[2].id, records[3].id, records[4].id])
        try store.apply([.dwell(600, of: records[4].id)], at: Date())
        let stored = try store.allRecords()
        #expect(stored.map(\.record.dwell) == [0, 0, 600], "the older pending records are not moved or lengthened")

        try store.apply([.dwell(900, of: records[0].id)], at: Date())
        #expect(try store.allRecords().map(\.record.dwell) == [0, 0, 600], "a change to a record not stored changes nothing")
    }

    @Test("a retention that fails after the write is committed reports the write stored; the next write goes on")
    func failedRetentionKeepsWriting() throws {
        let store = try makeStore(retention: RetentionPolicy(maxRecords: 1, checkEvery: 1))
        let writer = StoreWriter(store: store)
        let records = sampleRecords(3)
        #expect(writer.write([.record(records[0])], at: Date()) == .written([.record(records[0])]))
        // Retention's drop log refuses, as a disk too full for its deletions would.
        try store.database.write {
            try $0.execute(sql: "CREATE TEMP TRIGGER refuse_drop BEFORE INSERT ON main.drop_log BEGIN SELECT RAISE(ABORT, 'no room'); END")
        }
        #expect(writer.write([.record(records[1])], at: Date()) == .written([.record(records[1])]))
        #expect(try store.record(id: records[1].id) != nil)
        #expect(store.lastRetentionFailure?.problem.contains("no room") == true, "\(String(describing: store.lastRetentionFailure))")
        try store.database.write { try $0.execute(sql: "DROP TRIGGER temp.refuse_drop") }
        #expect(writer.write([.record(records[2])], at: Date()) == .written([.record(records[2])]))
        #expect(writer.backlogCount == 0)
        #expect(store.lastRetentionFailure == nil)
        #expect(try store.allRecords().map(\.record.id) == [records[2].id], "retention caught up")
    }
}
