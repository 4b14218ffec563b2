import Foundation
import WhereaboutsCore

/// What a record the server already holds becomes when a device sends it again: a phone resends a
/// record when its stay grows or a finer fix places it better, so the stored copy keeps the longer
/// dwell and the finer position (with the altitude, speed and course measured with it). Whatever
/// order the copies arrive in, the row ends as the best of them. Of equally fine copies, the one
/// stored first keeps its position.
///
/// The rule is written once, here: ``merged(_:_:)`` applies it in memory, and ``assignments(stored:resent:greatest:least:)``
/// and ``improves(stored:resent:)`` spell it in SQL for SQLite and PostgreSQL.
enum ResendRule {
    /// The columns a finer copy brings with its accuracy (`acc`).
    static let positionColumns = ["lat", "lon", "alt", "speed", "course"]

    /// `kept` made the best of it and `resent`, another copy of the same record.
    static func merged(_ kept: LocationRecord, _ resent: LocationRecord) -> LocationRecord {
        var merged = kept
        merged.dwell = max(kept.dwell, resent.dwell)
        if resent.fix.horizontalAccuracy < kept.fix.horizontalAccuracy {
            merged.fix.coordinate = resent.fix.coordinate
            merged.fix.altitude = resent.fix.altitude
            merged.fix.speed = resent.fix.speed
            merged.fix.course = resent.fix.course
            merged.fix.horizontalAccuracy = resent.fix.horizontalAccuracy
        }
        return merged
    }

    /// The `SET` list of an `UPDATE` that makes a stored row the best of it and a resent copy, where
    /// `stored` and `resent` name a column's value in each and `greatest` and `least` are the SQL
    /// dialect's two-argument maximum and minimum.
    static func assignments(
        stored: (String) -> String, resent: (String) -> String, greatest: String, least: String
    ) -> String {
        let finer = "\(resent("acc")) < \(stored("acc"))"
        let position = positionColumns.map { "\($0) = CASE WHEN \(finer) THEN \(resent($0)) ELSE \(stored($0)) END" }
        return
            (["dwell = \(greatest)(\(stored("dwell")), \(resent("dwell")))"] + position
            + ["acc = \(least)(\(stored("acc")), \(resent("acc")))"]).joined(separator: ", ")
    }

    /// The SQL condition under which a resent copy changes the stored row.
    static func improves(stored: (String) -> String, resent: (String) -> String) -> String {
        "(\(stored("dwell")) < \(resent("dwell")) OR \(resent("acc")) < \(stored("acc")))"
    }
}
