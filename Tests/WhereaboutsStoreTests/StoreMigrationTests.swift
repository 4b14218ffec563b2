import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsStore
import WhereaboutsTestSupport

@Suite("Stores written by earlier versions")
struct StoreMigrationTests {
    typealias Fixture = StoreFixture

    /// A copy of the committed fixture in a fresh folder, opened.
    private func openFixture() throws -> SQLiteLocationStore {
        let source = try #require(Bundle.module.url(forResource: "store-v5", withExtension: "sqlite", subdirectory: "Fixtures"))
        let copy = temporaryFolder().appendingPathComponent("store.sqlite")
        try FileManager.default.copyItem(at: source, to: copy)
        return try SQLiteLocationStore(path: copy.path)
    }

    @Test("a v5 store reads back every fix source, trigger, delivery state, event kind, region state, command and setting")
    func readsVersion5() throws {
        let store = try openFixture()
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
