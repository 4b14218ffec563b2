import Foundation

/// Keeps every region and the device's state in each, and turns fixes and OS crossings into
/// enter, exit and dwell events.
///
/// Regions live in a ``RegionIndex``; the state of each is kept in flat arrays by slot, so judging
/// a fix costs only the regions in the fix's cell plus the few the device is inside. A region's state
/// starts *undetermined*; the first fix that can judge it reports the state found with
/// `initial: true` (an enter when inside, nothing when outside). A region added with an id already
/// present replaces the earlier one, which is forgotten without an exit.
public struct GeofenceEngine: Sendable {
    /// The regions.
    public private(set) var index = RegionIndex()
    private var states: [SlotState] = []

    /// The device's state in one region, packed so that judging a region touches one cache line.
    private struct SlotState {
        /// When the device came inside (epoch seconds), NaN while outside.
        var insideSince = Double.nan
        /// Evidence of a change that awaits a confirming fix.
        var pendingState: RegionState?
        /// How many fixes have given `pendingState` so far.
        var pendingCount: UInt8 = 0
        /// No fix or crossing has judged the region yet.
        var undetermined = false
        /// The dwell event of the current stay has been reported.
        var dwellFired = false
        /// Where the slot is in `insideSlots`, -1 while outside.
        var insidePosition: Int32 = -1
    }
    /// The slots the device is inside, in no order.
    private var insideSlots: [Int32] = []
    private var undeterminedCount = 0
    private var latestFix: Fix?
    /// Candidates of the fix being judged, each with whether the device was outside: reused between fixes.
    private var scratch: [(candidate: RegionIndex.Candidate, outside: Bool)] = []

    /// How many regions the last evaluated fix left undecided where a more accurate fix would have
    /// changed the state: it fell in the accuracy margin beside the hysteresis band on the far side
    /// from the current state, or its evidence awaits a confirming fix. A strategy raises accuracy
    /// while this is not zero.
    public private(set) var undecidedCount = 0

    /// How long (seconds) a decisive fix outweighs an OS crossing that contradicts it: the OS reports
    /// crossings up to a few minutes late, so a fix in that window is the fresher word.
    public static let fixPrecedence: TimeInterval = 180
    /// While standard updates deliver fixes fine enough to judge a region (the last one at most this
    /// many seconds old), they decide alone: the OS's late report of the same crossing would only add noise.
    public static let freshFix: TimeInterval = 30

    /// Creates an engine watching `regions` (a later duplicate id replaces an earlier one).
    public init(regions: [Region] = []) {
        add(regions)
    }

    /// The ids of the regions the device is inside, sorted.
    public var insideIDs: [String] { insideSlots.compactMap { index.region(atSlot: $0)?.id }.sorted() }

    /// The state of one region: `nil` while undetermined or unknown.
    public func state(of id: String) -> RegionState? {
        guard let slot = index.slot(of: id), !states[Int(slot)].undetermined else { return nil }
        return states[Int(slot)].insideSince.isNaN ? .outside : .inside
    }

    /// Adds regions, replacing those with the same id; their state is determined by the next fix.
    public mutating func add(_ regions: [Region]) {
        for region in regions.count > 1000 ? Self.spatiallySorted(regions) : regions {
            remove([region.id])
            let slot = Int(index.insert(region))
            if slot >= states.count { states += repeatElement(SlotState(), count: index.slotCapacity - states.count) }
            reset(slot)
            states[slot].undetermined = true
            undeterminedCount += 1
        }
    }

    /// `regions` in Z-order of their centres, so that neighbours get neighbouring slots and a query
    /// reads a few cache lines instead of scattered ones. The last of several with one id stays last.
    private static func spatiallySorted(_ regions: [Region]) -> [Region] {
        func morton(_ region: Region) -> UInt64 {
            let row = UInt64(max(0, min(65_535, (region.center.latitude + 90) / 180 * 65_535)))
            let column = UInt64(max(0, min(65_535, (region.center.longitude + 180) / 360 * 65_535)))
            var code: UInt64 = 0
            for bit in 0..<16 {
                code |= ((row >> UInt64(bit)) & 1) << UInt64(2 * bit + 1) | ((column >> UInt64(bit)) & 1) << UInt64(2 * bit)
            }
            return code
        }
        return regions.indices.map { (morton(regions[$0]), $0) }.sorted { $0 < $1 }.map { regions[$0.1] }
    }

