/// Counters of what came from gpsd and what became of it, for the engine to show.
///
/// The decoding counters (``lines`` through ``rejectedByReason``) are kept by ``GPSDDecoder``; the
/// delivery and connection counters by ``GPSDLocationService``.
public struct GPSDStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Non-empty lines read.
    public internal(set) var lines = 0
    /// TPV reports with a 2D or 3D fix that became a ``WhereaboutsCore/Fix``.
    public internal(set) var fixes = 0
    /// TPV reports without a fix, by gpsd mode (0 unknown, 1 no fix).
    public internal(set) var noFixByMode: [Int: Int] = [:]
    /// Reports of other classes (SKY, VERSION, DEVICES, WATCH, …), which carry no position, by class.
    public internal(set) var skippedByClass: [String: Int] = [:]
    /// Lines that could not be used, by reason.
    public internal(set) var rejectedByReason: [GPSDRejectionReason: Int] = [:]
    /// Fixes sent to the engine as ``Whereabouts/LocationServiceEvent/fix(_:)``.
    public internal(set) var delivered = 0
    /// Fixes held back because they lay closer than the distance filter to the last delivered fix,
    /// or because nothing asked for positions (regions only).
    public internal(set) var withheld = 0
    /// Connections to gpsd that were established.
    public internal(set) var connections = 0
    /// Connection attempts that failed and connections that were lost.
    public internal(set) var connectionFailures = 0
    /// Fixes whose time was ahead of the engine's clock and set it (only when the service follows
    /// a ``GPSTime``).
    public internal(set) var clockSettings = 0

    /// Creates empty counters.
    public init() {}

    /// All rejected lines.
    public var rejected: Int { rejectedByReason.values.reduce(0, +) }

    /// One line summarising the counters.
    public var description: String {
        func list<K>(_ counts: [K: Int], _ name: (K) -> String) -> String {
            counts.map { (name($0.key), $0.value) }.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }
                .joined(separator: ", ")
        }
        return "\(lines) lines, \(fixes) fixes (\(delivered) delivered, \(withheld) withheld), "
            + "no fix [\(list(noFixByMode) { "mode \($0)" })], skipped [\(list(skippedByClass) { $0 })], "
            + "rejected \(rejected) [\(list(rejectedByReason) { $0.rawValue })], "
            + "\(connections) connections, \(connectionFailures) connection failures"
            + (clockSettings > 0 ? ", clock set from a fix \(clockSettings) times" : "")
    }
}
