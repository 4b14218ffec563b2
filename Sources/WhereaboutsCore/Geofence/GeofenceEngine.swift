import Foundation

/// Keeps every region and the device's state in each, and turns fixes and OS crossings into
/// enter, exit and dwell events.
///
/// Regions live in a ``RegionIndex``, so judging a fix costs only the regions near it plus the
/// few the device is inside. A region's state starts *undetermined*; the first fix that can judge
/// it reports the state found with `initial: true` (an enter when inside, nothing when outside).
public struct GeofenceEngine: Sendable {
    /// The regions.
    public private(set) var index = RegionIndex()
    private var inside: [String: Date] = [:]
    private var dwellFired: Set<String> = []
    private var undetermined: Set<String> = []
    private var pending: [String: (state: RegionState, count: Int)] = [:]
    private var latestFix: Fix?

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
    public var insideIDs: [String] { inside.keys.sorted() }

    /// The state of one region: `nil` while undetermined or unknown.
    public func state(of id: String) -> RegionState? {
        guard index[id] != nil, !undetermined.contains(id) else { return nil }
        return inside[id] != nil ? .inside : .outside
    }

    /// Adds regions, replacing those with the same id; their state is determined by the next fix.
    public mutating func add(_ regions: [Region]) {
        for region in regions {
            index.insert(region)
            forget(region.id)
            undetermined.insert(region.id)
        }
    }

    /// Removes regions by id. No exit is reported for a removed region.
    public mutating func remove(_ ids: [String]) {
        for id in ids {
            index.remove(id: id)
            forget(id)
        }
    }

    private mutating func forget(_ id: String) {
        inside[id] = nil
        dwellFired.remove(id)
        undetermined.remove(id)
        pending[id] = nil
    }

    /// Judges one fix against every region it can say something about and returns the events,
    /// sorted by region id.
    public mutating func evaluate(_ fix: Fix) -> [RegionEvent] {
        latestFix = fix
        let reach = TransitionRule.reach(accuracy: fix.horizontalAccuracy)
        var judged = Set<String>()
        var events: [RegionEvent] = []
        undecidedCount = 0
        var nearby = index.candidates(near: fix.coordinate, within: reach)
        for id in inside.keys where !nearby.contains(where: { $0.id == id }) {
            if let region = index[id] { nearby.append(region) }
        }
        for region in nearby {
            judged.insert(region.id)
            let d = Geodesy.distance(fix.coordinate, region.center)
            let evidence = TransitionRule.evidence(distance: d, accuracy: fix.horizontalAccuracy, radius: region.radius)
            if let event = apply(evidence, to: region, fix: fix) { events.append(event) }
            let current: RegionState = inside[region.id] != nil ? .inside : .outside
            let finer = evidence == nil ? TransitionRule.evidence(distance: d, accuracy: 0, radius: region.radius) : nil
            if finer.map({ $0 != current }) == true || pending[region.id] != nil { undecidedCount += 1 }
        }
        for id in undetermined.sorted() where !judged.contains(id) {
            undetermined.remove(id)
        }
        return events.sorted { $0.regionID < $1.regionID }
    }

    private mutating func apply(_ evidence: RegionState?, to region: Region, fix: Fix) -> RegionEvent? {
        let id = region.id
        if undetermined.contains(id) {
            guard let evidence else { return nil }
            undetermined.remove(id)
            guard evidence == .inside else { return nil }
            inside[id] = fix.timestamp
            return region.notifyOnEntry
                ? RegionEvent(regionID: id, kind: .enter, timestamp: fix.timestamp, initial: true, fix: fix) : nil
        }
        let current: RegionState = inside[id] != nil ? .inside : .outside
        guard let evidence, evidence != current else {
            if evidence == current { pending[id] = nil }
            return nil
        }
        let d = Geodesy.distance(fix.coordinate, region.center)
        let needed = TransitionRule.isDecisive(evidence, distance: d, accuracy: fix.horizontalAccuracy, radius: region.radius) ? 1 : 2
        let count = pending[id]?.state == evidence ? pending[id]!.count + 1 : 1
        guard count >= needed else {
            pending[id] = (evidence, count)
            return nil
        }
        pending[id] = nil
        return transition(region, to: evidence, at: fix.timestamp, fix: fix)
    }

    /// Applies a crossing the OS reported for a monitored region. The OS is trusted (the state flips
    /// and the event is reported unless the state already agrees) except while fixes fine enough for
    /// the region are streaming (``freshFix``), or when a fix from the last ``fixPrecedence`` seconds
    /// decisively says otherwise: the OS reports late, so those fixes are fresher.
    ///
    /// - Parameter fixesStreaming: whether standard updates are on, so fixes keep judging the region.
    public mutating func osCrossing(id: String, state: RegionState, at time: Date, fixesStreaming: Bool = false) -> RegionEvent? {
        guard let region = index[id] else { return nil }
        if let fix = latestFix, fix.horizontalAccuracy <= region.radius {
            let age = time.timeIntervalSince(fix.timestamp)
            if fixesStreaming && age <= Self.freshFix && fix.horizontalAccuracy <= TransitionRule.decisiveAccuracy { return nil }
            let evidence = TransitionRule.evidence(
                distance: Geodesy.distance(fix.coordinate, region.center), accuracy: fix.horizontalAccuracy,
                radius: region.radius)
            if age <= Self.fixPrecedence, let evidence, evidence != state { return nil }
        }
        let wasUndetermined = undetermined.remove(id) != nil
        pending[id] = nil
        let current: RegionState = inside[id] != nil ? .inside : .outside
        if wasUndetermined {
            guard state == .inside else { return nil }
            inside[id] = time
            return region.notifyOnEntry
                ? RegionEvent(regionID: id, kind: .enter, timestamp: time, initial: true, fix: nil) : nil
        }
        guard state != current else { return nil }
        return transition(region, to: state, at: time, fix: nil)
    }

    private mutating func transition(_ region: Region, to state: RegionState, at time: Date, fix: Fix?) -> RegionEvent? {
        switch state {
        case .inside:
            inside[region.id] = time
            dwellFired.remove(region.id)
            return region.notifyOnEntry
                ? RegionEvent(regionID: region.id, kind: .enter, timestamp: time, initial: false, fix: fix) : nil
        case .outside:
            inside[region.id] = nil
            dwellFired.remove(region.id)
            return region.notifyOnExit
                ? RegionEvent(regionID: region.id, kind: .exit, timestamp: time, initial: false, fix: fix) : nil
        }
    }

    /// Dwell events whose loitering delay has passed by `now`, each stamped with the moment the delay
    /// ended (not `now`), so a dwell noticed late after a suspension still carries the right time.
    public mutating func dueDwells(at now: Date) -> [RegionEvent] {
        var events: [RegionEvent] = []
        for (id, since) in inside.sorted(by: { $0.key < $1.key }) where !dwellFired.contains(id) {
            guard let delay = index[id]?.loiteringDelay else { continue }
            let due = since.addingTimeInterval(delay)
            if due <= now {
                dwellFired.insert(id)
                events.append(RegionEvent(regionID: id, kind: .dwell, timestamp: due, initial: false, fix: nil))
            }
        }
        return events
    }

    /// When the next dwell event falls due, if any region is waiting for one.
    public var nextDwellDue: Date? {
        inside.compactMap { id, since -> Date? in
            guard !dwellFired.contains(id), let delay = index[id]?.loiteringDelay else { return nil }
            return since.addingTimeInterval(delay)
        }.min()
    }
}
