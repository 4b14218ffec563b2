import PostgresNIO

extension PostgresQuery.StringInterpolation {
    /// Binds the columns of `rows` as arrays, one per column, for `unnest`: the text
    /// `$1::text[], $2::uuid[], …` whose columns are ``PostgresTrackStorage/locationColumns``
    /// (`alt`, `speed` and `course` NaN when missing).
    mutating func appendInterpolation(columnsOf rows: [LocationRow]) {
        appendInterpolation(rows.map(\.device))
        appendLiteral("::text[], ")
        appendInterpolation(rows.map(\.record.id))
        appendLiteral("::uuid[], ")
        let doubles: [[Double]] = [
            rows.map { $0.record.fix.timestamp.timeIntervalSince1970 }, rows.map(\.record.fix.coordinate.latitude),
            rows.map(\.record.fix.coordinate.longitude), rows.map(\.record.fix.horizontalAccuracy),
            rows.map { $0.record.fix.altitude ?? .nan }, rows.map { $0.record.fix.speed ?? .nan },
            rows.map { $0.record.fix.course ?? .nan },
        ]
        for column in doubles {
            appendInterpolation(column)
            appendLiteral("::float8[], ")
        }
        appendInterpolation(rows.map(\.record.trigger.rawValue))
        appendLiteral("::text[], ")
        appendInterpolation(rows.map(\.record.dwell))
        appendLiteral("::float8[], ")
        appendInterpolation(rows.map(\.received.timeIntervalSince1970))
        appendLiteral("::float8[]")
    }
}

extension PostgresTrackStorage {
    /// The names of the columns `\(columnsOf:)` binds, in its order.
    static let locationColumns = "device_id, id, t, lat, lon, acc, alt, speed, course, trigger, dwell, received"
}
