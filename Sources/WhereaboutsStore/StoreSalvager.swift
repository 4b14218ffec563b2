import Foundation
import GRDB
import WhereaboutsCore

/// Replaces a damaged store by a new one holding every row that can still be read, and keeps the
/// damaged file beside it.
///
/// The new store is written to `<path>.salvage-<time>.partial` and renamed
/// `<path>.salvage-<time>.of-<identity>` once complete, where the identity names the damaged file
/// (device, inode and size); then the damaged file (with its `-wal` and `-shm`) becomes
/// `<path>.damaged-<time>` and the new store takes its place. A crash at any point loses nothing: a
/// complete salvage lying next to a store is finished the next time the store opens for writing,
/// but only while the file at the path is still the one it was made from (or there is none); a
/// salvage of a file that has since been replaced is set aside as `<path>.salvage-<time>.unused`
/// and the file at the path is left alone. Partial files are removed. The damaged file is only ever
/// read (read-only) and renamed.
struct StoreSalvager {
    /// The store's path.
    let path: String

    private var folder: String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    private var name: String { (path as NSString).lastPathComponent }

    /// Copies what can be read of the damaged store at ``path`` into a new store that takes its place.
    /// - Parameters:
    ///   - problem: what is wrong with the file, for the record.
    ///   - migrations: the damaged store's migrations when they could be read; the rows are copied
    ///     into a store of the same schema, then upgraded.
    /// - Throws: when the new store cannot be written (a full disk); the damaged file is then untouched.
    func salvage(problem: String, migrations: [String]?, now: Date) throws -> StoreSalvage {
        let stamp = Timestamp.format(now).replacingOccurrences(of: ":", with: "")
        let identity = FileIdentity(path: path)
        let partial = "\(path).salvage-\(stamp).partial"
        let destination = try StoreOpener.pool(at: partial, maxPageCount: nil)
        if let last = migrations?.last, StoreSchema.migrator.migrations.contains(last) {
            try StoreSchema.migrator.migrate(destination, upTo: last)
        }
        var total = DamagedTableReader.Outcome()
        do {
            let source = try StoreFileProbe.openReadOnly(path)
            defer { try? source.close() }
            try source.read { source in
                do { try destination.write { total = try copy(from: source, to: $0) } } catch { throw DestinationFailure(error: error) }
            }
        } catch let failure as DestinationFailure {
            throw failure.error
        } catch {
            total.uncounted += 1
        }
        try StoreSchema.migrator.migrate(destination)
        try destination.write { db in
            try db.execute(
                sql: "INSERT INTO salvage_log (at, damaged_file, problem, saved, lost, uncounted) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [now.timeIntervalSince1970, "\(path).damaged-\(stamp)", problem, total.read, total.lost, total.uncounted])
        }
        try destination.close()
        let complete = "\(path).salvage-\(stamp)" + (identity.map { ".of-\($0.name)" } ?? "")
        try FileManager.default.moveItem(atPath: partial, toPath: complete)
        return try finish(complete, stamp: stamp)
    }

    /// Finishes a salvage a crash interrupted after its new store was complete, if there is one.
    ///
    /// A salvage names the file it was made from; when another file now lies at the path, that file
    /// is not ours to move: the salvage is renamed `<path>.salvage-<time>.unused` (`-1.unused`, … when
    /// that name is taken; kept for whoever wants its rows) and `nil` is returned, so the store opens the file at the path as it is.
    /// A salvage written before salvages named their file is finished as it was then.
    func finishInterrupted() throws -> StoreSalvage? {
        let prefix = "\(name).salvage-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard
            let complete = names.sorted().last(where: {
                $0.hasPrefix(prefix) && !$0.contains(".partial") && !$0.hasSuffix(".unused") && !$0.hasSuffix("-wal")
                    && !$0.hasSuffix("-shm")
            })
        else { return nil }
        let suffix = complete.dropFirst(prefix.count)
        let marker = suffix.range(of: ".of-")
        let stamp = String(suffix[..<(marker?.lowerBound ?? suffix.endIndex)])
        if let marker, FileManager.default.fileExists(atPath: path), FileIdentity(path: path)?.name != String(suffix[marker.upperBound...])
        {
            let unused = (0...).lazy.map { "\(path).salvage-\(stamp)\($0 == 0 ? "" : "-\($0)").unused" }
                .first { !FileManager.default.fileExists(atPath: $0) }!
            try FileManager.default.moveItem(atPath: "\(folder)/\(complete)", toPath: unused)
            return nil
        }
        return try finish("\(folder)/\(complete)", stamp: stamp)
    }

    /// Removes what a crash left of a store being created or salvaged before it was complete.
    func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for leftover in names
        where leftover.hasPrefix("\(name).creating-") || (leftover.hasPrefix("\(name).salvage-") && leftover.contains(".partial")) {
            try? FileManager.default.removeItem(atPath: "\(folder)/\(leftover)")
        }
    }

