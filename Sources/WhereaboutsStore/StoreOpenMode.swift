/// What the opener of a store may do with the file at its path.
///
/// A file is a Whereabouts store when it is a SQLite database carrying the store's
/// `PRAGMA application_id` ("WHRB"), or, written before that mark existed, one whose GRDB migrations
/// are the store's and which has the store's tables. No mode ever changes, moves or writes into a
/// file that is not a store (anything else, another application's database included).
public enum StoreOpenMode: Sendable, Equatable {
    /// Reads only: opens the file read-only, writes nothing beside it (no `-wal` or `-shm` file when
    /// the store was closed cleanly), migrates nothing. A missing, empty or foreign file is refused;
    /// so is a store from a newer version, or one older than the reading code reads. A damaged store
    /// opens with ``StoreOpenReport/damage`` set, for what can still be read.
    case readOnly
    /// Reads only, changing no byte of the store, its `-wal` or its `-shm` file, even when a killed
    /// writer left a log the first reader would recover: a store with a log or a `-shm` file is read
    /// from a private copy of the file and its log, taken as the store opens, so later commits are
    /// not seen. Refuses what ``readOnly`` refuses. For a command run on a store another process may
    /// have open; not for a store this process has open (copying its file closes descriptors, which
    /// drops this process's locks on it).
    case snapshot
    /// Reads and writes a file a person named: creates a missing file, upgrades an older store, and
    /// salvages a damaged one into a new store, keeping the damaged file beside it. An empty file,
    /// a file that is not a database and another application's database are refused.
    case readWrite
    /// Reads and writes a store that must already be there, for a command that sends or changes
    /// what a store holds (`store flush`, `store requeue`): like ``readWrite``, but a missing file is
    /// refused rather than created, since a mistyped path would otherwise get a new, empty store.
    case existing
    /// An app's own store at a path nothing else uses (the default): like ``readWrite``, but a file
    /// left empty by a crash is started afresh, and a file whose first page is destroyed (no longer a
    /// database, or a schema that cannot be read) is kept beside it and a new store started. Another
    /// application's database is still refused.
    case dedicated
}
