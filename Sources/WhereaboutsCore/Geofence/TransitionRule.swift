import Foundation

/// How a single fix counts as evidence about one region: inside, outside, or unable to tell.
///
/// A region of radius r has a hysteresis band h = min(25 m, r/4) on each side of its boundary (the
/// same band `evaluation.md` uses for the truth). A fix at distance d from the centre with accuracy a
/// shows *inside* when d ≤ r − h − m and *outside* when d ≥ r + h + m, where the margin m grows with
/// the accuracy: m = ½·a for a fix no coarser than the region's radius, and max(0, a − 5 m) for a
/// coarser one (issue 50's eleventh round widened the first from ½·max(0, a − 5 m), which raised
/// precision on held-out traces at no measurable cost in recall). A fix coarser than the
/// region's radius can never show *inside*: a 1 km fix is no evidence of being in a 150 m region. A
/// coarse fix near the band needs the next fix that reaches the region to agree (see
/// ``strength(of:signedDistance:accuracy:size:)``). Between the two lies a band where the fix says
/// nothing, so a fix jittering at the boundary cannot make the state flap.
///
/// For a polygon region, d − r is the signed distance to its outline and r in the band and the
/// margin is its ``Region/size``: the depth of the deepest point inside it, not the radius of its
/// enclosing circle, so that a fine fix in a narrow polygon can show *inside*.
public enum TransitionRule {
    /// Fixes at least this accurate (metres) count as decisive on their own; coarser ones must be
    /// confirmed by a second fix agreeing.
    public static let decisiveAccuracy: Double = 20

    /// The hysteresis half-width in metres for a region of `radius` metres.
    public static func hysteresis(radius: Double) -> Double { min(25, radius / 4) }

    /// The accuracy margin in metres for a fix of `accuracy` metres judged against a region of `radius` metres.
    public static func margin(accuracy: Double, radius: Double) -> Double {
        accuracy <= radius ? 0.5 * accuracy : max(0, accuracy - 5)
    }

    /// What a fix `distance` metres from the centre with `accuracy` metres says about a circle of `radius` metres.
    public static func evidence(distance: Double, accuracy: Double, radius: Double) -> RegionState? {
        evidence(signedDistance: distance - radius, accuracy: accuracy, size: radius)
    }

    /// What a fix `signedDistance` metres from a region's outline (negative inside) with `accuracy`
    /// metres says about it; `size` is the region's ``Region/size``: its radius, or for polygons the
    /// depth of the deepest point inside them (not the enclosing circle's radius, which could put the
    /// band deeper than any point of a narrow polygon).
    @inline(__always)
    public static func evidence(signedDistance s: Double, accuracy: Double, size: Double) -> RegionState? {
        let h = hysteresis(radius: size)
        let m = margin(accuracy: accuracy, radius: size)
        if accuracy <= size && s <= -h - m { return .inside }
        if s >= h + m { return .outside }
        return nil
    }

    /// How many accuracies beyond the band one coarse fix must lie to act on its own, either way. A
    /// reported accuracy is about one standard error, so at one accuracy a coarse fix falls beyond it
    /// by chance often enough to matter. A stay is seen by many coarse fixes (a Wi-Fi scan a minute,
    /// significant-change and visit positions), and at one accuracy some of them reported exits the
    /// device never made. A passage that grazes a region is seen by a few Wi-Fi fixes, and at one
    /// accuracy one of them reported an entry the device never made, and the next an exit.
    public static let decisiveAccuracies: Double = 2

    /// How far one fix's evidence goes: whether it acts alone, and if not, whether a finer fix is
    /// needed to confirm it.
    public enum Strength: Sendable, Hashable {
        /// Enough on its own: a fine fix (at most ``decisiveAccuracy`` metres), or a coarse one lying
        /// ``decisiveAccuracies`` beyond the band.
        case decisive
        /// A whole accuracy beyond the band but short of ``decisiveAccuracies``: the next fix that
        /// reaches the region must agree, and one at the same accuracy will do.
        case firm
        /// Nearer the band: the next fix that reaches the region must agree, and a finer one is
        /// wanted (``GeofenceRule/Outcome/undecided``).
        case tentative
    }

    /// How far a fix `signedDistance` metres from a region's outline with `accuracy` metres goes
    /// towards `evidence` it shows. ``GeofenceEngine`` drops evidence that is not decisive when a
    /// fix does not reach the region.
    public static func strength(of evidence: RegionState, signedDistance s: Double, accuracy: Double, size: Double) -> Strength {
        if accuracy <= decisiveAccuracy { return .decisive }
        let beyondBand = (evidence == .inside ? -s : s) - hysteresis(radius: size)
        if beyondBand >= decisiveAccuracies * accuracy { return .decisive }
        return beyondBand >= accuracy ? .firm : .tentative
    }

    /// The farthest a region's boundary can be from a fix of `accuracy` metres and still be judged by it.
    public static func reach(accuracy: Double) -> Double { 25 + accuracy }

    /// The distance beyond a region's boundary from which a fix of `accuracy` metres is decisive
    /// evidence of having left it: a region the device is inside needs its true distance only
    /// within this.
    public static func leavingReach(accuracy: Double) -> Double { 25 + decisiveAccuracies * accuracy }
}
