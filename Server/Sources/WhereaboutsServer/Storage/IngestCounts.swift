/// How a batch was taken.
public struct IngestCounts: Sendable, Equatable {
    /// Newly stored.
    public var accepted = 0
    /// Already stored (same device and id).
    public var duplicate = 0

    /// Creates counts.
    public init(accepted: Int = 0, duplicate: Int = 0) {
        self.accepted = accepted
        self.duplicate = duplicate
    }
}
