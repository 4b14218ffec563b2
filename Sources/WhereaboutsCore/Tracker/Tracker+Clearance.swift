import Foundation

/// How far the device may travel, from a moment on, before a region boundary can be within reach:
/// while it lasts, a policy with a ``MotionPolicy/cruiseAccuracy`` cruises on coarse positions.
struct Clearance: Sendable, Equatable {
    /// When the distance was measured.
    var from: Date
    /// Metres the device may travel from ``from`` before finer positions are needed.
    var metres: Double
    /// The top speed assumed, in metres per second.
    var speed: Double
    /// Whether the app suspends meanwhile, on significant-change monitoring, and ``metres`` counts
    /// only the regions the OS would not settle (``Tracker/suspendedClearance(_:fix:around:limit:reach:speed:)``).
    var suspends = false
    /// Whether the cruise's time is up and the fine fix that ends it was asked for.
    var asked = false

    /// When the device, at the top speed, may have used the distance up.
    var end: Date { from.addingTimeInterval(metres / speed) }
}

extension Tracker {
    /// Fixes at most this coarse (metres) place the device well enough to plan on; cell fixes do not.
    static let planningAccuracy: Double = 150
    /// The shortest cruise worth starting, in seconds of travel at the top speed: a shorter one would
    /// not save a Wi-Fi scan.
    static let shortestCruise: TimeInterval = 10

    /// The fastest the device is assumed to move: the top speed of the reported activity class (of the
    /// next faster class when the report is unsure, of a vehicle when there is none), or more when a
    /// fix measured more; never below walking pace, since a still device may set off.
    func topSpeed(_ fix: Fix?) -> Double {
        let classes = MotionActivity.Kind.allCases
        var kind = activity?.kind ?? .automotive
        if activity?.confidence == .low, let index = classes.firstIndex(of: kind), index + 1 < classes.count {
            kind = classes[index + 1]
        }
        let measured = (fix?.speed).map { $0 * 1.25 + 1 } ?? 0
        return max(kind.topSpeed, MotionActivity.Kind.walking.topSpeed, measured)
    }

    /// Plans positioning from a fine fix while moving: cruise on coarse positions when every region
    /// boundary is out of reach, else raise accuracy when a region within reach is too small for the
    /// moving accuracy to judge. Returns whether a region within reach needs raised accuracy.
    mutating func planClearance(_ policy: MotionPolicy, fix: Fix) -> Bool {
        guard policy.cruiseAccuracy != nil || policy.fineRadius > 0, fix.horizontalAccuracy <= Self.planningAccuracy else {
            return false
        }
        let speed = topSpeed(fix)
        let reach = fix.horizontalAccuracy + speed * policy.lead
        // Up to every handed region may be left to the OS: look that much further for eight.
        let handed = policy.osTrustRadius > 0 ? slotPlan?.regions.count ?? 0 : 0
        let around = geofences.index.nearestBoundaries(to: fix.coordinate, limit: 8 + handed)
        let nearest = around.filter { !osSettles($0.region, policy) }.prefix(8)
        let needsFine = nearest.contains { $0.distance <= reach && $0.region.size < policy.fineRadius }
        let room = (nearest.first?.distance ?? .infinity) - reach
        // Not before a motion report: a cruise drops the stop anchor, and with no report ever (motion
        // denied, no coprocessor, gpsd) a still device far from every region would never stop.
        let canCruise = policy.cruiseAccuracy != nil && activity != nil && activity?.kind != .stationary && !leftUndecided(policy)
        if canCruise, let metres = suspendedClearance(policy, fix: fix, around: around, limit: 8 + handed, reach: reach, speed: speed) {
            startCruise(Clearance(from: fix.timestamp, metres: metres, speed: speed, suspends: true), policy)
        } else if canCruise && room >= speed * Self.shortestCruise {
            startCruise(Clearance(from: fix.timestamp, metres: room, speed: speed), policy)
        } else {
            endCruise()
        }
        return needsFine
    }

    /// Whether the OS's monitoring settles `region` for `policy`: one it leaves to the OS
    /// (``osTrusts(_:_:)``), handed to the OS in the slot plan in force.
    private func osSettles(_ region: Region, _ policy: MotionPolicy) -> Bool {
        osTrusts(region, policy) && (slotPlan?.regions.contains { $0.id == region.id } ?? false)
    }

