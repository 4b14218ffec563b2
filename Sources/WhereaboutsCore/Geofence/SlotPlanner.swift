import Foundation

/// Chooses which regions the OS monitors, given its slot limit, and the circle it is handed for each.
public enum SlotPlanner {
    /// Plans `slots` OS slots at `position`: the `slots − 1` regions whose boundary is nearest, each
    /// as ``circle(for:state:cushion:device:handed:)`` hands it, and a refresh region centred on
    /// `position` that the OS flips to outside (its exit, which wakes the app to plan again) once the
    /// device reaches the nearest boundary left out (``RegionCushion/leavingRadius(flippingAt:)``: the
    /// OS reports an exit only some way past a circle's outline), its radius clamped to
    /// `minimumRefresh…maximumRefresh` metres (the OS is unreliable under ~100 m); `maximumRefresh`
    /// when no boundary is left out.
    ///
    /// - Parameters:
    ///   - cushion: how late the OS flips a circle's state.
    ///   - state: the engine's state of a region, by id (`nil` while undetermined, the default for
    ///     every region).
    ///   - device: where the device is: a position and how far from it the device may be, in metres.
    ///   - handed: the plan in force.
    /// - Precondition: `slots` ≥ 1.
    public static func plan(
        _ index: RegionIndex, at position: Coordinate, slots: Int, minimumRefresh: Double, maximumRefresh: Double,
        cushion: RegionCushion = .iOS, state: (String) -> RegionState? = { _ in nil },
        device: (position: Coordinate, uncertainty: Double)? = nil, handed: SlotPlan? = nil
    ) -> SlotPlan {
        plan(
            index, at: position, slots: slots, minimumRefresh: minimumRefresh, maximumRefresh: maximumRefresh, cushion: cushion,
            stateOf: { state($1.id) }, device: device, handed: handed)
    }

    /// ``plan(_:at:slots:minimumRefresh:maximumRefresh:cushion:state:device:handed:)`` over `engine`'s
    /// regions, each in the state the engine holds, read from the region's slot: among a million
    /// regions, looking each of the plan's regions up by id cost a few cache misses apiece.
    public static func plan(
        _ engine: GeofenceEngine, at position: Coordinate, slots: Int, minimumRefresh: Double, maximumRefresh: Double,
        cushion: RegionCushion = .iOS, device: (position: Coordinate, uncertainty: Double)? = nil, handed: SlotPlan? = nil
    ) -> SlotPlan {
        plan(
            engine.index, at: position, slots: slots, minimumRefresh: minimumRefresh, maximumRefresh: maximumRefresh, cushion: cushion,
            stateOf: { slot, _ in engine.state(ofSlot: slot) }, device: device, handed: handed)
    }

    /// The plan, with `stateOf` giving the state of the region in a slot.
    private static func plan(
        _ index: RegionIndex, at position: Coordinate, slots: Int, minimumRefresh: Double, maximumRefresh: Double,
        cushion: RegionCushion, stateOf: (Int32, Region) -> RegionState?, device: (position: Coordinate, uncertainty: Double)?,
        handed: SlotPlan?
    ) -> SlotPlan {
        precondition(slots >= 1, "a slot plan needs at least the refresh slot")
        let nearest = index.nearestBoundarySlots(to: position, limit: slots)
        let monitored = nearest.prefix(slots - 1)
        let reach = nearest.count == slots ? cushion.leavingRadius(flippingAt: nearest[slots - 1].distance) : maximumRefresh
        let radius = min(maximumRefresh, max(minimumRefresh, reach))
        let refresh = MonitoredRegion(id: MonitoredRegion.refreshRegionID, center: position, radius: radius)
        let inForce = handed?.byID ?? [:]
        let regions = monitored.map {
            circle(for: $0.region, state: stateOf($0.slot, $0.region), cushion: cushion, device: device, handed: inForce[$0.region.id])
        }
        return SlotPlan(
            regions: regions + [refresh], refresh: refresh, nearestBoundary: nearest.first?.distance, slots: monitored.map(\.slot))
    }

