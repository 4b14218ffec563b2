import Foundation
import WhereaboutsCore

/// Turns lines of gpsd's JSON protocol (`?WATCH={"json":true}`) into fixes, counting everything it
/// reads. Pure: no I/O, no clock.
///
/// A `TPV` report in mode 2 (2D fix) or 3 (3D fix) becomes a ``WhereaboutsCore/Fix`` with source
/// ``WhereaboutsCore/FixSource/gps``:
///
/// | Fix | from gpsd |
/// |---|---|
/// | coordinate | `lat`, `lon` (degrees) |
/// | timestamp | `time` (RFC 3339, UTC) |
/// | horizontal accuracy (m) | `eph` when present; else √(`epx`² + `epy`²), the length of the error box's half-diagonal; else `epx` or `epy` alone times √2; else ``fallbackAccuracy(mode:)`` |
/// | altitude (m above mean sea level) | `altMSL`, else `alt`, else `altHAE` − `geoidSep`; none when only `altHAE` is known |
/// | speed (m/s) | `speed` |
/// | course (degrees from true north) | `track`, 360 read as 0 |
///
/// gpsd's error estimates are passed on unscaled: they are its own (roughly 95 %) estimates, wider
/// than the 68 % radius a ``WhereaboutsCore/Fix`` nominally carries, which errs on the side of caution.
///
/// TPV reports in mode 0 or 1 produce no fix and are counted by mode. Reports of gpsd's other
/// classes are counted by class. Anything else — malformed or truncated JSON, an unknown class, a
/// fix without position or time, values outside physical bounds — is rejected with a
/// ``GPSDRejection`` that names the line, the problem and what is done, and counted by reason.
public struct GPSDDecoder: Sendable {
    /// What has been decoded so far.
    public internal(set) var statistics = GPSDStatistics()

    /// Creates a decoder with empty counters.
    public init() {}

    /// The report classes gpsd documents (gpsd_json(5)); all but `TPV` carry no fix and are skipped.
    public static let knownClasses: Set<String> = [
        "TPV", "SKY", "GST", "ATT", "IMU", "TOFF", "PPS", "OSC", "VERSION", "DEVICES", "DEVICE", "WATCH", "POLL",
        "ERROR", "AIS", "RAW", "RTCM2", "RTCM3", "SUBFRAME",
    ]
    /// The largest accepted `eph`, `epx` or `epy`, in metres (1000 km): beyond any receiver's estimate.
    public static let maximumAccuracy: Double = 1_000_000
    /// The fastest accepted speed in metres per second, above any aircraft a tracker rides (receivers
    /// stop reporting above 515 m/s by export rules).
    public static let maximumSpeed: Double = 1_000
    /// Accepted altitudes in metres above mean sea level: from below the Dead Sea shore to the
    /// height of stratospheric balloons.
    public static let altitudeRange: ClosedRange<Double> = -1_000...60_000
    /// Accepted fix times: 2000-01-01 up to, not including, 2100-01-01 (UTC). Earlier times come from
    /// receivers that lost their clock. A receiver with the GPS week-rollover fault dates its fixes
    /// 1024 weeks (19.6 years) back, which since 2019 lies inside this range: such fixes pass, with
    /// the receiver's wrong dates (its firmware, or gpsd's build-date rollover fix, must correct them).
    public static let timeRange: Range<Date> =
        Date(timeIntervalSince1970: 946_684_800)..<Date(timeIntervalSince1970: 4_102_444_800)

    /// The horizontal accuracy in metres given to a fix whose report has no error estimate: 100 m for
    /// a 2D fix (mode 2), 30 m for a 3D fix (mode 3). Both are coarser than a typical receiver so
    /// that an unknown error never counts as a fine fix.
    public static func fallbackAccuracy(mode: Int) -> Double { mode >= 3 ? 30 : 100 }

    /// Decodes one line and counts the outcome in ``statistics``.
    public mutating func decode(_ line: some StringProtocol) -> GPSDReport {
        let report = Self.report(from: line)
        statistics.lines += 1
        switch report {
        case .fix: statistics.fixes += 1
        case .noFix(let mode): statistics.noFixByMode[mode, default: 0] += 1
        case .skipped(let reportClass): statistics.skippedByClass[reportClass, default: 0] += 1
        case .rejected(let rejection): statistics.rejectedByReason[rejection.reason, default: 0] += 1
        }
        return report
    }

    /// Counts a line that was cut off because it exceeded ``GPSDLineSplitter/maximumLineLength`` bytes
    /// and returns the rejection describing it.
    public mutating func rejectOverlongLine(start: some StringProtocol, byteCount: Int) -> GPSDRejection {
        let rejection = GPSDRejection(
            reason: .lineTooLong, line: start,
            problem: "is \(byteCount) bytes long, more than the \(GPSDLineSplitter.maximumLineLength) bytes any gpsd report takes")
        statistics.lines += 1
        statistics.rejectedByReason[.lineTooLong, default: 0] += 1
        return rejection
    }

