import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsStore
import WhereaboutsStoreTestSupport
import WhereaboutsTestSupport

/// A closed store holding `records` location records and `events` region events, and the store to
/// look at its pages with (closed again before the file is damaged).
func writeClosedStore(records: Int, events: Int) throws -> String {
    let store = try makeStore()
    try store.append(sampleRecords(records), at: Date())
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    try store.apply(
        (0..<events).map { i in
            .event(
                EventRecord(
                    event: RegionEvent(
                        regionID: "r\(i % 7)", kind: i % 2 == 0 ? .enter : .exit, timestamp: start + Double(i), initial: false, fix: nil)))
        }, at: Date())
    try store.close()
    return store.path
}

/// Writes `bytes` zero bytes at `offset` of the file at `path`, as a failing disk or a stray write would.
func zero(_ path: String, at offset: UInt64, bytes: Int) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seek(toOffset: offset)
    handle.write(Data(count: bytes))
    try handle.close()
}

/// The pages of `object` in the closed store at `path`, read through a read-only open.
func pages(of object: String, in path: String) throws -> [StorePage] {
    let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly))
    defer { try? store.close() }
    return try store.pages(of: object)
}

@Suite("Salvage of a damaged store")
struct StoreSalvageTests {
    @Test("three header bytes of an index page zeroed: every row is salvaged into a new store, the damaged file is kept beside it")
    func damagedIndexPage() throws {
        let path = try writeClosedStore(records: 3000, events: 40)
        let index = try #require(try pages(of: "location_uuid", in: path).first { $0.kind == "leaf" })
        try zero(path, at: index.offset, bytes: 3)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readWrite))
        let salvage = try #require(store.openReport.salvage)
        #expect(salvage.saved == 3040)
        #expect(salvage.lost == 0)
        #expect(salvage.uncounted == 0)
        #expect(salvage.damagedFile.hasPrefix(path + ".damaged-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: salvage.damagedFile)) == original, "the damaged file is kept as it was")
        #expect(salvage.summary.contains("salvaged 3040 rows"))
        #expect(salvage.summary.contains(salvage.damagedFile))
        #expect(try store.pendingCount() == 3000)
        #expect(try store.allEvents().count == 40)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test("a location page destroyed: the rows on it are counted lost, every other row is salvaged")
    func damagedTablePage() throws {
        let path = try writeClosedStore(records: 3000, events: 10)
        let leaves = try pages(of: "location", in: path).filter { $0.kind == "leaf" }
        let victim = leaves[leaves.count / 2]
        try zero(path, at: victim.offset, bytes: 4096)

        let store = try SQLiteLocationStore(path: path)
        let salvage = try #require(store.openReport.salvage)
        #expect(salvage.lost == victim.cells)
        #expect(salvage.saved == 3010 - victim.cells)
        #expect(try store.pendingCount() == 3000 - victim.cells)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test("a damaged store opened read-only reports the damage and stays as it was")
    func damagedReadOnly() throws {
        let path = try writeClosedStore(records: 2000, events: 0)
        let index = try #require(try pages(of: "location_uuid", in: path).first)
        try zero(path, at: index.offset, bytes: 3)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly))
        #expect(store.openReport.damage != nil)
        #expect(store.openReport.salvage == nil)
        try store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["store.sqlite"])
    }

    @Test("an app's own store whose first page is destroyed is kept beside a new store")
    func destroyedHeader() throws {
        let path = try writeClosedStore(records: 100, events: 0)
        try zero(path, at: 0, bytes: 4096)
        let store = try SQLiteLocationStore(path: path)
        let salvage = try #require(store.openReport.salvage)
        #expect(FileManager.default.fileExists(atPath: salvage.damagedFile))
        try store.append(sampleRecords(3), at: Date())
        #expect(try store.integrityCheck() == "ok")
    }

    @Test("a salvage a crash left complete is finished at the next open while the damaged file is still at the path")
    func interruptedSalvageFinished() throws {
        let (path, stamp) = try interruptedSalvage()
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try SQLiteLocationStore(path: path)
        let salvage = try #require(store.openReport.salvage)
        #expect(salvage.saved == 3040)
        #expect(salvage.damagedFile == "\(path).damaged-\(stamp)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: salvage.damagedFile)) == damaged)
        #expect(try store.pendingCount() == 3000)
        #expect(try store.integrityCheck() == "ok")
        #expect(try Self.names(beside: path).filter { $0.contains(".salvage-") }.isEmpty)
    }

    @Test("a salvage whose damaged file has since been replaced leaves the new file alone and is set aside unused")
    func interruptedSalvageOfAReplacedFile() throws {
        let (path, stamp) = try interruptedSalvage()
        try FileManager.default.removeItem(atPath: path)
        let other = try writeClosedStore(records: 7, events: 0)
        try FileManager.default.moveItem(atPath: other, toPath: path)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64
        let earlier = Data("an earlier unused salvage".utf8)
        try earlier.write(to: URL(fileURLWithPath: "\(path).salvage-\(stamp).unused"))

        let store = try SQLiteLocationStore(path: path)
        #expect(store.openReport.salvage == nil)
        #expect(try store.pendingCount() == 7)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64 == before)
        try store.close()
        let names = try Self.names(beside: path)
        #expect(names.contains("store.sqlite.salvage-\(stamp)-1.unused"), "\(names)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path).salvage-\(stamp).unused")) == earlier)
        #expect(!names.contains { $0.contains(".damaged-") }, "\(names)")

        let reopened = try SQLiteLocationStore(path: path)
        #expect(reopened.openReport.salvage == nil)
        #expect(try reopened.pendingCount() == 7)
    }

    /// A store salvaged, then put back as a crash between the salvage's completion and its move into
    /// place leaves it: the damaged file at the path, the complete salvage beside it named for that file.
    private func interruptedSalvage() throws -> (path: String, stamp: String) {
        let path = try writeClosedStore(records: 3000, events: 40)
        let index = try #require(try pages(of: "location_uuid", in: path).first { $0.kind == "leaf" })
        try zero(path, at: index.offset, bytes: 3)
        let store = try SQLiteLocationStore(path: path)
        let damagedFile = try #require(store.openReport.salvage?.damagedFile)
        try store.close()
        let stamp = String(damagedFile.dropFirst("\(path).damaged-".count))
        let files = FileManager.default
        let attributes = try files.attributesOfItem(atPath: damagedFile)
        let device = try #require(attributes[.systemNumber] as? Int)
        let inode = try #require(attributes[.systemFileNumber] as? UInt64)
        let size = try #require(attributes[.size] as? UInt64)
        try files.moveItem(atPath: path, toPath: "\(path).salvage-\(stamp).of-\(device)-\(inode)-\(size)")
        try files.moveItem(atPath: damagedFile, toPath: path)
        #expect(try Self.names(beside: path).count == 2)
        return (path, stamp)
    }

    private static func names(beside path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
    }
}
