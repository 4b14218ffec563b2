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
                return LocationRequest(standard: nil, significantChange: policy.significantChangeWhileStationary, visits: sensing)
            }
            if clearance != nil, let cruise = policy.cruiseAccuracy {
                return LocationRequest(
                    standard: StandardUpdates(accuracy: cruise, distanceFilter: nil), significantChange: false, visits: sensing,
                    motionActivity: sensing)
            }
            let raised = raisedAccuracyUntil != nil
            let accuracy = raised ? policy.nearBoundaryAccuracy ?? policy.movingAccuracy : policy.movingAccuracy
            return LocationRequest(
                standard: StandardUpdates(accuracy: accuracy, distanceFilter: elasticFilter(policy)),
                significantChange: false, visits: sensing, motionActivity: sensing)
        }
    }

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
        case .stationary(let anchor):
            let moved = Geodesy.distance(anchor.coordinate, fix.coordinate)
            guard moved > policy.stopRadius + 0.5 * (fix.horizontalAccuracy + anchor.horizontalAccuracy) else { return }
            startMoving(at: now, into: &effects)
            motion = .moving(anchor: fix)
            timers[.stationaryCheck] = fix.timestamp.addingTimeInterval(policy.stopTimeout)
        case .moving(let anchor):
            guard policy.cruiseAccuracy == nil || fix.horizontalAccuracy <= Self.planningAccuracy else { return }
            if let anchor,
                Geodesy.distance(anchor.coordinate, fix.coordinate) <= policy.stopRadius + 0.5 * fix.horizontalAccuracy
            {
                break
            } else {
                motion = .moving(anchor: fix)
                timers[.stationaryCheck] = fix.timestamp.addingTimeInterval(policy.stopTimeout)
            }
        }
        let needsFine = planClearance(policy, fix: fix)
        updateRaisedAccuracy(policy, fix: fix, needsFine: needsFine)
        applyLocationRequest(into: &effects)
    }

    /// Raises accuracy while a region boundary is near enough to matter: when the last fix left some
    /// region undecided that a finer fix would have changed (see ``GeofenceEngine/undecidedCount``), or
    /// a region within reach is too small for the moving accuracy (``MotionPolicy/fineRadius``).
    /// Accuracy stays raised for ``MotionPolicy/raisedAccuracyHold`` seconds after the last such fix.
    private mutating func updateRaisedAccuracy(_ policy: MotionPolicy, fix: Fix, needsFine: Bool) {
        guard policy.nearBoundaryAccuracy != nil, case .moving = motion, clearance == nil else {
            raisedAccuracyUntil = nil
            return
        }
        if geofences.undecidedCount > 0 || needsFine {
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
        plan(at: (lastFix ?? anchor).coordinate, into: &effects)
        flush(.motionChange, now: now, into: &effects)
    }

    /// Leaves the stationary state: positioning back on. The device was at the stay's place until
    /// this moment, when the OS noticed it move.
    mutating func startMoving(at now: Date, into effects: inout [TrackerEffect]) {
        guard case .adaptive(let policy) = mode, case .stationary = motion else { return }
        if stay.open { stay.lastThere = max(stay.lastThere, now) }
        motion = .moving(anchor: nil)
        applyLocationRequest(into: &effects)
        timers[.stationaryCheck] = now.addingTimeInterval(policy.stopTimeout)
        flush(.motionChange, now: now, into: &effects)
    }
}
