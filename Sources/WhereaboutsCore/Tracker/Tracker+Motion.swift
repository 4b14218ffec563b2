import Foundation

extension Tracker {
    /// The location service configuration the mode and motion state call for.
    var desiredRequest: LocationRequest {
        switch mode {
        case .manual: return .off
        case .significant: return LocationRequest(standard: nil, significantChange: true)
        case .move: return LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: nil), significantChange: false)
        case .interval:
            return LocationRequest(standard: StandardUpdates(accuracy: .tenMeters, distanceFilter: nil), significantChange: false)
        case .continuous(let accuracy, let filter):
            return LocationRequest(standard: StandardUpdates(accuracy: accuracy, distanceFilter: filter), significantChange: false)
        case .adaptive(let policy):
            let sensing = policy.motionSensing
            if case .stationary = motion {
                let watching = sensing && policy.stillSensing
                return LocationRequest(
                    standard: watching ? StandardUpdates(accuracy: .threeKilometers, distanceFilter: Self.stillSensingFilter) : nil,
                    significantChange: policy.significantChangeWhileStationary, visits: sensing, motionActivity: sensing)
            }
            if let clearance, let cruise = policy.cruiseAccuracy {
                return LocationRequest(
                    standard: clearance.suspends ? nil : StandardUpdates(accuracy: cruise, distanceFilter: nil),
                    significantChange: clearance.suspends, visits: sensing, motionActivity: sensing)
            }
            if raisedAccuracyUntil != nil, let fine = policy.nearBoundaryAccuracy {
                return LocationRequest(
                    standard: StandardUpdates(accuracy: fine, distanceFilter: nil), significantChange: false, visits: sensing,
                    motionActivity: sensing)
            }
            return LocationRequest(
                standard: StandardUpdates(accuracy: policy.movingAccuracy, distanceFilter: elasticFilter(policy)),
                significantChange: false, visits: sensing, motionActivity: sensing)
        }
    }

    /// The distance filter in metres of the updates that keep a still device's app running
    /// (``MotionPolicy/stillSensing``): they are there for the motion reports, and for a cell
    /// position far enough off to show the device left, not for a still device's noise. On gpsd,
    /// whose accuracy cannot be set, a still receiver would otherwise deliver a fix every second.
    static let stillSensingFilter: Double = 100

    /// The distance filter in metres: the base, stretched with speed (rounded to 5 m/s steps).
    private func elasticFilter(_ policy: MotionPolicy) -> Double {
        let speed = lastFix?.speed ?? 0
        let stretched = (speed / 5).rounded() * 5 * policy.elasticityMultiplier
        return max(policy.distanceFilter, stretched)
    }

    /// Forgets the motion state and any raised accuracy: the mode (re)starts moving. A device judged
    /// still was at the stay's place until `now`.
    mutating func resetMotion(at now: Date) {
        if isStationary && stay.open { stay.lastThere = max(stay.lastThere, now) }
        motion = .moving(anchor: nil)
        raisedAccuracyUntil = nil
        endCruise()
    }

    /// Emits a location configuration when it differs from the one in force.
    mutating func applyLocationRequest(into effects: inout [TrackerEffect]) {
        let request = desiredRequest
        guard request != appliedRequest else { return }
        appliedRequest = request
        effects.append(.configureLocation(request))
    }

    /// Updates the moving/stationary state of the stop-detecting modes with a new fix.
    mutating func followMotion(_ fix: Fix, now: Date, into effects: inout [TrackerEffect]) {
        guard case .adaptive(let policy) = mode else { return }
        switch motion {
        case .stationary:
            guard !keepsStill(fix) else { return }
            startMoving(at: now, into: &effects)
            anchorMoving(at: fix, policy)
        case .moving(let anchor):
            guard policy.cruiseAccuracy == nil || fix.horizontalAccuracy <= Self.planningAccuracy else { return }
            if let anchor,
                Geodesy.distance(anchor.coordinate, fix.coordinate) <= policy.stopRadius + 0.5 * fix.horizontalAccuracy
            {
                break
            } else {
                anchorMoving(at: fix, policy)
            }
        }
        let settled = isSettled
        if fix.horizontalAccuracy <= TransitionRule.decisiveAccuracy { fineFixAtAnchor = true }
        let needsFine = planClearance(policy, fix: fix)
        updateRaisedAccuracy(policy, fix: fix, needsFine: needsFine, settled: settled)
        applyLocationRequest(into: &effects)
    }

    /// Makes `fix` the anchor the device is judged still around, with no fine fix taken there yet, and
    /// schedules the stillness check a stop timeout after it.
    private mutating func anchorMoving(at fix: Fix, _ policy: MotionPolicy) {
        motion = .moving(anchor: fix)
        fineFixAtAnchor = false
        timers[.stationaryCheck] = fix.timestamp.addingTimeInterval(policy.stopTimeout)
    }

    /// Whether the device has settled at its anchor: the motion coprocessor confidently reports it
    /// still, and a fix fine enough to decide every region on its own was taken there. Until it
    /// moves, a finer fix could only repeat what that one decided, so undecided coarse fixes no
    /// longer raise accuracy.
    private var isSettled: Bool {
        fineFixAtAnchor && activity?.kind == .stationary && activity?.confidence != .low
    }

    /// Whether `fix` judges the regions: every fix does, except a coarse one (coarser than
    /// ``TransitionRule/decisiveAccuracy``) while the device has settled (``isSettled``). The fine fix
    /// taken where it stopped judged the regions there, and a long stay brings a Wi-Fi fix a minute,
    /// whose noise would sooner or later report a crossing of a nearby boundary that the device never
    /// made. A walking report, or a fix far enough from the anchor to set the device moving, ends the
    /// settling, and the fixes after it judge again.
    func judgesRegions(_ fix: Fix) -> Bool {
        fix.horizontalAccuracy <= TransitionRule.decisiveAccuracy || !isSettled
    }

    /// Whether the device is judged stationary and `fix` lies too close to its anchor to show it left
    /// (``leavingDistance(_:fix:anchor:)``): the device is still at its stop.
    func keepsStill(_ fix: Fix) -> Bool {
        guard case .adaptive(let policy) = mode, case .stationary(let anchor) = motion else { return false }
        return Geodesy.distance(anchor.coordinate, fix.coordinate) <= Self.leavingDistance(policy, fix: fix, anchor: anchor)
    }

    /// How far from the stationary anchor `fix` must lie to show the device left: the stop radius
    /// plus half of both accuracies, or the whole of the fix's when it is coarser than half the
    /// ``planningAccuracy`` (a significant-change position, whose error often exceeds half its
    /// accuracy, arrives as soon as the device stops; it must not set a still device moving).
    private static func leavingDistance(_ policy: MotionPolicy, fix: Fix, anchor: Fix) -> Double {
        let share = fix.horizontalAccuracy > planningAccuracy / 2 ? 1.0 : 0.5
        return policy.stopRadius + share * fix.horizontalAccuracy + 0.5 * anchor.horizontalAccuracy
    }

    /// Raises accuracy while a region boundary is near enough to matter: when the last fix left some
    /// region undecided that a finer fix would have changed and the OS does not settle
    /// (``leftUndecided(_:)``), or a region within reach is too small for the moving accuracy
    /// (``MotionPolicy/fineRadius``).
    /// Accuracy stays raised for ``MotionPolicy/raisedAccuracyHold`` seconds after the last such fix,
    /// and drops once the device has settled where it stopped (``isSettled``, as of before `fix`).
    private mutating func updateRaisedAccuracy(_ policy: MotionPolicy, fix: Fix, needsFine: Bool, settled: Bool) {
        guard policy.nearBoundaryAccuracy != nil, case .moving = motion, clearance == nil, !settled else {
            raisedAccuracyUntil = nil
            return
        }
        if leftUndecided(policy) || needsFine {
            raisedAccuracyUntil = fix.timestamp.addingTimeInterval(policy.raisedAccuracyHold)
        } else if let until = raisedAccuracyUntil, fix.timestamp >= until {
            raisedAccuracyUntil = nil
        }
    }

    /// The stationary-check timer fired: stop positioning when the device stayed near its anchor
    /// for the policy's timeout, unless a region boundary is closer than the policy's watch distance
    /// (the OS's fence could not tell a step across it).
    mutating func checkStillness(now: Date, into effects: inout [TrackerEffect]) {
        guard case .adaptive(let policy) = mode, case .moving(let anchor?) = motion else { return }
        let stillSince = anchor.timestamp
        guard now.timeIntervalSince(stillSince) >= policy.stopTimeout else {
            timers[.stationaryCheck] = stillSince.addingTimeInterval(policy.stopTimeout)
            return
        }
        placeStop(policy, into: &effects)
        if policy.watchDistance > 0,
            let nearest = geofences.index.nearestBoundaries(to: (lastFix ?? anchor).coordinate, limit: 1).first,
            nearest.distance < policy.watchDistance
        {
            timers[.stationaryCheck] = now.addingTimeInterval(policy.stopTimeout)
            return
        }
        motion = .stationary(anchor: lastFix ?? anchor)
        if stay.open { stay.lastThere = max(stay.lastThere, now) }
        raisedAccuracyUntil = nil
        applyLocationRequest(into: &effects)
        plan(at: (lastFix ?? anchor).coordinate, now: now, into: &effects)
        flush(.motionChange, now: now, into: &effects)
    }

    /// Asks once per stay for a GPS fix to place the stay's record (``MotionPolicy/placesStops``),
    /// when the device has been still for the stop timeout and the record's position is coarser than
    /// a decisive fix: the stay is where the travel log says the device spent its time.
    private mutating func placeStop(_ policy: MotionPolicy, into effects: inout [TrackerEffect]) {
        guard policy.placesStops, stay.open, !stay.placementAsked, stay.placedWithin > TransitionRule.decisiveAccuracy else { return }
        stay.placementAsked = true
        effects.append(.requestOneShot(.best))
    }

    /// Leaves the stationary state: positioning back on. The device was at the stay's place until
    /// `leaving` (when the motion coprocessor saw it set off), or else until this moment, when the OS
    /// noticed it move.
    mutating func startMoving(at now: Date, leaving: Date? = nil, into effects: inout [TrackerEffect]) {
        guard case .adaptive(let policy) = mode, case .stationary = motion else { return }
        if stay.open {
            stay.lastThere = max(stay.lastThere, min(now, leaving ?? now))
            if let leaving, leaving < now { stay.setOff = stay.lastThere }
        }
        motion = .moving(anchor: nil)
        applyLocationRequest(into: &effects)
        timers[.stationaryCheck] = now.addingTimeInterval(policy.stopTimeout)
        flush(.motionChange, now: now, into: &effects)
    }
}
