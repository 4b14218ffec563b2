import Foundation

extension Tracker {
    /// Plans the OS slots at `position` and hands them to the OS, each region's circle fitted to its
    /// state where the OS will find that state (``SlotPlanner/circle(for:state:cushion:device:handed:)``).
    mutating func plan(at position: Coordinate, now: Date, into effects: inout [TrackerEffect]) {
        var maximum = configuration.maximumRefreshRadius
        if case .stationary = motion, case .adaptive(let policy) = mode { maximum = policy.stationaryRadius }
        let plan = SlotPlanner.plan(
            geofences, at: position, slots: max(1, configuration.slotCount),
            minimumRefresh: min(configuration.minimumRefreshRadius, maximum), maximumRefresh: maximum,
            cushion: configuration.regionCushion, device: device(at: now), handed: slotPlan)
        hand(plan, into: &effects)
    }

    /// Hands the OS the planned regions again when a circle no longer fits its region's state
    /// (``SlotPlanner/refit(_:_:cushion:state:device:)``).
    mutating func refitSlots(now: Date, into effects: inout [TrackerEffect]) {
        guard let slotPlan else { return }
        let refitted = SlotPlanner.refit(slotPlan, geofences, cushion: configuration.regionCushion, device: device(at: now))
        hand(refitted, into: &effects)
    }

    /// Whether the OS reporting the device `state` in the circle handed for region `id` proves it
    /// crossed the region's own boundary by the hysteresis band (``RegionCushion/proves(_:circle:regionRadius:)``).
    /// The enclosing circle of a polygon proves nothing.
    func handedCircleProves(_ state: RegionState, of id: String) -> Bool {
        guard let (region, circle) = handedCircle(of: id), region.isCircle else { return false }
        return configuration.regionCushion.proves(state, circle: circle.radius, regionRadius: region.radius)
    }

    /// Whether an OS entry into region `id` goes unheeded: the circle handed for it cannot prove the
    /// entry (``handedCircleProves(_:of:)``: on iOS a circle under 100 m flips to inside 50 m from its
    /// centre, where the device may be outside a region under 67 m), and the motion coprocessor
    /// confidently reports the device cycling or in a vehicle. At those speeds the device passes that
    /// close to many small regions it never enters, and by the time the late report arrives a fix
    /// would find it gone whether it entered or not. On foot, still, or with no report, the entry is
    /// applied as any other.
    func ignoresUnprovenEntry(into id: String) -> Bool {
        guard let activity, activity.kind >= .cycling, activity.confidence != .low,
            let (region, _) = handedCircle(of: id), region.isCircle
        else { return false }
        return !handedCircleProves(.inside, of: id)
    }

    /// Whether region `id` is a polygon, whose enclosing circle the OS watches: the OS reporting the
    /// device inside that circle says nothing of the polygon, which the device can cross the circle
    /// without touching (an L-shape, buildings far apart, a courtyard). A fix decides
    /// (``GeofenceEngine/osCrossing(id:state:at:fixesStreaming:fixesMissed:)`` ignores the entry).
    /// Leaving the circle does prove leaving the polygon.
    func entersEnclosingCircle(of id: String) -> Bool {
        guard let region = geofences.index[id], case .polygons = region.shape else { return false }
        return true
    }

    /// Whether the OS's first report of the device's state in region `id`, found when monitoring
    /// started, shows that state in the region itself (``RegionCushion/showsFirstState(_:circle:regionRadius:)``).
    /// A polygon's enclosing circle shows "outside" alone.
    func handedCircleHolds(_ state: RegionState, of id: String) -> Bool {
        guard let (region, circle) = handedCircle(of: id) else { return false }
        if state == .inside, case .polygons = region.shape { return false }
        return configuration.regionCushion.showsFirstState(state, circle: circle.radius, regionRadius: region.radius)
    }

    /// Region `id` and the circle handed to the OS for it, when it is handed.
    private func handedCircle(of id: String) -> (Region, MonitoredRegion)? {
        guard let region = geofences.index[id], let circle = slotPlan?.regions.first(where: { $0.id == id }) else { return nil }
        return (region, circle)
    }

    /// Where the device is at `now`: the last fix fine enough to plan on, and how far the device may
    /// have gone from it since, at the top speed (``topSpeed(_:)``), beyond its accuracy. A still
    /// device stays where it stopped.
    private func device(at now: Date) -> (position: Coordinate, uncertainty: Double)? {
        guard let fix = lastFix, fix.horizontalAccuracy <= Self.planningAccuracy else { return nil }
        let travelled = isStationary ? 0 : max(0, now.timeIntervalSince(fix.timestamp)) * topSpeed(fix)
        return (fix.coordinate, fix.horizontalAccuracy + travelled)
    }

    /// Makes `plan` the slot plan, and hands its regions to the OS when it differs from the one in
    /// force. The OS answers for each region handed as it is that it was not watching in that circle
    /// (``statesAsked``), once a plan was in force.
    private mutating func hand(_ plan: SlotPlan, into effects: inout [TrackerEffect]) {
        guard plan != slotPlan else { return }
        let asked = statesAsked
        statesAsked = []
        // Before the first plan the Tracker does not know what the OS watches (a relaunched app's
        // OS still watches the last process's circles, and answers for none it watched already), so
        // no report is taken for an answer. Few regions are handed as they are, and a plan holds at
        // most the OS's 20: a scan of the plan in force costs less than hashing it, and the plan
        // changes with most fixes among dense regions.
        if let inForce = slotPlan?.regions {
            for region in plan.regions where region.reportsState && region.id != MonitoredRegion.refreshRegionID {
                if !inForce.contains(region) || (!asked.isEmpty && asked.contains(region.id)) { statesAsked.insert(region.id) }
            }
        }
        slotPlan = plan
        unmonitored = []
        effects.append(.monitor(plan.regions))
    }

    /// The OS could not monitor region `id` (`nil`: one it did not name). Until the slots are handed
    /// to it again, that region (every region, for `nil`) is judged on fixes, never left to the OS
    /// (``MotionPolicy/osTrustRadius``).
    public mutating func monitoringFailed(for id: String?) {
        unmonitored.insert(id)
    }
}