    /// Decodes one line without counting it.
    public static func report(from line: some StringProtocol) -> GPSDReport {
        let text = String(line).trimmingCharacters(in: .whitespacesAndNewlines)
        func reject(_ reason: GPSDRejectionReason, _ problem: String) -> GPSDReport {
            .rejected(GPSDRejection(reason: reason, line: text, problem: problem))
        }
        guard !text.isEmpty else { return reject(.malformedJSON, "is empty where a JSON report was expected") }
        let raw: GPSDRawReport
        do {
            raw = try JSONDecoder().decode(GPSDRawReport.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            return describe(error, in: text)
        } catch {
            return reject(.malformedJSON, "is not a complete JSON object (\(error))")
        }
        guard let reportClass = raw.class else { return reject(.missingClass, "has no `class` member") }
        guard reportClass == "TPV" else {
            if knownClasses.contains(reportClass) { return .skipped(reportClass: reportClass) }
            return reject(.unknownClass, "has class \"\(reportClass)\", which is not a gpsd report class")
        }
        guard let mode = raw.mode, (0...3).contains(mode) else {
            return reject(.invalidMode, "is a TPV report with mode \(raw.mode.map(String.init) ?? "missing"), not 0, 1, 2 or 3")
        }
        guard mode >= 2 else { return .noFix(mode: mode) }
        return fix(from: raw, mode: mode, line: text)
    }

    private static func fix(from raw: GPSDRawReport, mode: Int, line: String) -> GPSDReport {
        func reject(_ reason: GPSDRejectionReason, _ problem: String) -> GPSDReport {
            .rejected(GPSDRejection(reason: reason, line: line, problem: problem))
        }
        guard let lat = raw.lat, let lon = raw.lon else {
            return reject(.missingPosition, "is a TPV report with a mode \(mode) fix but no `lat` or `lon`")
        }
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: lat, longitude: lon)
        } catch {
            return reject(.invalidPosition, "has \(error.field) \(error.value), which \(error.problem)")
        }
        guard let timeText = raw.time else {
            return reject(.missingTime, "is a TPV report with a fix but no `time`, so the fix's age is unknown")
        }
        guard let timestamp = Timestamp.parse(timeText) else {
            return reject(.invalidTime, "has time \"\(timeText)\", which is not an RFC 3339 timestamp")
        }
        guard timeRange.contains(timestamp) else {
            return reject(.invalidTime, "has time \(timeText), outside 2000–2099 (a receiver without a valid clock)")
        }
        let accuracy: Double
        switch horizontalAccuracy(raw, mode: mode) {
        case .success(let value): accuracy = value
        case .failure(let error): return reject(.invalidAccuracy, error.text)
        }
        let altitude = raw.altMSL ?? raw.alt ?? raw.altHAE.flatMap { hae in raw.geoidSep.map { hae - $0 } }
        if let altitude, !altitudeRange.contains(altitude) {
            return reject(.invalidAltitude, "has altitude \(altitude) m, outside \(altitudeRange) m above mean sea level")
        }
        if let speed = raw.speed, !(speed >= 0 && speed <= maximumSpeed) {
            return reject(.invalidSpeed, "has speed \(speed) m/s, outside 0…\(maximumSpeed) m/s")
        }
        if let track = raw.track, !(track >= 0 && track <= 360) {
            return reject(.invalidCourse, "has track \(track)°, outside 0…360°")
        }
        do {
            return .fix(
                try Fix(
                    coordinate: coordinate, horizontalAccuracy: accuracy, altitude: altitude, speed: raw.speed,
                    course: raw.track.map { $0 == 360 ? 0 : $0 }, timestamp: timestamp, source: .gps))
        } catch {
            let reasons: [String: GPSDRejectionReason] = [
                "horizontalAccuracy": .invalidAccuracy, "altitude": .invalidAltitude, "speed": .invalidSpeed,
                "course": .invalidCourse,
            ]
            return reject(reasons[error.field] ?? .invalidPosition, "gives a fix the core refuses: \(error)")
        }
    }

    /// Why an error estimate was refused; the text completes "gpsd line `…`".
    private struct AccuracyError: Error {
        let text: String
    }

    /// The horizontal accuracy in metres, or why an estimate is out of bounds.
    private static func horizontalAccuracy(_ raw: GPSDRawReport, mode: Int) -> Result<Double, AccuracyError> {
        for (name, value) in [("eph", raw.eph), ("epx", raw.epx), ("epy", raw.epy)] {
            if let value, !(value >= 0 && value <= maximumAccuracy) {
                return .failure(AccuracyError(text: "has \(name) \(value) m, outside 0…\(maximumAccuracy) m"))
            }
        }
        if let eph = raw.eph { return .success(eph) }
        switch (raw.epx, raw.epy) {
        case (let x?, let y?): return .success((x * x + y * y).squareRoot())
        case (let x?, nil): return .success(x * 2.squareRoot())
        case (nil, let y?): return .success(y * 2.squareRoot())
        case (nil, nil): return .success(fallbackAccuracy(mode: mode))
        }
    }

    private static func describe(_ error: DecodingError, in line: String) -> GPSDReport {
        func reject(_ reason: GPSDRejectionReason, _ problem: String) -> GPSDReport {
            .rejected(GPSDRejection(reason: reason, line: line, problem: problem))
        }
        switch error {
        case .typeMismatch(let type, let context) where !context.codingPath.isEmpty:
            return reject(.wrongType, "has member `\(path(context))` that is not a \(type == String.self ? "string" : "number")")
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return reject(.wrongType, "has member `\(path(context))` whose value cannot be read")
        case .typeMismatch:
            return reject(.malformedJSON, "is JSON but not an object")
        default:
            return reject(
                .malformedJSON,
                "is not a complete, valid JSON object (truncated, garbled, or holding a number JSON cannot carry, such as NaN or 1e400)")
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}
