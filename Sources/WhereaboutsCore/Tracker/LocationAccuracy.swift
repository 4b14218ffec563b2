import Foundation

/// How accurate a location request should be; picks the source on iOS (and in the simulator).
public enum LocationAccuracy: String, Sendable, Codable, CaseIterable, Comparable {
    /// Best available (GPS).
    case best
    /// Within about ten metres (GPS).
    case tenMeters
    /// Within about a hundred metres (Wi-Fi).
    case hundredMeters
    /// Within about a kilometre (cell).
    case kilometer
    /// Within about three kilometres (cell).
    case threeKilometers

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    /// Finer accuracies sort first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
