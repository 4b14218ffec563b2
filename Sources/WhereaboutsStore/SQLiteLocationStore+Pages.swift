import Foundation
import GRDB

extension SQLiteLocationStore {
    /// The pages holding one table or index of the store (`location`, `location_uuid`, …), in page
    /// order: for a person looking into a damaged file, and for fault-injection tests that damage a
    /// chosen page on purpose. Reads SQLite's `dbstat` table, which writes nothing.
    public func pages(of object: String) throws -> [StorePage] {
        try read { db in
            let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            return try Row.fetchAll(
                db, sql: "SELECT pageno, pagetype, ncell FROM dbstat WHERE name = ? ORDER BY pageno", arguments: [object]
            ).map { row in
                let number: Int = row["pageno"]
                return StorePage(number: number, kind: row["pagetype"], cells: row["ncell"], offset: UInt64(number - 1) * UInt64(size))
            }
        }
    }
}
