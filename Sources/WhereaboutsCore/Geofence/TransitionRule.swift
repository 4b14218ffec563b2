import Foundation

/// How a single fix counts as evidence about one region: inside, outside, or unable to tell.
///
/// A region of radius r has a hysteresis band h = min(25 m, r/4) on each side of its boundary (the
/// same band `evaluation.md` uses for the truth). A fix at distance d from the centre with accuracy a
/// shows *inside* when d ≤ r − h − m and *outside* when d ≥ r + h + m, where the margin m grows with
/// the accuracy: m = k·max(0, a − 5 m), k = ½ for fixes finer than the region and 1 for coarser
/// ones. A fix coarser than the region's radius can never show *inside*: a 1 km fix is no evidence of
/// being in a 150 m region. A coarse fix near the band needs the next fix that reaches the region to agree
/// (see ``isDecisive``). Between the two lies a band where the fix says nothing, so a fix
/// jittering at the boundary cannot make the state flap.
public enum TransitionRule {
    /// Fixes at least this accurate (metres) count as decisive on their own; coarser ones must be
    /// confirmed by a second fix agreeing.
    public static let decisiveAccuracy: Double = 20

    /// The hysteresis half-width in metres for a region of `radius` metres.
    public static func hysteresis(radius: Double) -> Double { min(25, radius / 4) }

    /// The accuracy margin in metres for a fix of `accuracy` metres judged against a region of `radius` metres.
    public static func margin(accuracy: Double, radius: Double) -> Double {
        let k = accuracy <= radius ? 0.5 : 1.0
        return k * max(0, accuracy - 5)
    }

    /// What a fix `distance` metres from the centre with `accuracy` metres says about a circle of `radius` metres.
    public static func evidence(distance: Double, accuracy: Double, radius: Double) -> RegionState? {
        evidence(signedDistance: distance - radius, accuracy: accuracy, size: radius)
    }

    /// What a fix `signedDistance` metres from a region's outline (negative inside) with `accuracy`
    /// metres says about it; `size` is the region's radius (of its enclosing circle for polygons).
    @inline(__always)
    public static func evidence(signedDistance s: Double, accuracy: Double, size: Double) -> RegionState? {
        let h = hysteresis(radius: size)
        let m = margin(accuracy: accuracy, radius: size)
        if accuracy <= size && s <= -h - m { return .inside }
        if s >= h + m { return .outside }
        return nil
    }

    /// Whether one fix is enough to act on `evidence`: it is, when the fix is fine (at most
    /// ``decisiveAccuracy`` metres) or lies a further whole accuracy beyond the band. Otherwise the
    /// next fix that reaches the region must agree (``GeofenceEngine`` drops the evidence when a fix
    /// does not reach it).
    public static func isDecisive(_ evidence: RegionState, signedDistance s: Double, accuracy: Double, size: Double) -> Bool {
        if accuracy <= decisiveAccuracy { return true }
        let h = hysteresis(radius: size)
        switch evidence {
        case .inside: return s + accuracy <= -h
        case .outside: return s - accuracy >= h
        }
    }

    /// The farthest a region's boundary can be from a fix of `accuracy` metres and still be judged by it.
    public static func reach(accuracy: Double) -> Double { 25 + accuracy }
}