    /// Forgets the device's state in every region (tracking stopped: what happens meanwhile is not
    /// known). The next fix reports the states it finds as initial, and no dwell runs on.
    public mutating func forgetStates() {
        for slot in 0..<index.slotCapacity where index.region(atSlot: Int32(slot)) != nil {
            reset(slot)
            states[slot].undetermined = true
            undeterminedCount += 1
        }
    }

    /// Removes regions by id. No exit is reported for a removed region.
    public mutating func remove(_ ids: [String]) {
        for id in ids {
            guard let slot = index.remove(id: id) else { continue }
            reset(Int(slot))
        }
    }

    private mutating func reset(_ slot: Int) {
        if states[slot].undetermined { undeterminedCount -= 1 }
        states[slot].insideSince = .nan
        states[slot].undetermined = false
        states[slot].dwellFired = false
        states[slot].pendingState = nil
        states[slot].pendingCount = 0
        removeInside(slot)
    }

    /// Judges one fix against every region it can say something about and returns the events,
    /// sorted by region id.
    public mutating func evaluate(_ fix: Fix) -> [RegionEvent] {
        latestFix = fix
        undecidedCount = 0
        let frame = LocalFrame(at: fix.coordinate)
        var events: [RegionEvent] = []
        var judged: Set<Int32> = []
        let trackJudged = undeterminedCount > 0
        // Backwards, since judging a slot may move the last one into its place.
        var position = insideSlots.count
        while position > 0 {
            position -= 1
            let slot = insideSlots[position]
            let region = index.region(atSlot: slot)!
            judge(slot, frame.signedDistance(to: region), region.radius, fix, &events)
            if trackJudged { judged.insert(slot) }
        }
        var near = scratch
        scratch = []
        near.removeAll(keepingCapacity: true)
        // Reading each candidate's state as it is found lets those cache misses overlap the scan.
        index.forEachWithin(TransitionRule.reach(accuracy: fix.horizontalAccuracy), of: frame) {
            near.append(($0, states[Int($0.slot)].insideSince.isNaN))
        }
        for (candidate, outside) in near where outside {
            if trackJudged { judged.insert(candidate.slot) }
            let distance = candidate.isCircle ? candidate.distance : frame.signedDistance(to: index.region(atSlot: candidate.slot)!)
            judge(candidate.slot, distance, candidate.radius, fix, &events)
        }
        scratch = near
        if trackJudged {
            for slot in 0..<states.count where states[slot].undetermined && !judged.contains(Int32(slot)) {
                states[slot].undetermined = false
                undeterminedCount -= 1
            }
        }
        return events.count > 1 ? events.sorted { $0.regionID < $1.regionID } : events
    }

    @inline(__always)
    private mutating func judge(_ slot: Int32, _ s: Double, _ size: Double, _ fix: Fix, _ events: inout [RegionEvent]) {
        let evidence = TransitionRule.evidence(signedDistance: s, accuracy: fix.horizontalAccuracy, size: size)
        if evidence == state(atSlot: Int(slot)) && !states[Int(slot)].undetermined && states[Int(slot)].pendingState == nil { return }
        if let event = apply(evidence, slot: Int(slot), size: size, signedDistance: s, fix: fix) { events.append(event) }
        if evidence == nil, let finer = TransitionRule.evidence(signedDistance: s, accuracy: 0, size: size),
            finer != state(atSlot: Int(slot))
        {
            undecidedCount += 1
        } else if states[Int(slot)].pendingState != nil {
            undecidedCount += 1
        }
    }

    @inline(__always)
    private func state(atSlot slot: Int) -> RegionState { states[slot].insideSince.isNaN ? .outside : .inside }

    private mutating func apply(_ evidence: RegionState?, slot: Int, size: Double, signedDistance s: Double, fix: Fix) -> RegionEvent? {
        if states[slot].undetermined {
            guard let evidence else { return nil }
            states[slot].undetermined = false
            undeterminedCount -= 1
            guard evidence == .inside else { return nil }
            setInside(slot, since: fix.timestamp)
            let region = index.region(atSlot: Int32(slot))!
            return region.notifyOnEntry
                ? RegionEvent(regionID: region.id, kind: .enter, timestamp: fix.timestamp, initial: true, fix: fix) : nil
        }
        let current = state(atSlot: slot)
        guard let evidence, evidence != current else {
            if evidence == current { states[slot].pendingState = nil }
            return nil
        }
        let decisive = TransitionRule.isDecisive(evidence, signedDistance: s, accuracy: fix.horizontalAccuracy, size: size)
        let count = states[slot].pendingState == evidence ? Int(states[slot].pendingCount) + 1 : 1
        guard decisive || count >= 2 else {
            states[slot].pendingState = evidence
            states[slot].pendingCount = UInt8(count)
            return nil
        }
        states[slot].pendingState = nil
        return transition(slot, index.region(atSlot: Int32(slot))!, to: evidence, at: fix.timestamp, fix: fix)
    }

