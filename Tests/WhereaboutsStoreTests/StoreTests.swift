import Foundation
import GRDB
import Testing
import WhereaboutsCore
import WhereaboutsStoreTestSupport
import WhereaboutsTestSupport

@testable import WhereaboutsStore

@Suite("SQLite location store")
struct StoreTests {
    @Test("a new store is in WAL mode with the current schema")
    func walAndMigrations() throws {
        let store = try makeStore()
        let pool = try DatabasePool(path: store.path)
        #expect(try pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(
            try pool.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") } == [
                "v1", "v2-event-delivery", "v3-region-dwelt", "v4-command-ids", "v5-application-id-salvage-log",
            ])
        #expect(store.openReport == StoreOpenReport(created: true))
    }

    @Test("a store written before event delivery is upgraded: its events get ids and wait for upload")
    func upgradeFromVersion1() throws {
        let path = temporaryFolder().appendingPathComponent("old.sqlite").path
        let pool = try DatabasePool(path: path)
        try StoreSchema.migrator.migrate(pool, upTo: "v1")
        try pool.write { db in
            try db.execute(
                sql:
                    "INSERT INTO event (region_id, kind, t, initial) VALUES ('home', 'enter', 1700000000, 0), ('home', 'exit', 1700000600, 0)"
            )
        }
        try pool.close()
        let store = try SQLiteLocationStore(path: path)
        let events = try store.allEvents()
        #expect(events.map(\.record.event.kind) == [.enter, .exit])
        #expect(events.allSatisfy { $0.state == .pending })
        #expect(Set(events.map(\.record.id)).count == 2)
        #expect(try store.claimEvents(limit: 10, now: Date(), lease: 60).count == 2)
    }

    @Test("records survive a reopen with their ids, triggers and dwell")
    func roundTrip() throws {
        let store = try makeStore()
        var records = sampleRecords(3)
        records[1].trigger = .region
        records[2].dwell = 42
        try store.append(records, at: Date())
        let reopened = try SQLiteLocationStore(path: store.path)
        let stored = try reopened.allRecords()
        #expect(stored.map(\.record) == records)
        #expect(stored.allSatisfy { $0.state == .pending })
    }

    @Test("a longer dwell and a better place change only the record they name, keep its id, time and trigger, and make it pending again")
    func changeNewest() throws {
        let store = try makeStore()
        let records = sampleRecords(2)
        try store.append(records, at: Date())
        try store.markDelivered(records.map(\.id))
        let better = try Fix(
            coordinate: Geodesy.destination(from: records[1].fix.coordinate, distance: 30, bearing: 45), horizontalAccuracy: 4,
            altitude: 512, speed: 0, course: nil, timestamp: records[1].fix.timestamp, source: .gps)
        try store.apply([.dwell(60, of: records[1].id), .place(better, of: records[1].id)], at: Date())
        let stored = try store.allRecords()
        #expect(stored[1].record == LocationRecord(id: records[1].id, fix: better, trigger: records[1].trigger, dwell: 60))
        #expect(stored[1].state == .pending)
        #expect(stored[0].record == records[0])
        #expect(stored[0].state == .delivered)
    }

    @Test("a change to the newest record while it is in flight is sent again after the acknowledgement", arguments: [false, true])
    func changeInFlight(placing: Bool) throws {
        let store = try makeStore()
        let records = sampleRecords(1)
        try store.append(records, at: Date())
        _ = try store.claim(limit: 10, order: .oldestFirst, now: Date(), lease: 60)
        var better = records[0].fix
        better.horizontalAccuracy = 3
        try store.apply([placing ? .place(better, of: records[0].id) : .dwell(30, of: records[0].id)], at: Date())
        try store.markDelivered(records.map(\.id))
        #expect(try store.pendingCount() == 1)
        let again = try store.claim(limit: 10, order: .oldestFirst, now: Date(), lease: 60)
        #expect(placing ? again.first?.fix.horizontalAccuracy == 3 : again.first?.dwell == 30)
    }

    @Test("retention drops delivered records first and counts every undelivered drop")
    func retentionByCount() throws {
        let store = try makeStore(retention: RetentionPolicy(maxRecords: 100, checkEvery: 1_000_000))
        let records = sampleRecords(150)
        try store.append(records, at: Date())
        try store.markDelivered(records[100..<130].map(\.id))
        var report = try store.enforceRetention(now: Date())
        #expect(report.deliveredDropped == 30)
        #expect(report.undeliveredDropped == 20)
        #expect(try store.allRecords().count == 100)
        #expect(try store.allRecords().first?.record.id == records[20].id)
        report = try store.enforceRetention(now: Date())
        #expect(report == RetentionReport())
        let drops = try store.summary().drops
        #expect(drops.map(\.count) == [30, 20])
        #expect(drops.map(\.state) == [.delivered, .pending])
    }

    @Test("retention by age keeps young undelivered records")
    func retentionByAge() throws {
        let store = try makeStore(retention: RetentionPolicy(maxAge: 3600, checkEvery: 15))
        let old = sampleRecords(10, start: Date(timeIntervalSinceNow: -7200))
        let young = sampleRecords(10, start: Date(timeIntervalSinceNow: -60))
        try store.append(old, at: Date())
        try store.markDelivered(Array(old[0..<5].map(\.id)))
        try store.append(young, at: Date())
        let summary = try store.summary()
        #expect(summary.records == 10)
        #expect(summary.drops.reduce(0) { $0 + $1.count } == 10)
        #expect(summary.drops.contains { $0.state == .pending && $0.count == 5 })
    }

    @Test("a full disk gives a clear error, keeps what was written and resumes when space returns")
    func fullDisk() throws {
        let store = try makeStore(maxPageCount: 40)
        let writer = StoreWriter(store: store)
        var written = 0
        var deferred: StoreError?
        for record in sampleRecords(5000) {
            switch writer.write([.record(record)], at: Date()) {
            case .written: written += 1
            case .deferred(let error, let kept, _):
                deferred = error
                #expect(kept, "the backlog has room for every write of this test")
            }
        }
        let error = try #require(deferred)
        #expect(error.kind == .diskFull)
        #expect(error.description.contains("full"))
        #expect(error.description.contains("intact"))
        let kept = try store.allRecords().count
        #expect(kept > 0)
        #expect(try store.integrityCheck() == "ok")
        #expect(writer.backlogCount == 5000 - kept)
        try store.setMaxPageCount(nil)
        guard case .written(let committed) = writer.retry(at: Date()) else {
            Issue.record("the backlog was not stored once space returned")
            return
        }
        #expect(committed.count == 5000 - kept, "the writer reports the backlog it stored")
        #expect(try store.allRecords().count == 5000)
        #expect(writer.overflowed == 0)
    }

    @Test("regions, their states, settings and commands persist")
    func stateRoundTrip() throws {
        let store = try makeStore()
        let home = try Region(id: "home", center: Coordinate(latitude: 52.5, longitude: 13.4), radius: 100, loiteringDelay: 60)
        let work = try Region(id: "work", center: Coordinate(latitude: 52.6, longitude: 13.5), radius: 200)
        try store.apply([.session(.saveRegions([home, work]))], at: Date())
        try store.apply(
            [
                .session(.saveRegions([home])),
                .regionStates([RegionStateRecord(regionID: "home", inside: true, since: Date(), dwelt: true)]),
                .session(.removeRegions(["work"])),
            ], at: Date())
        try store.set(.trackingEnabled, true)
        try store.set(.configuration, TrackerConfiguration(mode: .move(distance: 50, interval: 120), slotCount: 19))
        try store.set(.authTokens, AuthTokens(idToken: "a", expiresAt: nil, refreshToken: "r", userID: "u"))
        let command = DeviceCommand(id: "c1", command: .setRegions([WireRegion(id: "x", latitude: 1, longitude: 2, radius: 50)]))
        try store.enqueueCommands([command], at: Date())
        try store.enqueueCommands([command], at: Date())
        try store.apply(
            [
                .event(
                    EventRecord(
                        event: RegionEvent(
                            regionID: "home", kind: .enter, timestamp: Date(timeIntervalSince1970: 1_700_000_000), initial: false, fix: nil)
                    ))
            ], at: Date())
        let reopened = try SQLiteLocationStore(path: store.path)
        #expect(try reopened.regions() == [home])
        #expect(try reopened.regionStates().map(\.regionID) == ["home"])
        #expect(try reopened.regionStates().first?.inside == true && reopened.regionStates().first?.dwelt == true)
        #expect(try reopened.setting(.trackingEnabled) == true)
        #expect(try reopened.setting(.configuration) == TrackerConfiguration(mode: .move(distance: 50, interval: 120), slotCount: 19))
        #expect(try reopened.setting(.authTokens)?.refreshToken == "r")
        #expect(try reopened.unappliedCommands() == [command])
        #expect(try reopened.allEvents().map(\.record.event.regionID) == ["home"])
        try reopened.set(.trackingEnabled, nil)
        #expect(try reopened.setting(.trackingEnabled) == nil)
    }

    @Test("upload settings and the credential written by the session come back in the saved session; nil removes them")
    func uploadAccountPersists() throws {
        let store = try makeStore()
        let settings = UploadSettings(kind: .owntracks, url: URL(string: "https://example.org/pub"), device: "phone", user: "ann")
        let tokens = AuthTokens(idToken: "a", expiresAt: nil, refreshToken: "r", userID: "u")
        try store.apply([.session(.uploadSettings(settings)), .session(.authTokens(tokens))], at: Date())
        let reopened = try SQLiteLocationStore(path: store.path)
        #expect(try reopened.savedSession().uploads == UploadAccount(settings: settings, tokens: tokens))
        try reopened.apply([.session(.authTokens(nil))], at: Date())
        #expect(try reopened.savedSession().uploads == UploadAccount(settings: settings, tokens: nil))
    }

    @Test("the record whose stay ended comes back in the saved session")
    func stayEndedPersists() throws {
        let store = try makeStore()
        let id = UUID()
        try store.apply([.session(.stayEnded(id))], at: Date())
        #expect(try SQLiteLocationStore(path: store.path).savedSession().stayEnded == id)
    }

    @Test("a store in a folder that does not exist gives a clear error")
    func missingFolder() throws {
        #expect {
            try SQLiteLocationStore(path: "/nonexistent-folder/x/store.sqlite")
        } throws: { error in
            "\(error)".contains("/nonexistent-folder/x/store.sqlite") && "\(error)".contains("writable")
        }
    }
}
