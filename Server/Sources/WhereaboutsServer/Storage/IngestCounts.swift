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

    /// The counts of two writes together.
    public static func + (lhs: IngestCounts, rhs: IngestCounts) -> IngestCounts {
        IngestCounts(accepted: lhs.accepted + rhs.accepted, duplicate: lhs.duplicate + rhs.duplicate)
    }
}
