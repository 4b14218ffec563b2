import Foundation

/// The values a server accepts from a device, shared by the device's uploader and the companion server
/// so both judge an upload the same way. Each check throws a ``ValidationError`` that names the field,
/// the value and the allowed range.
public enum WireLimits {
    /// The earliest time accepted: 2000-01-01T00:00:00Z. A device clock before that was never set.
    public static let earliest = Date(timeIntervalSince1970: 946_684_800)
    /// How far ahead of the receiver's clock a time may be, in seconds (one day).
    public static let futureTolerance: TimeInterval = 86_400
    /// Horizontal accuracy in metres: 0 to 100 km. A cell-tower position is off by a few km; one off by
    /// more than 100 km locates nothing.
    public static let accuracy: ClosedRange<Double> = 0...100_000
    /// Altitude in metres: −1 km (below the Dead Sea shore and any road) to 100 km (the edge of space).
    public static let altitude: ClosedRange<Double> = -1_000...100_000
    /// Ground speed in metres per second: 0 to 1000, three times an airliner's.
    public static let speed: ClosedRange<Double> = 0...1_000
    /// Seconds a device stayed at a position: 0 to 366 days.
    public static let dwell: ClosedRange<Double> = 0...31_622_400
    /// A region's radius in metres: 1 m to 1000 km.
    public static let radius: ClosedRange<Double> = 1...1_000_000
    /// The longest region id, in Unicode scalars (at most 800 bytes of UTF-8).
    public static let regionIDLength = 200

    /// Parses an RFC 3339 time and checks it lies between ``earliest`` and ``futureTolerance`` after `now`.
    /// - Throws: ``ValidationError`` naming `field` and the text.
    public static func time(_ text: String, field: String, now: Date) throws(ValidationError) -> Date {
        let date = try Timestamp.validated(text, field: field)
        try plausible(date, field: field, value: "\"\(text.prefix(60))\"", now: now)
        return date
    }

    /// Checks epoch seconds (OwnTracks `tst`) the same way, before anything converts or formats them.
    /// - Throws: ``ValidationError`` naming `field` and the number.
    public static func time(epochSeconds: Double, field: String, now: Date) throws(ValidationError) -> Date {
        let date = Date(timeIntervalSince1970: epochSeconds)
        try plausible(date, field: field, value: "\(epochSeconds)", now: now)
        return date
    }

    /// Checks that `value` is a finite number within `range`.
    /// - Parameters:
    ///   - unit: the unit the range is in, for the message (`m`, `m/s`, `s`).
    ///   - fix: what the sender should do instead.
    /// - Throws: ``ValidationError`` naming `field`, the value and the range.
    public static func check(_ value: Double, field: String, in range: ClosedRange<Double>, unit: String, fix: String)
        throws(ValidationError)
    {
        guard range.contains(value) else {
            throw ValidationError(
                field: field, value: "\(value)", problem: "is not within \(text(range.lowerBound)) to \(text(range.upperBound)) \(unit)",
                fix: fix)
        }
    }

    /// Checks a region id: 1 to ``regionIDLength`` Unicode scalars, none of them a control character.
    /// - Throws: ``ValidationError`` naming `field` and the start of the id.
    public static func checkRegionID(_ id: String, field: String) throws(ValidationError) {
        guard !id.isEmpty, id.unicodeScalars.count <= regionIDLength,
            !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ValidationError(
                field: field, value: String(reflecting: String(id.prefix(60))),
                problem: "is empty, longer than \(regionIDLength) characters or holds control characters",
                fix: "send the region's id, 1 to \(regionIDLength) printable characters")
        }
    }

    private static func plausible(_ date: Date, field: String, value: String, now: Date) throws(ValidationError) {
        let latest = now.addingTimeInterval(futureTolerance)
        guard date >= earliest, date <= latest else {
            throw ValidationError(
                field: field, value: value,
                problem: "is not between \(Timestamp.format(earliest)) and \(Timestamp.format(latest)) (a day after the receiver's clock)",
                fix: "check the device clock; send the time the position was measured")
        }
    }

    private static func text(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int(bound)) : "\(bound)"
    }
}
