import Foundation
import Testing
import WhereaboutsCore

@Suite("RFC 3339 timestamps")
struct TimestampTests {
    @Test(
        "formatting never traps: any Double is written as a timestamp that parses back",
        arguments: [
            1e16, -1e16, 9.3e15, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, .infinity, -.infinity, .nan, 0, -0.0005,
        ])
    func formatAnything(seconds: Double) {
        let text = Timestamp.format(Date(timeIntervalSince1970: seconds))
        #expect(Timestamp.parse(text) != nil, "\(seconds) → \(text)")
    }

    @Test("dates beyond four-digit years are written as the ends of the range; NaN as its start")
    func formatClamps() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1e16)) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -.infinity)) == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: .nan)) == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 253_402_300_799.999)) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -0.0005)) == "1969-12-31T23:59:59.999Z")
    }

    @Test(
        "impossible dates, times and offsets are refused, naming the field, the value and the part",
        arguments: [
            ("2026-02-30T00:00:00Z", "day 30"), ("2025-02-29T12:00:00Z", "day 29"), ("2026-04-31T00:00:00Z", "day 31"),
            ("2026-13-01T00:00:00Z", "month 13"), ("2026-00-10T00:00:00Z", "month 0"), ("2026-01-00T00:00:00Z", "day 0"),
            ("2026-01-01T23:59:60Z", "23:59:60"), ("2026-01-01T24:00:00Z", "24:00:00"), ("2026-01-01T10:60:00Z", "10:60:00"),
            ("2026-01-01T10:00:00+99:99", "+99:99"), ("2026-01-01T10:00:00+24:00", "+24:00"), ("2026-01-01T10:00:00-00:60", "-00:60"),
            ("2026-01-01T10:00:00.Z", "fractional"), ("2026-01-01T10:00:00+0100", "zone"), ("yesterday", "RFC 3339"),
        ])
    func impossible(text: String, part: String) {
        #expect(Timestamp.parse(text) == nil)
        #expect {
            try Timestamp.validated(text, field: "from")
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.field == "from" && error.value.contains(text.prefix(20)) && error.problem.contains(part) && !error.fix.isEmpty
        }
    }

    @Test("real edge moments are accepted")
    func edges() throws {
        let leapDay = try Timestamp.validated("2024-02-29T23:59:59.999Z", field: "t")
        #expect(abs(leapDay.timeIntervalSince1970 - 1_709_251_199.999) < 1e-6)
        #expect(try Timestamp.validated("2000-02-29T00:00:00Z", field: "t") == Date(timeIntervalSince1970: 951_782_400))
        #expect(try Timestamp.validated("2026-01-01T00:00:00+23:59", field: "t") == Date(timeIntervalSince1970: 1_767_225_600 - 86_340))
        #expect(try Timestamp.validated("2026-12-31T23:59:59-23:59", field: "t") == Date(timeIntervalSince1970: 1_798_761_599 + 86_340))
        #expect(Timestamp.parse("1900-02-29T00:00:00Z") == nil)
    }
}
