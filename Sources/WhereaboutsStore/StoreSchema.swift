import GRDB

/// The store's versioned migrations. Add a new `registerMigration` for every change; never edit one
/// that has shipped.
enum StoreSchema {
    /// `PRAGMA application_id` of every store since `v5` ("WHRB"): SQLite's own mark of a file's
    /// format, kept in the file header, so a store is told from another application's database
    /// before anything else is read.
    static let applicationID: Int32 = 0x5748_5242

    /// The oldest schema the read-only store reads as it is: every migration up to this one. Later
    /// migrations only add what reading does without (the application id, the salvage log).
    static let readableFrom = "v4-command-ids"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE location (
                        seq INTEGER PRIMARY KEY,
                        uuid BLOB NOT NULL,
                        t REAL NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        acc REAL NOT NULL,
                        alt REAL,
                        speed REAL,
                        course REAL,
                        source INTEGER NOT NULL,
                        trigger INTEGER NOT NULL,
                        dwell REAL NOT NULL DEFAULT 0,
                        state INTEGER NOT NULL DEFAULT 0,
                        lease REAL,
                        redo INTEGER NOT NULL DEFAULT 0,
                        reject_status INTEGER,
                        reject_reason TEXT,
                        rejected_at REAL
                    );
                    CREATE UNIQUE INDEX location_uuid ON location(uuid);
                    CREATE INDEX location_pending ON location(t, seq) WHERE state = 0;
                    CREATE TABLE event (
                        seq INTEGER PRIMARY KEY,
                        region_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        t REAL NOT NULL,
                        initial INTEGER NOT NULL,
                        fix BLOB
                    );
                    CREATE TABLE region (
                        id TEXT PRIMARY KEY,
                        definition BLOB NOT NULL,
                        inside INTEGER,
                        state_at REAL
                    ) WITHOUT ROWID;
                    CREATE TABLE setting (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE command (seq INTEGER PRIMARY KEY, received_at REAL NOT NULL, body BLOB NOT NULL);
                    CREATE TABLE drop_log (
                        seq INTEGER PRIMARY KEY,
                        at REAL NOT NULL,
                        reason TEXT NOT NULL,
                        state INTEGER NOT NULL,
                        count INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2-event-delivery") { db in
            try db.execute(
                sql: """
                    ALTER TABLE event ADD COLUMN uuid BLOB;
                    ALTER TABLE event ADD COLUMN state INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE event ADD COLUMN lease REAL;
                    ALTER TABLE event ADD COLUMN reject_status INTEGER;
                    ALTER TABLE event ADD COLUMN reject_reason TEXT;
                    UPDATE event SET uuid = randomblob(16) WHERE uuid IS NULL;
                    CREATE UNIQUE INDEX event_uuid ON event(uuid);
                    CREATE INDEX event_pending ON event(seq) WHERE state = 0;
                    """)
        }
        migrator.registerMigration("v3-region-dwelt") { db in
            try db.execute(sql: "ALTER TABLE region ADD COLUMN dwelt INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v4-command-ids") { db in
            try db.execute(
                sql: """
                    ALTER TABLE command ADD COLUMN id TEXT;
                    ALTER TABLE command ADD COLUMN applied_at REAL;
                    UPDATE command SET id = lower(hex(randomblob(16))) WHERE id IS NULL;
                    CREATE UNIQUE INDEX command_id ON command(id);
                    """)
        }
        migrator.registerMigration("v5-application-id-salvage-log") { db in
            try db.execute(
                sql: """
                    PRAGMA application_id = \(applicationID);
                    CREATE TABLE salvage_log (
                        seq INTEGER PRIMARY KEY,
                        at REAL NOT NULL,
                        damaged_file TEXT NOT NULL,
                        problem TEXT NOT NULL,
                        saved INTEGER NOT NULL,
                        lost INTEGER NOT NULL,
                        uncounted INTEGER NOT NULL
                    );
                    """)
        }
        return migrator
    }
}
