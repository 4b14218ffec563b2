import Foundation

/// A private copy of a store and its write-ahead log, for reading a store without changing a byte of
/// it, its log or its shared memory (`-shm`).
///
/// The first connection to a store in WAL mode rebuilds the `-shm` file from the log, and any
/// reader writes its marks into it; a copy of the database file and the log, opened in a folder of
/// its own, shows every commit the log holds and touches neither. A copy is consistent when the
/// log's header is the same before the database file is copied and after the log is: a checkpoint
/// copies into the database file only pages the log still holds, and only a restart of the log,
/// which changes its header, could drop them.
struct StoreSnapshot {
    /// The copy of the database file, beside its copied log.
    let path: String
    /// The folder holding the copy.
    let folder: URL

    /// How many times a store whose log restarts during the copy is copied again.
    private static let attempts = 5

    /// Copies the store at `store` and its log; the caller removes ``folder`` once done.
    /// - Throws: ``StoreError`` when the copy cannot be written, or the log restarted during every
    ///   attempt.
    static func take(of store: String) throws -> StoreSnapshot {
        let files = FileManager.default
        let folder = files.temporaryDirectory.appendingPathComponent("whereabouts-snapshot-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("store.sqlite").path
        var failure: (any Error)?
        for _ in 0..<attempts {
            let header = logHeader(store)
            do {
                try? files.removeItem(at: folder)
                try files.createDirectory(at: folder, withIntermediateDirectories: true)
                try files.copyItem(atPath: store, toPath: path)
                if files.fileExists(atPath: store + "-wal") { try files.copyItem(atPath: store + "-wal", toPath: path + "-wal") }
            } catch {
                failure = error
                continue
            }
            if logHeader(store) == header, logHeader(path) == header { return StoreSnapshot(path: path, folder: folder) }
        }
        try? files.removeItem(at: folder)
        if let failure {
            throw StoreError(
                kind: .io, path: store,
                problem: "could not be copied to \(folder.path) to be read without changing it (\(failure.localizedDescription))",
                fix: "check the temporary folder (TMPDIR) is writable and has room for a copy of the store, then run again")
        }
        throw StoreError(
            kind: .io, path: store,
            problem: "is being written so fast that its write-ahead log restarted during each of \(attempts) copies",
            fix: "run the command again once the app writing it is idle")
    }

    /// The first 32 bytes of the log beside `store` (its checkpoint sequence and salts among them),
    /// `nil` when there is no log or it holds less.
    private static func logHeader(_ store: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: store + "-wal") else { return nil }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 32)) ?? Data()
        return header.count == 32 ? header : nil
    }
}