    private mutating func setInside(_ slot: Int, since time: Date) {
        states[slot].insideSince = time.timeIntervalSince1970
        guard states[slot].insidePosition < 0 else { return }
        states[slot].insidePosition = Int32(insideSlots.count)
        insideSlots.append(Int32(slot))
    }

    private mutating func removeInside(_ slot: Int) {
        let position = Int(states[slot].insidePosition)
        guard position >= 0 else { return }
        states[slot].insidePosition = -1
        let last = insideSlots.removeLast()
        if position < insideSlots.count {
            insideSlots[position] = last
            states[Int(last)].insidePosition = Int32(position)
        }
    }

    /// Applies a crossing the OS reported for a monitored region. The OS is trusted (the state flips
    /// and the event is reported unless the state already agrees) except while fixes fine enough for
    /// the region are streaming (``freshFix``), or when a fix from the last ``fixPrecedence`` seconds
    /// decisively says otherwise: the OS reports late, so those fixes are fresher.
    ///
    /// - Parameter fixesStreaming: whether standard updates are on, so fixes keep judging the region.
    public mutating func osCrossing(id: String, state: RegionState, at time: Date, fixesStreaming: Bool = false) -> RegionEvent? {
        guard let slot32 = index.slot(of: id), let region = index.region(atSlot: slot32) else { return nil }
        let slot = Int(slot32)
        if let fix = latestFix, fix.horizontalAccuracy <= region.radius {
            let age = time.timeIntervalSince(fix.timestamp)
            if fixesStreaming && age <= Self.freshFix && fix.horizontalAccuracy <= TransitionRule.decisiveAccuracy { return nil }
            let evidence = TransitionRule.evidence(
                signedDistance: region.signedDistance(from: fix.coordinate), accuracy: fix.horizontalAccuracy, size: region.radius)
            if age <= Self.fixPrecedence, let evidence, evidence != state { return nil }
        }
        states[slot].pendingState = nil
        if states[slot].undetermined {
            states[slot].undetermined = false
            undeterminedCount -= 1
            guard state == .inside else { return nil }
            setInside(slot, since: time)
            return region.notifyOnEntry
                ? RegionEvent(regionID: id, kind: .enter, timestamp: time, initial: true, fix: nil) : nil
        }
        guard state != self.state(atSlot: slot) else { return nil }
        return transition(slot, region, to: state, at: time, fix: nil)
    }

    private mutating func transition(_ slot: Int, _ region: Region, to state: RegionState, at time: Date, fix: Fix?) -> RegionEvent? {
        states[slot].dwellFired = false
        switch state {
        case .inside:
            setInside(slot, since: time)
            return region.notifyOnEntry
                ? RegionEvent(regionID: region.id, kind: .enter, timestamp: time, initial: false, fix: fix) : nil
        case .outside:
            states[slot].insideSince = .nan
            removeInside(slot)
            return region.notifyOnExit
                ? RegionEvent(regionID: region.id, kind: .exit, timestamp: time, initial: false, fix: fix) : nil
        }
    }

    /// Dwell events whose loitering delay has passed by `now`, each stamped with the moment the delay
    /// ended (not `now`), so a dwell noticed late after a suspension still carries the right time.
    public mutating func dueDwells(at now: Date) -> [RegionEvent] {
        var events: [RegionEvent] = []
        for slot in insideSlots where !states[Int(slot)].dwellFired {
            guard let region = index.region(atSlot: slot), let delay = region.loiteringDelay else { continue }
            let due = Date(timeIntervalSince1970: states[Int(slot)].insideSince + delay)
            if due <= now {
                states[Int(slot)].dwellFired = true
                events.append(RegionEvent(regionID: region.id, kind: .dwell, timestamp: due, initial: false, fix: nil))
            }
        }
        return events.sorted { $0.regionID < $1.regionID }
    }

    /// When the next dwell event falls due, if any region is waiting for one.
    public var nextDwellDue: Date? {
        insideSlots.compactMap { slot -> Date? in
            guard !states[Int(slot)].dwellFired, let delay = index.region(atSlot: slot)?.loiteringDelay else { return nil }
            return Date(timeIntervalSince1970: states[Int(slot)].insideSince + delay)
        }.min()
    }
}
