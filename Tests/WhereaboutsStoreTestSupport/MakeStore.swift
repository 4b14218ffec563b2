import Foundation
import WhereaboutsStore
import WhereaboutsTestSupport

/// A store in a fresh folder.
public func makeStore(retention: RetentionPolicy = .init(), maxPageCount: Int? = nil) throws -> SQLiteLocationStore {
    try SQLiteLocationStore(
        path: temporaryFolder().appendingPathComponent("store.sqlite").path,
        options: StoreOptions(retention: retention, maxPageCount: maxPageCount))
}