    /// Moves the damaged files aside and the complete new store into their place.
    private func finish(_ complete: String, stamp: String) throws -> StoreSalvage {
        let record = try Self.lastSalvage(in: complete)
        let files = FileManager.default
        for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
            try files.moveItem(atPath: path + suffix, toPath: "\(path).damaged-\(stamp)\(suffix)")
        }
        try files.moveItem(atPath: complete, toPath: path)
        return record
    }

    /// The newest entry of a store's salvage log.
    private static func lastSalvage(in path: String) throws -> StoreSalvage {
        let database = try StoreFileProbe.openReadOnly(path)
        defer { try? database.close() }
        guard let salvage = try database.read({ try salvages($0, limit: 1).first }) else {
            throw StoreError(kind: .corrupt, path: path, problem: "holds no salvage record", fix: "remove it; it is not a finished salvage")
        }
        return salvage
    }

    /// The newest `limit` entries of the salvage log, newest first (none before the log existed).
    static func salvages(_ db: Database, limit: Int) throws -> [StoreSalvage] {
        guard try db.tableExists("salvage_log") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM salvage_log ORDER BY seq DESC LIMIT ?", arguments: [limit]).map { row in
            StoreSalvage(
                damagedFile: row["damaged_file"], problem: row["problem"], saved: row["saved"], lost: row["lost"],
                uncounted: row["uncounted"], at: Date(timeIntervalSince1970: row["at"]))
        }
    }

    /// Copies every data table's readable rows, in the columns both stores have.
    private func copy(from source: Database, to destination: Database) throws -> DamagedTableReader.Outcome {
        var total = DamagedTableReader.Outcome()
        for table in DamagedTableReader.tables {
            guard let sourceColumns = try? Self.columns(of: table.name, in: source) else {
                total.uncounted += 1
                continue
            }
            let destinationColumns = Set(try Self.columns(of: table.name, in: destination))
            let shared = sourceColumns.filter(destinationColumns.contains)
            guard !shared.isEmpty else { continue }
            let insert = try destination.makeStatement(
                sql:
                    "INSERT OR IGNORE INTO \"\(table.name)\" (\(shared.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: shared.count).joined(separator: ", ")))"
            )
            var refused = 0
            let outcome = try DamagedTableReader(db: source, table: table, columns: shared).read { values in
                try insert.execute(arguments: StatementArguments(values))
                if destination.changesCount == 0 { refused += 1 }
            }
            total.read += outcome.read - refused
            total.lost += outcome.lost + refused
            total.uncounted += outcome.uncounted
        }
        return total
    }

    private static func columns(of table: String, in db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\"\(table)\")").map { $0["name"] }
    }

    /// An error of the new store, told apart from the damaged file's, which are survived.
    private struct DestinationFailure: Error {
        let error: any Error
    }
}
