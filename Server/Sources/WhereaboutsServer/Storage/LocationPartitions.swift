import NIOConcurrencyHelpers

/// The monthly partitions of PostgreSQL's `location` table that this process knows exist, by month
/// (`year * 100 + month`, UTC), so a batch creates a partition only for a month it has not seen.
final class LocationPartitions: Sendable {
    private let known = NIOLockedValueBox(Set<Int>())

    /// The months of `times` (epoch seconds) whose partition is not known to exist, with a time in each.
    func unknown(_ times: [Double]) -> [(month: Int, time: Double)] {
        known.withLockedValue { known in
            var seen: [Int: Double] = [:]
            for time in times {
                let month = Self.month(epochSeconds: time)
                if !known.contains(month), seen[month] == nil { seen[month] = time }
            }
            return seen.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// Records that these months' partitions exist.
    func insert(_ months: [Int]) { known.withLockedValue { $0.formUnion(months) } }

    /// Forgets every month: after a prune dropped partitions, or when an insert found one missing
    /// (another instance pruned it).
    func forget() { known.withLockedValue { $0.removeAll() } }

    /// `year * 100 + month` of a UTC time in epoch seconds (days to a civil date, proleptic Gregorian).
    static func month(epochSeconds: Double) -> Int {
        let days = Int((epochSeconds / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return year * 100 + month
    }

    /// The first moment after the month `key` (`year * 100 + month`), in epoch seconds.
    static func end(ofMonth key: Int) -> Double {
        var (year, month) = (key / 100, key % 100 + 1)
        if month == 13 { (year, month) = (year + 1, 1) }
        // Days from 1970-01-01 to the first of that month (days from civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Double(era * 146_097 + dayOfEra - 719_468) * 86_400
    }
}
