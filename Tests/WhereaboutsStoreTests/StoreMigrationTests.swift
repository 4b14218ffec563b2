import Foundation
import GRDB
import Testing
import WhereaboutsCore
import WhereaboutsStore
import WhereaboutsTestSupport

@Suite("Stores written by earlier versions")
struct StoreMigrationTests {
    typealias Fixture = StoreFixture

    /// A copy of the committed fixture in a fresh folder.
    private func fixtureCopy() throws -> String {
        let source = try #require(Bundle.module.url(forResource: "store-v5", withExtension: "sqlite", subdirectory: "Fixtures"))
        let copy = temporaryFolder().appendingPathComponent("store.sqlite")
        try FileManager.default.copyItem(at: source, to: copy)
        return copy.path
    }

    /// The stored codes of the store at `path`: of each record its source, trigger and delivery state,
    /// of each event its kind and delivery state.
    private func codes(_ path: String) throws -> (records: [[Int]], events: [String]) {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT source, trigger, state FROM location ORDER BY seq").map { [$0[0], $0[1], $0[2]] },
                try Row.fetchAll(db, sql: "SELECT kind, state FROM event ORDER BY seq").map { "\($0[0] as String) \($0[1] as Int)" }
            )
        }
    }

    @Test("a v5 store reads back every fix source, trigger, delivery state, event kind, region state, command and setting")
    func readsVersion5() throws {
        let store = try SQLiteLocationStore(path: try fixtureCopy())
        let records = try store.allRecords()
        #expect(records.map(\.record) == Fixture.records.map(\.record))
        #expect(records.map(\.state) == Fixture.records.map(\.state))
        let events = try store.allEvents()
        #expect(events.map(\.record) == Fixture.events.map(\.record))
        #expect(events.map(\.state) == Fixture.events.map(\.state))
        #expect(try store.regions() == Fixture.regions)
        #expect(try store.regionStates() == Fixture.regionStates)
        #expect(try store.unappliedCommands() == Fixture.commands.filter { !Fixture.appliedCommands.contains($0.id) })
        #expect(try store.commandAcknowledgements() == Fixture.appliedCommands)
        #expect(try store.setting(.configuration) == Fixture.configuration)
        #expect(try store.setting(.trackingEnabled) == true)
    }

    @Test("the current code writes the same codes for the same values")
    func writesVersion5Codes() throws {
        let path = temporaryFolder().appendingPathComponent("store.sqlite").path
        try StoreFixture.write(to: path)
        let written = try codes(path)
        let committed = try codes(try fixtureCopy())
        #expect(written.records == committed.records)
        #expect(written.events == committed.events)
        let frozen = (0..<5).flatMap { source in (0..<3).map { trigger in [source, trigger, (source + trigger) % 3] } }
        #expect(
            committed.records == frozen,
            "gps 0, wifi 1, cell 2, significantChange 3, unknown 4; policy 0, region 1, request 2; pending 0, delivered 1, rejected 2")
        #expect(committed.events == ["enter 0", "exit 1", "dwell 2", "enter 0", "exit 1", "dwell 2"])
    }
}

/// Writes the fixture of ``StoreFixture`` where `WHEREABOUTS_WRITE_STORE_FIXTURE` says; skipped otherwise.
@Suite("StoreFixtureWriter", .enabled(if: ProcessInfo.processInfo.environment["WHEREABOUTS_WRITE_STORE_FIXTURE"] != nil))
struct StoreFixtureWriter {
    @Test("write the store fixture")
    func write() throws {
        let path = try #require(ProcessInfo.processInfo.environment["WHEREABOUTS_WRITE_STORE_FIXTURE"])
        try StoreFixture.write(to: path)
    }
}
