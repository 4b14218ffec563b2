import Foundation

/// Why a fix was recorded.
public enum RecordTrigger: String, Sendable, Codable {
    /// The mode's policy decided to record it.
    case policy
    /// A region event happened.
    case region
    /// The app asked for a fix.
    case request
}
