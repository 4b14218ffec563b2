import Foundation

/// The straight line through the last few seconds of GPS fixes, where a mode that streams GPS judges
/// its regions.
///
/// A device lingering a few metres short of a band is seen across it, minutes early, by the first
/// fix whose noise carries it those metres, and at 1 Hz one soon comes. Judged at the end of a line
/// fitted (least squares in time) to the fine fixes of the last ``window`` seconds, the noise that
/// differs from fix to fix averages out, and a device walking at a steady pace is not trailed, as it
/// would be by a mean. The line stands in for the fix only while it can:
/// - at least ``minimumCount`` fine fixes (``TransitionRule/decisiveAccuracy``) in the window, and
///   the fix itself fine;
/// - the device no faster than ``fastestSpeed`` along the line: faster, the window spans a turn, and
///   the fixes' noise is small beside the metres they move;
/// - the fix within ``escape`` standard errors of the line through the other fixes: further, the
///   device stepped or turned away, and the fix is taken as it is.
///
/// The accuracy of the judged position falls only by what the fit shows. A reported accuracy covers
/// noise that differs from fix to fix and error that drifts with them (a phone filters its
/// positions); the scatter about the line measures the first, which the fit shrinks by its leverage
/// at the end, and the rest is kept whole. A drifting error, which no fit can see, keeps the margin
/// a single fix would have.
struct FixLine: Sendable {
    /// Seconds of fixes the line is fitted to.
    static let window: TimeInterval = 10
    /// The fewest fine fixes in the window that make a line.
    static let minimumCount = 5
    /// The fastest the device may move along the line, in metres per second, for the line to judge.
    static let fastestSpeed: Double = 3
    /// How many standard errors a fix may lie from the line through the others and still be judged
    /// on the line (by its reported accuracy): noise puts one in a hundred further.
    static let escape: Double = 3
    /// A reported accuracy (a 68 % radius) over the standard error of each of its two axes.
    static let radiusPerSigma: Double = 1.51

    /// The fine fixes of the last ``window`` seconds, oldest first.
    private var fixes: [Fix] = []

    /// `fix` as the regions should judge it: at the line's end, with the accuracy the fit gives,
    /// when the line can stand in for it; else `fix` itself.
    mutating func judged(_ fix: Fix) -> Fix {
        guard fix.horizontalAccuracy <= TransitionRule.decisiveAccuracy else { return fix }
        fixes.removeAll { fix.timestamp.timeIntervalSince($0.timestamp) > Self.window || $0.timestamp >= fix.timestamp }
        fixes.append(fix)
        guard fixes.count >= Self.minimumCount, let fit = Fit(fixes, origin: fix) else { return fix }
        let reported = fix.horizontalAccuracy / Self.radiusPerSigma
        guard fit.speed <= Self.fastestSpeed, fit.offset <= Self.escape * reported / (1 - fit.leverage).squareRoot() else { return fix }
        let independent = min(reported * reported, fit.scatter)
        let drifting = reported * reported - independent
        var judged = fix
        judged.coordinate = fit.end
        judged.horizontalAccuracy = Self.radiusPerSigma * (drifting + fit.leverage * independent).squareRoot()
        return judged
    }

    /// A least-squares line through fixes, east and north against time, in metres from the last fix.
    private struct Fit {
        /// Where the line is at the last fix's time.
        let end: Coordinate
        /// How far the last fix lies from the line through the others, in metres (its residual over
        /// one less its leverage: the fix pulls the line towards itself).
        let offset: Double
        /// The line's speed, in metres per second.
        let speed: Double
        /// The variance of the fixes about the line along one axis, in square metres.
        let scatter: Double
        /// The variance of the line's end over that of one fix, for noise independent from fix to fix.
        let leverage: Double

        init?(_ fixes: [Fix], origin: Fix) {
            let latitude = origin.coordinate.latitude
            let metresPerDegreeLongitude = Geodesy.metresPerDegreeLatitude * cos(latitude * .pi / 180)
            let points = fixes.map {
                (
                    t: $0.timestamp.timeIntervalSince(origin.timestamp),
                    x: Geodesy.wrapped($0.coordinate.longitude - origin.coordinate.longitude) * metresPerDegreeLongitude,
                    y: ($0.coordinate.latitude - latitude) * Geodesy.metresPerDegreeLatitude
                )
            }
            let n = Double(points.count)
            let meanT = points.reduce(0) { $0 + $1.t } / n
            let meanX = points.reduce(0) { $0 + $1.x } / n
            let meanY = points.reduce(0) { $0 + $1.y } / n
            let spreadT = points.reduce(0) { $0 + ($1.t - meanT) * ($1.t - meanT) }
            guard spreadT > 0, metresPerDegreeLongitude > 0 else { return nil }
            let slopeX = points.reduce(0) { $0 + ($1.t - meanT) * ($1.x - meanX) } / spreadT
            let slopeY = points.reduce(0) { $0 + ($1.t - meanT) * ($1.y - meanY) } / spreadT
            let endX = meanX - slopeX * meanT
            let endY = meanY - slopeY * meanT
            let squares = points.reduce(0) { sum, point in
                let dx = point.x - (endX + slopeX * point.t)
                let dy = point.y - (endY + slopeY * point.t)
                return sum + dx * dx + dy * dy
            }
            end = Coordinate(
                normalizingLatitude: latitude + endY / Geodesy.metresPerDegreeLatitude,
                longitude: origin.coordinate.longitude + endX / metresPerDegreeLongitude)
            leverage = 1 / n + meanT * meanT / spreadT
            offset = (endX * endX + endY * endY).squareRoot() / (1 - leverage)
            speed = (slopeX * slopeX + slopeY * slopeY).squareRoot()
            scatter = squares / (2 * (n - 2))
        }
    }
}