    /// How deep past a region's outline a fix that is no evidence asks for a finer one: the adaptive
    /// policy's ``MotionPolicy/undecidedDepth``, and 1 (where an exact fix would be evidence) in
    /// every other mode.
    var undecidedDepth: Double {
        guard case .adaptive(let policy) = mode else { return 1 }
        return policy.undecidedDepth
    }

    /// Whether the last fix left undecided a region that `policy` judges on its own fixes: any
    /// region, but one the OS settles (``osSettles(_:_:)``).
    func leftUndecided(_ policy: MotionPolicy) -> Bool {
        guard policy.osTrustRadius > 0, osMonitorsRegions else { return geofences.undecidedCount > 0 }
        return geofences.undecidedRegions.contains { !osSettles($0, policy) }
    }

    /// Cruises until `clearance` is used up or the policy's longest cruise ends, whichever is first.
    private mutating func startCruise(_ clearance: Clearance, _ policy: MotionPolicy) {
        self.clearance = clearance
        timers[.clearance] = min(clearance.end, clearance.from.addingTimeInterval(policy.maximumCruise))
        motion = .moving(anchor: nil)
        timers[.stationaryCheck] = nil
        raisedAccuracyUntil = nil
    }

    /// Stops cruising: finer positioning from now on.
    mutating func endCruise() {
        clearance = nil
        timers[.clearance] = nil
    }

    /// Seconds the fine fix asked for when a cruise's time is up may take before the cruise ends anyway.
    static let cruiseAnswerWait: TimeInterval = 60

    /// The cruise's time is up: take one fine fix, which plans again. When none comes fine enough
    /// to plan within ``cruiseAnswerWait`` (a cell fix, or no answer), the cruise ends and the
    /// policy's moving positions take over, so a device walking on toward a region is not left on
    /// cell positions with nothing to wake it.
    mutating func clearanceDue(now: Date, into effects: inout [TrackerEffect]) {
        guard let cruise = clearance, case .adaptive(let policy) = mode else { return }
        guard !cruise.asked else {
            endCruise()
            applyLocationRequest(into: &effects)
            return
        }
        clearance?.asked = true
        timers[.clearance] = now.addingTimeInterval(Self.cruiseAnswerWait)
        effects.append(.requestOneShot(policy.movingAccuracy))
    }

    /// A new activity report. A confident report of walking or faster sets a stationary device moving
    /// (it set off when the reported class began): with ``MotionPolicy/stillSensing`` as it comes,
    /// without it when the app next wakes, from the motion history read then. Where the device is not
    /// judged stationary but its stay is open, such a report of a move that began after a fix last
    /// showed it at the place dates the stay's end the same way: a relaunched app restores the stay,
    /// not the stationary state, and reads the history since the terminated process's last event.
    /// Stillness ends a cruise (fine fixes then judge the stop); a faster class spends the clearance
    /// left at the new top speed, never past the cruise's end already set.
    mutating func followActivity(_ report: MotionActivity, now: Date, into effects: inout [TrackerEffect]) {
        activity = report
        guard isRunning, case .adaptive = mode else { return }
        let setsOff = report.kind != .stationary && report.confidence != .low
        if isStationary, setsOff {
            startMoving(at: now, leaving: report.start, into: &effects)
            return
        }
        if setsOff, stay.open, stay.setOff == nil, report.start > stay.lastThere, report.start < now {
            stay.lastThere = report.start
            stay.setOff = report.start
        }
        guard let clearance else { return }
        let speed = topSpeed(nil)
        let left = max(0, clearance.metres - clearance.speed * now.timeIntervalSince(clearance.from))
        if (report.kind == .stationary && report.confidence != .low) || left == 0 {
            endCruise()
        } else {
            guard speed > clearance.speed else { return }
            // A suspended cruise's distance leaves out the regions the OS settles once they are handed,
            // which a running cruise must count: one no longer safe to suspend ends.
            if clearance.suspends && left < Self.suspendedCruiseDistance(speed: speed) {
                endCruise()
            } else {
                let faster = Clearance(from: now, metres: left, speed: speed, suspends: clearance.suspends)
                self.clearance = faster
                timers[.clearance] = min(timers[.clearance] ?? faster.end, faster.end)
            }
        }
        applyLocationRequest(into: &effects)
    }
}
