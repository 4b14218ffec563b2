import Foundation

/// RFC 3339 / ISO 8601 timestamps, parsed and written without a formatter (pure and fast).
public enum Timestamp {
    /// Parses `2024-05-06T07:30:00Z`, with optional fractional seconds and a `Z` or `±HH:MM` offset
    /// (no offset means UTC). Returns `nil` when the text is not such a timestamp or names a moment
    /// that does not exist (see ``validated(_:field:)``).
    public static func parse(_ text: some StringProtocol) -> Date? { try? validated(text, field: "timestamp") }

    /// Parses a timestamp as ``parse(_:)`` does, and says what is wrong when it cannot.
    ///
    /// Impossible dates and times are refused rather than shifted: months 01–12, days that exist in
    /// that month (29 February only in leap years), hours 00–23, minutes and seconds 00–59 (leap
    /// seconds are refused) and offsets from −23:59 to +23:59.
    /// - Parameter field: the input's name, for the error (`timestamp`, `from`, …).
    /// - Throws: ``ValidationError`` naming `field`, the text and the part that is wrong.
    public static func validated(_ text: some StringProtocol, field: String) throws(ValidationError) -> Date {
        let b = Array(text.utf8)
        func refuse(_ problem: String) -> ValidationError {
            ValidationError(
                field: field, value: "\"\(text.prefix(60))\"", problem: problem,
                fix: "send a real moment in RFC 3339, e.g. 2024-05-06T07:30:00.000Z (UTC) or 2024-05-06T09:30:00+02:00")
        }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<from + count {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116 || b[10] == 32, b[13] == 58,
            b[16] == 58, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { throw refuse("is not an RFC 3339 timestamp (YYYY-MM-DDTHH:MM:SS)") }
        guard (1...12).contains(month) else { throw refuse("has month \(month); months are 01 to 12") }
        let monthLength = daysIn(month: month, year: year)
        guard (1...monthLength).contains(day) else {
            throw refuse("has day \(day), but month \(month) of \(year) has \(monthLength) days")
        }
        guard hour < 24, minute < 60, second < 60 else {
            throw refuse(
                "has the time \(String(decoding: b[11..<19], as: UTF8.self)); hours are 00 to 23, minutes and seconds 00 to 59 (no leap seconds)"
            )
        }
        var i = 19
        var fraction = 0.0
        if i < b.count && b[i] == 46 {
            i += 1
            var scale = 0.1
            let digitsStart = i
            while i < b.count && b[i] >= 48 && b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > digitsStart else { throw refuse("has a '.' without fractional digits") }
        }
        var offset = 0
        if i < b.count {
            if b[i] == 90 || b[i] == 122 {
                i += 1
            } else if b[i] == 43 || b[i] == 45, let h = number(i + 1, 2), i + 3 < b.count, b[i + 3] == 58,
                let m = number(i + 4, 2)
            {
                guard h < 24, m < 60 else {
                    throw refuse("has the offset \(String(decoding: b[i..<i + 6], as: UTF8.self)); offsets are -23:59 to +23:59")
                }
                offset = (h * 3600 + m * 60) * (b[i] == 45 ? -1 : 1)
                i += 6
            } else {
                throw refuse("has no valid zone after the time; end with Z or ±HH:MM")
            }
        }
        guard i == b.count else { throw refuse("has text after the zone") }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Formats a date as RFC 3339 UTC with milliseconds, e.g. `2024-05-06T07:30:00.000Z`.
    ///
    /// Never traps: RFC 3339 has four-digit years, so a date before 0000-01-01 or after
    /// 9999-12-31T23:59:59.999Z (infinities included) is written as the nearest end of that range, and
    /// a NaN date as its start. Validate times before formatting them when such a date is an error.
    public static func format(_ date: Date) -> String {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let millis = scaled.isNaN ? earliestMillis : Int64(min(max(scaled, Double(earliestMillis)), Double(latestMillis)))
        let days = Int(floorDiv(millis, 86_400_000))
        let rest = Int(millis - Int64(days) * 86_400_000)
        let (y, m, d) = civilFromDays(days)
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rest / 3_600_000, 2)):\(pad(rest / 60_000 % 60, 2)):"
            + "\(pad(rest / 1000 % 60, 2)).\(pad(rest % 1000, 3))Z"
    }

    /// 0000-01-01T00:00:00.000Z in milliseconds since 1970.
    private static let earliestMillis: Int64 = -62_167_219_200_000
    /// 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    private static let latestMillis: Int64 = 253_402_300_799_999

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }

    /// The days in a month of the proleptic Gregorian calendar.
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