    /// `plan` with each region's circle handed again for its current state
    /// (``circle(for:state:cushion:device:handed:)``): the same regions and refresh region, resized
    /// where a state changed.
    public static func refit(
        _ plan: SlotPlan, _ index: RegionIndex, cushion: RegionCushion, state: (String) -> RegionState?,
        device: (position: Coordinate, uncertainty: Double)?
    ) -> SlotPlan {
        var regions = plan.regions
        for (position, monitored) in regions.enumerated() where monitored.id != MonitoredRegion.refreshRegionID {
            guard let region = index[monitored.id] else { continue }
            regions[position] = circle(for: region, state: state(region.id), cushion: cushion, device: device, handed: monitored)
        }
        return SlotPlan(regions: regions, refresh: plan.refresh, nearestBoundary: plan.nearestBoundary, slots: plan.slots)
    }

    /// ``refit(_:_:cushion:state:device:)`` over `engine`'s regions, each in the state the engine
    /// holds, read from its slot: the slot it had when planned while it still holds that region (none
    /// was removed meanwhile), else the one its id is found in. A loop of its own, with no closure:
    /// one that captured the engine copied it, retaining each of its arrays, at every refit.
    public static func refit(
        _ plan: SlotPlan, _ engine: GeofenceEngine, cushion: RegionCushion, device: (position: Coordinate, uncertainty: Double)?
    ) -> SlotPlan {
        var regions = plan.regions
        for (position, monitored) in regions.enumerated() where monitored.id != MonitoredRegion.refreshRegionID {
            let planned = position < plan.slots.count ? plan.slots[position] : -1
            let held = planned >= 0 && engine.index.region(atSlot: planned)?.id == monitored.id
            guard let slot = held ? planned : engine.index.slot(of: monitored.id), let region = engine.index.region(atSlot: slot) else {
                continue
            }
            regions[position] = circle(for: region, state: engine.state(ofSlot: slot), cushion: cushion, device: device, handed: monitored)
        }
        return SlotPlan(regions: regions, refresh: plan.refresh, nearestBoundary: plan.nearestBoundary, slots: plan.slots)
    }

    /// The circle the OS is handed for `region` in `state`.
    ///
    /// A circular region of known state is handed a circle the OS flips where the hysteresis band
    /// ends (``RegionCushion``): while the device is outside, a larger one whose entry the OS reports
    /// once the device is the band inside; while it is inside, a smaller one whose exit the OS
    /// reports once it is the band outside. The OS is not asked for the device's state in it: that
    /// circle's boundary lies off the region's, so the answer would say nothing about the region.
    /// The OS finds the state itself, so the circle is handed only when the OS will find the state
    /// the engine holds: when it is already handed (the OS has watched it since), or when `device`
    /// lies wholly on that side of the circle.
    ///
    /// Otherwise (an undetermined region, a polygon, whose enclosing circle is handed, a circle the
    /// cushion cannot move, or a device too near the fitted circle or of unknown position) the
    /// region is handed as it is, and the OS is asked for the device's state in it.
    public static func circle(
        for region: Region, state: RegionState?, cushion: RegionCushion,
        device: (position: Coordinate, uncertainty: Double)?, handed: MonitoredRegion?
    ) -> MonitoredRegion {
        let plain = MonitoredRegion(id: region.id, center: region.center, radius: region.radius)
        guard region.isCircle, let state else { return plain }
        let band = TransitionRule.hysteresis(radius: region.radius)
        let radius =
            state == .outside
            ? cushion.enteringRadius(flippingAt: region.radius - band)
            : cushion.leavingRadius(flippingAt: region.radius + band)
        let fitted = MonitoredRegion(id: region.id, center: region.center, radius: radius, reportsState: false)
        if handed == fitted { return fitted }
        let effective = cushion.effectiveRadius(radius)
        guard effective != cushion.effectiveRadius(region.radius), let device else { return plain }
        let distance = Geodesy.distance(device.position, region.center)
        let agrees =
            state == .outside ? distance - device.uncertainty >= effective : distance + device.uncertainty <= effective
        return agrees ? fitted : plain
    }
}
