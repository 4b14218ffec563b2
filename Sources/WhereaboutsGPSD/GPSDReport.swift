import WhereaboutsCore

/// What one line of gpsd's JSON output turned out to be.
public enum GPSDReport: Sendable, Equatable {
    /// A TPV report with a 2D or 3D fix.
    case fix(Fix)
    /// A TPV report without a fix: mode 0 (unknown) or 1 (no fix).
    case noFix(mode: Int)
    /// A report of another class (SKY, VERSION, DEVICES, WATCH, …), which carries no position.
    case skipped(reportClass: String)
    /// A line that could not be used.
    case rejected(GPSDRejection)
}

/// The members of a gpsd report the decoder reads; every one is optional so that the decoder, not
/// the JSON layer, decides what a missing member means.
struct GPSDRawReport: Decodable {
    let `class`: String?
    let mode: Int?
    let time: String?
    let lat: Double?
    let lon: Double?
    let alt: Double?
    let altMSL: Double?
    let altHAE: Double?
    let geoidSep: Double?
    let eph: Double?
    let epx: Double?
    let epy: Double?
    let speed: Double?
    let track: Double?
}
