import Foundation
import WhereaboutsCore

/// The parameters of a Recorder API request: `user`, `device`, `from`, `to`, `limit`, `format` and
/// `fields`, read as the Recorder reads them.
struct RecorderParameters {
    /// The output formats served: JSON, GeoJSON points (all, or those naming a `poi`), and a GeoJSON
    /// LineString. The Recorder's `csv`, `gpx` and `xml` are not.
    enum Format: String, CaseIterable {
        case json, geojson, geojsonpoi, linestring
    }

    var user: String?
    var device: String?
    var from: String?
    var to: String?
    /// The newest this many locations (newest first); `nil` for all in the range, oldest first.
    var limit: Int?
    var format = Format.json
    /// The members each object keeps; `nil` keeps all.
    var fields: [String]?

    /// The parameters the Recorder also reads from an `X-Limit-` header (`X-Limit-User` for `user`, and
    /// so on: its `field()`), which then wins over the query and the form, so a proxy that sets one
    /// pins it whatever the client asks for. The Recorder has no header for `limit` or `format`.
    static let headerFirst: Set<String> = ["user", "device", "from", "to", "fields"]

    /// Reads the parameters: `header(name)` is the request's header of that name, `parameter(name)`
    /// the query's parameter, else the POSTed form's. For ``headerFirst`` the header is read first, as
    /// the Recorder reads it; `limit` and `format` come from the query or form, else `X-Limit-Limit`
    /// and `X-Limit-Format`.
    /// - Throws: 400 for a `limit` that is not a whole number or an unknown `format`.
    init(header: (_ name: String) -> String?, parameter: (_ name: String) -> String?) throws {
        var given: [String: String] = [:]
        for name in ["user", "device", "from", "to", "limit", "format", "fields"] {
            let headerName = "X-Limit-" + name.prefix(1).uppercased() + name.dropFirst()
            let text = Self.headerFirst.contains(name) ? header(headerName) ?? parameter(name) : parameter(name) ?? header(headerName)
            if let text, !text.isEmpty { given[name] = text }
        }
        (user, device, from, to) = (given["user"], given["device"], given["from"], given["to"])
        if let text = given["limit"] {
            guard let number = Int(text), number >= 0 else {
                throw APIError.badRequest(
                    "bad_limit", "limit=\(text.prefix(40)) is not a whole number of locations; send e.g. limit=10, or none for all")
            }
            limit = number == 0 ? nil : number
        }
        if let text = given["format"] {
            guard let format = Format(rawValue: text) else {
                throw APIError.badRequest(
                    "bad_format",
                    "format=\(text.prefix(40)) is not served; send one of \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.format = format
        }
        fields = given["fields"].map { $0.split(separator: ",").map(String.init) }
    }

    /// Whether `profile` is among those `user` and `device` select. As in the Recorder, `device` is a
    /// device of `user`: without `user` it selects nothing (its `API.md`: `[user [device]]`).
    func matches(_ profile: OwnTracksProfile) -> Bool {
        guard let user else { return device == nil }
        return user == profile.ownTracksUser && (device.map { $0 == profile.ownTracksDevice } ?? true)
    }

    /// `object` with only the requested ``fields``.
    func selecting(_ object: [String: Any]) -> [String: Any] {
        guard let fields else { return object }
        return object.filter { fields.contains($0.key) }
    }

    /// The times between `from` and `to`, both left out as the Recorder leaves them out (its
    /// `storage.c` skips a location at or before `from` and at or after `to`): the range starts at the
    /// first time after `from`. By default the last 6 hours up to now, as the Recorder's default.
    /// - Throws: 400 naming a time that is none of the Recorder's forms, or a `from` after `to`
    ///   (saying so when either is the default).
    func range(now: Date) throws -> Range<Date> {
        let lower = try from.map { try Self.time($0, name: "from") } ?? now.addingTimeInterval(-6 * 3600)
        let upper = try to.map { try Self.time($0, name: "to") } ?? now
        guard lower <= upper else {
            let message =
                switch (from, to) {
                case (nil, let to?):
                    "from defaults to 6 hours before now (\(Timestamp.format(lower))), which is after to=\(to); send a from before to"
                case (let from?, nil):
                    "from=\(from) is after to, which defaults to now (\(Timestamp.format(upper))); send a from in the past, or a to after from"
                default: "from=\(from ?? "") is after to=\(to ?? ""); send from before to"
                }
            throw APIError.badRequest("bad_range", message)
        }
        let after = Date(timeIntervalSince1970: lower.timeIntervalSince1970.nextUp)
        return after..<max(after, upper)
    }

    /// The Recorder's time forms, read as UTC: `YYYY-MM-DDTHH:MM:SS`, `…THH:MM`, `…THH`, `YYYY-MM-DD`, `YYYY-MM`.
    private static func time(_ text: String, name: String) throws -> Date {
        let forms = ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH", "yyyy-MM-dd", "yyyy-MM"]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        let normalised = text.replacingOccurrences(of: "t", with: "T").replacingOccurrences(of: "Z", with: "")
        for form in forms {
            formatter.dateFormat = form
            if let date = formatter.date(from: normalised) { return date }
        }
        throw APIError.badRequest(
            "bad_time",
            "\(name)=\(text.prefix(40)) is not a time; send YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS (UTC) or another of the Recorder's forms")
    }
}
