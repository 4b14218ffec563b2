import Foundation

/// How late the OS's region monitoring flips a circle's state: it treats a circle smaller than
/// ``minimumRadius`` as that size, and flips only once the device is past the boundary by the larger
/// of ``minimumDistance`` and ``fraction`` of the radius. These are the simulated phone's figures
/// (`evaluation.md`, after iOS), which the gpsd service's emulation follows too.
///
/// Knowing the cushion, the slot planner hands the OS circles sized so that it flips where the
/// engine's own hysteresis band ends (``TransitionRule/hysteresis(radius:)``): a larger circle while
/// the device is outside a region, so the OS reports the entry once the device is that band inside,
/// and a smaller one while it is inside, so the OS reports the exit once it is that band outside.
public struct RegionCushion: Sendable, Equatable, Codable {
    /// Circles smaller than this many metres behave as this size.
    public var minimumRadius: Double
    /// The shortest distance in metres past the boundary at which the state flips.
    public var minimumDistance: Double
    /// The distance past the boundary at which the state flips, as a fraction of the radius, when
    /// that is longer than ``minimumDistance``.
    public var fraction: Double

    /// Creates a cushion model.
    public init(minimumRadius: Double, minimumDistance: Double, fraction: Double) {
        self.minimumRadius = minimumRadius
        self.minimumDistance = minimumDistance
        self.fraction = fraction
    }

    /// iOS's region monitoring as the simulated phone models it: circles under 100 m behave as 100 m,
    /// and a crossing counts max(radius/10, 50 m) past the boundary.
    public static let iOS = RegionCushion(minimumRadius: 100, minimumDistance: 50, fraction: 0.1)

    /// The radius in metres the OS behaves as for a circle of `radius` metres.
    public func effectiveRadius(_ radius: Double) -> Double { max(radius, minimumRadius) }

    /// How far in metres past the boundary of a circle of `radius` metres the device must be before
    /// the OS flips its state.
    public func distance(radius: Double) -> Double { max(effectiveRadius(radius) * fraction, minimumDistance) }

    /// Whether the OS flips the state of a circle of `radius` metres, holding the device `inside` it
    /// or not, for a position `distance` metres from its centre: once that position lies past the
    /// boundary (of the ``effectiveRadius(_:)``) by the cushion's ``distance(radius:)``.
    public func flips(inside: Bool, atDistance distance: Double, radius: Double) -> Bool {
        let point = flipPoint(to: inside ? .outside : .inside, radius: radius)
        return inside ? distance > point : distance < point
    }

    /// How far from its centre the OS flips a circle of `radius` metres to `state`: the cushion's
    /// ``distance(radius:)`` within its ``effectiveRadius(_:)`` to inside, beyond it to outside.
    private func flipPoint(to state: RegionState, radius: Double) -> Double {
        let boundary = effectiveRadius(radius)
        let cushion = distance(radius: radius)
        return state == .inside ? boundary - cushion : boundary + cushion
    }

    /// The radius at which the fraction takes over from the minimum distance.
    private var knee: Double { fraction > 0 ? minimumDistance / fraction : .infinity }

    /// The radius of a circle whose state the OS flips to inside once the device is `target` metres
    /// from its centre; when no circle flips that far in (a small target), the circle that flips
    /// nearest to it.
    public func enteringRadius(flippingAt target: Double) -> Double {
        let radius = target <= knee - minimumDistance ? target + minimumDistance : target / (1 - fraction)
        return max(radius, minimumRadius)
    }

    /// The radius of a circle whose state the OS flips to outside once the device is `target` metres
    /// from its centre; when every circle flips farther out (a small target), the circle that flips
    /// nearest to it.
    public func leavingRadius(flippingAt target: Double) -> Double {
        let radius = target <= knee + minimumDistance ? target - minimumDistance : target / (1 + fraction)
        return max(radius, minimumRadius)
    }

    /// Whether the OS's first report of the device's `state` in a circle of `radius` metres (the state
    /// found when monitoring starts, judged on the ``effectiveRadius(_:)`` with no cushion) shows that
    /// state in a region of `regionRadius` metres: "inside" only when that circle lies within the
    /// region, "outside" only when it covers the region.
    public func showsFirstState(_ state: RegionState, circle radius: Double, regionRadius: Double) -> Bool {
        let judged = effectiveRadius(radius)
        return state == .inside ? judged <= regionRadius : judged >= regionRadius
    }

    /// Whether the OS reporting the device `state` in a circle of `radius` metres proves that the
    /// device crossed into that state in a region of `regionRadius` metres, by the region's hysteresis
    /// band (``TransitionRule/hysteresis(radius:)``): whether the point where the OS flips the circle
    /// lies that band inside the region (an entry) or outside it (an exit). A plain circle under
    /// ``minimumRadius`` flips to inside ``minimumRadius`` less ``minimumDistance`` from its centre
    /// (50 m on iOS), where the device may still be outside a small region: on iOS it proves no entry
    /// into a region under 67 m.
    public func proves(_ state: RegionState, circle radius: Double, regionRadius: Double) -> Bool {
        let band = TransitionRule.hysteresis(radius: regionRadius)
        let point = flipPoint(to: state, radius: radius)
        // A millimetre's slack: a fitted circle flips at the band itself, up to rounding.
        switch state {
        case .inside: return point <= regionRadius - band + 0.001
        case .outside: return point >= regionRadius + band - 0.001
        }
    }
}
