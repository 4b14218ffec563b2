/// How to open a store: what the caller may do with the file, what it keeps and how large it may grow.
public struct StoreOptions: Sendable, Equatable {
    /// What the caller may do with the file.
    public var mode: StoreOpenMode
    /// The retention limits enforced after appends.
    public var retention: RetentionPolicy
    /// SQLite's `max_page_count`, to cap the file's size (pages of 4096 bytes); `nil` for no cap.
    public var maxPageCount: Int?

    /// Creates options; by default an app's own store, nothing dropped, no size cap.
    public init(mode: StoreOpenMode = .dedicated, retention: RetentionPolicy = .init(), maxPageCount: Int? = nil) {
        self.mode = mode
        self.retention = retention
        self.maxPageCount = maxPageCount
    }
}
