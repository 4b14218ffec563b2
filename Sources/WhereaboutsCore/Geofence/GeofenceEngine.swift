import CacheHints
import Foundation

/// Keeps every region and the device's state in each, and turns fixes and OS crossings into
/// enter, exit and dwell events.
///
/// What happens in each region follows ``GeofenceRule``; this type keeps the regions and finds, for
/// each fix, the regions the rule must see. Regions live in a ``RegionIndex``; the state of each is
/// kept in flat arrays by slot, so judging a fix costs only the regions in the fix's cell plus the few
/// the device is inside. A region added with an id already present replaces the earlier one, which is
/// forgotten without an exit.
public struct GeofenceEngine: Sendable {
    /// The regions.
    public private(set) var index = RegionIndex()
    /// The device's state in each region by slot, one byte each, so that the states of a million
    /// regions stay in cache while fixes land anywhere.
    private var flags: [SlotFlags] = []

    /// The ``GeofenceRule/Status`` of one region in the low bits, and the engine's bookkeeping of the
    /// slot in the others.
    private struct SlotFlags: OptionSet {
        let rawValue: UInt8
        /// The fix being evaluated judged the region while it was undetermined.
        static let judged = SlotFlags(rawValue: 1 << 5)
        /// The slot is in `undeterminedSlots`.
        static let listed = SlotFlags(rawValue: 1 << 6)
        /// The slot is in `pendingSlots`.
        static let pendingListed = SlotFlags(rawValue: 1 << 7)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// What the rule knows of the device in the region.
        var status: GeofenceRule.Status {
            @inline(__always) get { GeofenceRule.Status(bits: rawValue) }
            set { self = SlotFlags(rawValue: rawValue & ~GeofenceRule.Status.mask | newValue.bits) }
        }
    }

    /// A transition found while judging a fix. It becomes an event once the whole fix is judged, when
    /// the region's id and notification settings are read.
    private struct Change {
        var slot: Int32
        var kind: RegionEventKind
        var initial: Bool
        /// Whether the region asks to be told of `kind`, once the changes of the fix are sorted.
        var notified = false
        /// The region id's ``RegionIDOrder`` key, once the changes of the fix are sorted.
        var key: UInt64 = 0
    }

    /// The slots the device is inside, in no order, each with when it came inside (epoch seconds).
    /// Short (the regions around one point), so finding a slot in it outside ``evaluate(_:)``, which
    /// walks it anyway, is a linear search rather than a per-slot position array of random reads.
    var inside: [(slot: Int32, since: Double)] = []
    /// The slots that may still be undetermined, each once: the next fix settles them, so it costs
    /// what was added since the last fix rather than a pass over every region.
    private var undeterminedSlots: [Int32] = []
    /// The slots of regions the device is outside of that may hold evidence of being inside, awaiting
    /// confirmation, each once. They are judged from here, so that the scan need only find the
    /// regions the fix is in (see ``collectChanges(_:_:into:)``). Only the regions the last fix
    /// reached stay pending, so the list stays short. (Inside regions, pending or not, are judged
    /// from `inside`.)
    private var pendingSlots: [Int32] = []
    var latestFix: Fix?
    /// When fixes last reported each kind of crossing of a region, kept ``GeofenceRule/fixPrecedence``
    /// seconds: the OS's late report of the same crossing must not repeat it.
    var fixCrossings = FixCrossingLog()
    /// The slots whose determined state (inside since, outside, dwell reported) changed since
    /// ``takeStateChanges(at:)`` last ran, with repeats: what a store must learn so that a relaunched
    /// app restores the states, outside ones included.
    var changedSlots: [Int32] = []
    /// Candidates and changes of the fix being judged: reused between fixes. The candidates fill the
    /// first places of `scratch`, which only grows.
    private var scratch: [RegionIndex.Candidate] = []
    private var changeScratch: [Change] = []

    /// The slots of the regions the last evaluated fix left undecided (``GeofenceRule/Outcome/undecided``).
    private var undecidedSlots: [Int32] = []
    /// The `undecidedDepth` of the fix being evaluated.
    private var undecidedDepth: Double = 1

    /// How many regions the last evaluated fix left undecided (``GeofenceRule/Outcome/undecided``).
    /// A strategy raises accuracy while this is not zero.
    public var undecidedCount: Int { undecidedSlots.count }

    /// The regions the last evaluated fix left undecided, for a strategy that leaves some of them to
    /// the OS (``MotionPolicy/osTrustRadius``).
    public var undecidedRegions: [Region] { undecidedSlots.compactMap { index.region(atSlot: $0) } }

    /// Creates an engine watching `regions` (a later duplicate id replaces an earlier one).
    public init(regions: [Region] = []) {
        add(regions)
    }

    /// The ids of the regions the device is inside, sorted.
    public var insideIDs: [String] { inside.compactMap { index.region(atSlot: $0.slot)?.id }.sorted() }

    /// The state of one region: `nil` while undetermined or unknown.
    public func state(of id: String) -> RegionState? {
        guard let slot = index.slot(of: id) else { return nil }
        return state(ofSlot: slot)
    }

    /// The state of the region in `slot`.
    func state(ofSlot slot: Int32) -> RegionState? { flags[Int(slot)].status.side }

    /// Adds regions, replacing those with the same id; their state is determined by the next fix.
    /// Of several with one id, the last replaces the others.
    public mutating func add(_ regions: [Region]) {
        guard regions.count > 1000 else {
            for region in regions { insert(region) }
            return
        }
        index.reserveCapacity(for: regions)
        let order = Self.spatialOrder(regions)
        // Taken in Z-order, a region must still give way to a later one with its id. Once a region
        // replaces another, this says where in `regions` the region in each slot filled here comes
        // from (-1 for the other slots); a batch of new ids never needs it.
        var positions: [Int32] = []
        for step in order.indices {
            var position = order[step].position
            // Each region is read from where it lies in `regions`: loading the one a few steps ahead
            // keeps that miss out of the insertions.
            if step + 8 < order.count {
                regions.withUnsafeBufferPointer { cache_hints_prefetch($0.baseAddress! + order[step + 8].position) }
            }
            var (slot, replaced) = insert(regions[position])
            if let replaced {
                if positions.isEmpty {
                    positions = slotPositions(
                        of: order[..<step].lazy.map(\.position), in: regions, replaced: replaced, by: regions[position].id)
                }
                if positions[Int(replaced)] > position {
                    position = Int(positions[Int(replaced)])
                    slot = insert(regions[position]).slot
                }
            }
            if !positions.isEmpty { positions[Int(slot)] = Int32(position) }
        }
        index.shrinkToFit()
        index.useHugePages()
    }

    /// Where in `regions` the region in each slot comes from, for the regions at `inserted`, which
    /// are all in the index but the one with `id`, replaced just now in `replaced`; -1 for every
    /// other slot.
    private func slotPositions(of inserted: some Sequence<Int>, in regions: [Region], replaced: Int32, by id: String) -> [Int32] {
        var positions = [Int32](repeating: -1, count: index.slotCapacity + regions.count)
        for position in inserted {
            let slot = regions[position].id == id ? replaced : index.slot(of: regions[position].id)
            if let slot { positions[Int(slot)] = Int32(position) }
        }
        return positions
    }

    /// Adds one region, replacing the region with its id, and returns its slot and the slot of the
    /// region it replaced; its state is determined by the next fix.
    @discardableResult
    private mutating func insert(_ region: Region) -> (slot: Int32, replaced: Int32?) {
        let (inserted, replaced) = index.insertReplacing(region)
        if let replaced {
            reset(Int(replaced))
            fixCrossings.forget(replaced)
        }
        let slot = Int(inserted)
        if slot >= flags.count {
            flags += repeatElement([], count: index.slotCapacity - flags.count)
        }
        reset(slot)
        markUndetermined(slot)
        return (inserted, replaced)
    }

    /// The positions of `regions` in Z-order of their centres, so that neighbours get neighbouring
    /// slots and a query reads a few cache lines instead of scattered ones.
    private static func spatialOrder(_ regions: [Region]) -> [(morton: UInt64, position: Int)] {
        func morton(_ region: Region) -> UInt64 {
            let row = UInt64(max(0, min(65_535, (region.center.latitude + 90) / 180 * 65_535)))
            let column = UInt64(max(0, min(65_535, (region.center.longitude + 180) / 360 * 65_535)))
            var code: UInt64 = 0
            for bit in 0..<16 {
                code |= ((row >> UInt64(bit)) & 1) << UInt64(2 * bit + 1) | ((column >> UInt64(bit)) & 1) << UInt64(2 * bit)
            }
            return code
        }
        var order = regions.indices.map { (morton: morton(regions[$0]), position: $0) }
        order.sort { $0 < $1 }
        return order
    }

    /// Forgets the device's state in every region (tracking stopped: what happens meanwhile is not
    /// known). The next fix reports the states it finds as initial, and no dwell runs on.
    public mutating func forgetStates() {
        for slot in 0..<index.slotCapacity where index.region(atSlot: Int32(slot)) != nil {
            reset(slot)
            markUndetermined(slot)
        }
        fixCrossings.forgetAll()
    }

    /// Removes regions by id. No exit is reported for a removed region.
    public mutating func remove(_ ids: [String]) {
        for id in ids {
            guard let slot = index.remove(id: id) else { continue }
            reset(Int(slot))
            fixCrossings.forget(slot)
        }
    }

    /// Forgets the device's state in `slot`; a listed slot stays listed until the next fix. The
    /// crossings fixes reported are forgotten by the caller, where the slot held a region before: a
    /// new slot has none, and a slot is freed only after they are forgotten.
    private mutating func reset(_ slot: Int) {
        withStates { engine, states in
            engine.setStatus(.undetermined, ofSlot: slot, since: .distantPast, states)
            states[slot].remove(.judged)
        }
    }

    /// The slot states as one buffer: judging many slots then checks the array's uniqueness once
    /// rather than at every write.
    private typealias States = UnsafeMutableBufferPointer<SlotFlags>

    /// Runs `body` with the slot states as ``States``; `flags` is empty meanwhile.
    private mutating func withStates<R>(_ body: (inout GeofenceEngine, States) -> R) -> R {
        var states = flags
        flags = []
        defer { flags = states }
        return states.withUnsafeMutableBufferPointer { body(&self, $0) }
    }

    /// Lists an undetermined `slot` to be settled by the next fix.
    private mutating func markUndetermined(_ slot: Int) {
        if !flags[slot].contains(.listed) { undeterminedSlots.append(Int32(slot)) }
        flags[slot].insert(.listed)
    }

    /// After a fix, the listed regions still undetermined that it could not reach are outside (it is
    /// too far from them); those it judged without evidence either way stay undetermined.
    private mutating func settleUndetermined(_ states: States) {
        var kept = 0
        for i in undeterminedSlots.indices {
            let slot = Int(undeterminedSlots[i])
            if states[slot].status.side == nil && states[slot].contains(.judged) {
                states[slot].remove(.judged)
                undeterminedSlots[kept] = Int32(slot)
                kept += 1
            } else {
                if states[slot].status.side == nil {
                    setStatus(GeofenceRule.unreached(states[slot].status), ofSlot: slot, since: .distantPast, states)
                }
                states[slot].subtract([.judged, .listed])
            }
        }
        if kept == 0 {
            undeterminedSlots = []
        } else {
            undeterminedSlots.removeLast(undeterminedSlots.count - kept)
        }
    }

    /// Judges one fix against every region it can say something about and returns the events,
    /// sorted by region id.
    ///
    /// - Parameter undecidedDepth: how far past a region's outline, as a fraction of its hysteresis
    ///   band, a fix that is no evidence leaves the region undecided (``undecidedRegions``; see
    ///   ``GeofenceRule/fix(_:signedDistance:accuracy:size:undecidedDepth:)``).
    public mutating func evaluate(_ fix: Fix, undecidedDepth: Double = 1) -> [RegionEvent] {
        latestFix = fix
        self.undecidedDepth = undecidedDepth
        undecidedSlots.removeAll(keepingCapacity: true)
        var changes = changeScratch
        changeScratch = []
        changes.removeAll(keepingCapacity: true)
        withStates { engine, states in engine.collectChanges(fix, states, into: &changes) }
        sortByID(&changes)
        noteCrossings(changes, at: fix.timestamp)
        // Written in place: appending checks the array's uniqueness and capacity for every event.
        let events = [RegionEvent](unsafeUninitializedCapacity: changes.count) { events, count in
            for change in changes where change.notified {
                (events.baseAddress! + count).initialize(
                    to: RegionEvent(
                        regionID: index.id(ofSlot: change.slot), kind: change.kind, timestamp: fix.timestamp, initial: change.initial,
                        fix: fix))
                count += 1
            }
        }
        changeScratch = changes
        return events
    }

    /// Keeps the crossings among `changes` in ``fixCrossings``, dropping those too old to matter.
    private mutating func noteCrossings(_ changes: [Change], at time: Date) {
        guard changes.contains(where: { !$0.initial }) else { return }
        fixCrossings.dropExpired(at: time)
        for change in changes where !change.initial { fixCrossings.note(change.kind, ofSlot: change.slot, at: time) }
    }

    /// Judges `fix` against the regions the device is inside and those within its reach, and
    /// settles the regions added since the last fix.
    ///
    /// Of the regions the device is settled outside of, a fix can change or leave undecided only
    /// those it lies in (see ``TransitionRule``: inside evidence, even from an exact fix, needs a
    /// negative distance to the outline). So unless regions await settling, the scan looks for
    /// those alone: a dense cluster holds several times as many regions within reach of a fix as
    /// regions containing it. The few outside regions with pending evidence, which any fix within
    /// reach can confirm or clear, are judged first, from `pendingSlots`.
    private mutating func collectChanges(_ fix: Fix, _ states: States, into changes: inout [Change]) {
        // The misses on the fix's cell and on the records of the regions the device is inside are
        // started together, to overlap each other and the work before the scan.
        index.prefetchCell(at: fix.coordinate)
        for (slot, _) in inside { index.prefetchRecord(ofSlot: slot) }
        let frame = LocalFrame(at: fix.coordinate)
        let trackJudged = !undeterminedSlots.isEmpty
        let reach = TransitionRule.reach(accuracy: fix.horizontalAccuracy)
        let leavingReach = TransitionRule.leavingReach(accuracy: fix.horizontalAccuracy)
        // Backwards, since judging a slot may move the last one into its place.
        var position = inside.count
        while position > 0 {
            position -= 1
            let slot = inside[position].slot
            let boundary = index.boundary(ofSlot: slot, from: frame, within: leavingReach)
            applyFix(slot, boundary.signedDistance, boundary.size, fix, &changes, states, insideAt: position)
        }
        judgePending(fix, frame, within: reach, states, into: &changes)
        let scanReach = trackJudged ? reach : 0
        var near = scratch
        scratch = []
        var found = Self.gather(index, within: scanReach, of: frame, states, into: &near)
        if found > near.count {
            near = Array(repeating: RegionIndex.Candidate(slot: 0, distance: 0, radius: 0, isCircle: true), count: 2 * found)
            found = Self.gather(index, within: scanReach, of: frame, states, into: &near)
        }
        // Those inside or with pending evidence were judged from their lists.
        for candidate in near[..<found] where Self.isSettledOutsideOrUndetermined(states[Int(candidate.slot)].status) {
            if trackJudged && states[Int(candidate.slot)].status.side == nil { states[Int(candidate.slot)].insert(.judged) }
            // A polygon is measured exactly, and judged by its own size rather than its enclosing circle's.
            let (distance, size) =
                candidate.isCircle
                ? (candidate.distance, candidate.radius) : index.boundary(ofSlot: candidate.slot, from: frame, within: reach)
            applyFix(candidate.slot, distance, size, fix, &changes, states, insideAt: nil)
        }
        scratch = near
        if trackJudged { settleUndetermined(states) }
    }

    /// Judges the listed regions with pending evidence that `fix` reaches (their enclosing circle
    /// within `reach` metres, as for a scan), drops the evidence of those it does not reach, and
    /// unlists those no longer pending or now inside.
    private mutating func judgePending(
        _ fix: Fix, _ frame: LocalFrame, within reach: Double, _ states: States, into changes: inout [Change]
    ) {
        var kept = 0
        for i in pendingSlots.indices {
            let slot = pendingSlots[i]
            if Self.awaitsConfirmationOutside(states[Int(slot)].status) {
                if let boundary = index.reachableBoundary(ofSlot: slot, from: frame, within: reach) {
                    applyFix(slot, boundary.signedDistance, boundary.size, fix, &changes, states, insideAt: nil)
                } else {
                    setStatus(GeofenceRule.unreached(states[Int(slot)].status), ofSlot: Int(slot), since: fix.timestamp, states)
                }
            }
            if !Self.awaitsConfirmationOutside(states[Int(slot)].status) {
                states[Int(slot)].remove(.pendingListed)
            } else {
                pendingSlots[kept] = slot
                kept += 1
            }
        }
        pendingSlots.removeLast(pendingSlots.count - kept)
    }

    /// Writes the regions within `reach` of the origin of `frame` into the first places of `near` and
    /// returns how many there are: when more than the places, only the first are written. Written in
    /// place rather than appended, which would check the array's uniqueness for every candidate.
    ///
    /// A static function of a borrowed index: a closure in a mutating method that reads the index
    /// copies it, retaining each of its arrays.
    private static func gather(
        _ index: borrowing RegionIndex, within reach: Double, of frame: LocalFrame, _ states: States,
        into near: inout [RegionIndex.Candidate]
    ) -> Int {
        var found = 0
        near.withUnsafeMutableBufferPointer { near in
            index.forEachWithin(reach, of: frame) {
                if found < near.count { near[found] = $0 }
                found += 1
                // Loading each candidate's state while the scan goes on, to be read when it is judged,
                // overlaps those cache misses with the scan. A region the fix lies in is likely entered,
                // and reporting that reads its record: loading it now overlaps that miss too.
                cache_hints_prefetch(states.baseAddress! + Int($0.slot))
                if $0.distance < 0 { index.prefetchRecord(ofSlot: $0.slot) }
            }
        }
        return found
    }

    /// Notes whether each change's region asks to be told of it, and sorts the changes of one fix by
    /// region id, comparing the ids in full only where their ``RegionIDOrder`` keys cannot tell:
    /// small records, where sorting the events afterwards moved large values and compared their
    /// strings (a fix in a dense cluster changes a dozen regions). Up to 32 changes with distinct keys
    /// go through a sorting network (``sortByKeys(_:)``); the others through an insertion sort.
    ///
    /// The changed regions' records and keys, loading since each change was found, are read in one
    /// short loop first, so that any misses left overlap instead of coming one event at a time.
    private func sortByID(_ changes: inout [Change]) {
        changes.withUnsafeMutableBufferPointer { changes in
            var keyed = true
            for i in changes.indices {
                changes[i].notified = index.notifies(ofSlot: changes[i].slot, of: changes[i].kind)
                changes[i].key = index.idKey(ofSlot: changes[i].slot)
                keyed = keyed && changes[i].key != RegionIDOrder.none
            }
            guard changes.count > 1, let base = changes.baseAddress else { return }
            if keyed && changes.count <= 32 && Self.sortByKeys(changes) { return }
            func precedes(_ change: Change, _ other: Change) -> Bool {
                keyed && change.key != other.key ? change.key < other.key : index.id(ofSlot: change.slot, precedes: other.slot)
            }
            // A binary insertion sort: a dense cluster can change a few dozen regions at once, and
            // finding each place by halving, then moving the records after it in one block, keeps that
            // from costing a comparison and a move for every pair.
            for i in 1..<changes.count {
                let change = changes[i]
                var low = 0
                var high = i
                while low < high {
                    let middle = (low + high) / 2
                    if precedes(change, changes[middle]) { high = middle } else { low = middle + 1 }
                }
                guard low < i else { continue }
                (base + low + 1).update(from: base + low, count: i - low)
                changes[low] = change
            }
        }
    }

    /// The comparators of Batcher's odd–even merge sort of 16 and of 32 places: pairs of places whose
    /// values are put in order, one pair after the other.
    private static let network16 = oddEvenMergeSort(16)
    private static let network32 = oddEvenMergeSort(32)

    /// The comparators of Batcher's odd–even merge sort of `count` places, a power of two.
    private static func oddEvenMergeSort(_ count: Int) -> [(low: Int, high: Int)] {
        var pairs: [(low: Int, high: Int)] = []
        var merged = 1
        while merged < count {
            var distance = merged
            while distance >= 1 {
                for start in stride(from: distance % merged, to: count - distance, by: 2 * distance) {
                    for i in 0..<min(distance, count - start - distance)
                    where (start + i) / (2 * merged) == (start + i + distance) / (2 * merged) {
                        pairs.append((start + i, start + i + distance))
                    }
                }
                distance /= 2
            }
            merged *= 2
        }
        return pairs
    }

    /// Sorts at most 32 `changes` by their ``RegionIDOrder`` keys, unless two keys are equal, and
    /// returns whether it did. Each key is packed with the change's position into one integer, and the
    /// integers go through a sorting network: a fixed sequence of minimums and maximums, where a binary
    /// insertion sort takes a branch the processor cannot predict at every step of every search (for
    /// the dozen changes of a fix in a dense cluster, those mispredictions cost more than the whole
    /// network).
    private static func sortByKeys(_ changes: UnsafeMutableBufferPointer<Change>) -> Bool {
        let count = changes.count
        let places = count <= 16 ? 16 : 32
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: places) { packed in
            // A key's bytes are ASCII: without their top bits, 56 bits in the same order, and 8 for the position.
            packed.initialize(repeating: .max)
            for i in 0..<count { packed[i] = compacted(changes[i].key) << 8 | UInt64(i) }
            for pair in places == 16 ? network16 : network32 {
                let (low, high) = (packed[pair.low], packed[pair.high])
                packed[pair.low] = min(low, high)
                packed[pair.high] = max(low, high)
            }
            for i in 1..<count where packed[i - 1] >> 8 == packed[i] >> 8 { return false }
            withUnsafeTemporaryAllocation(of: Change.self, capacity: count) { unsorted in
                _ = unsorted.initialize(fromContentsOf: changes)
                for i in 0..<count { changes[i] = unsorted[Int(packed[i] & 0xFF)] }
            }
            return true
        }
    }

    /// A ``RegionIDOrder`` key without the top bit of each byte, which is clear in every key but
    /// ``RegionIDOrder/none``: 56 bits, in the same order.
    @inline(__always)
    private static func compacted(_ key: UInt64) -> UInt64 {
        var bits = key
        bits = bits & 0x007F_007F_007F_007F | (bits & 0x7F00_7F00_7F00_7F00) >> 1
        bits = bits & 0x0000_3FFF_0000_3FFF | (bits & 0x3FFF_0000_3FFF_0000) >> 2
        return bits & 0x0000_0000_0FFF_FFFF | (bits & 0x0FFF_FFFF_0000_0000) >> 4
    }

    /// Whether a region is outside with evidence of being inside pending: judged from `pendingSlots`.
    @inline(__always)
    private static func awaitsConfirmationOutside(_ status: GeofenceRule.Status) -> Bool {
        status.side == .outside && status.pending != nil
    }

    /// Whether a region is neither inside nor pending, so that a scan judges it rather than a list.
    @inline(__always)
    private static func isSettledOutsideOrUndetermined(_ status: GeofenceRule.Status) -> Bool {
        status.side != .inside && status.pending == nil
    }

    /// Judges one region at signed distance `s` from the fix (its ``Region/size`` `size`) by
    /// ``GeofenceRule/fix(_:signedDistance:accuracy:size:undecidedDepth:)``. Most regions the fix reaches are
    /// settled, and the fix either agrees or says nothing about them, so their status stays as it
    /// is; the rest go on to ``record(_:ofSlot:from:_:_:_:insideAt:)``.
    @inline(__always)
    private mutating func applyFix(
        _ slot: Int32, _ s: Double, _ size: Double, _ fix: Fix, _ changes: inout [Change], _ states: States, insideAt position: Int?
    ) {
        let before = states[Int(slot)].status
        let outcome = GeofenceRule.fix(
            before, signedDistance: s, accuracy: fix.horizontalAccuracy, size: size, undecidedDepth: undecidedDepth)
        if outcome.undecided { undecidedSlots.append(slot) }
        if outcome.status != before { record(outcome, ofSlot: slot, from: fix, &changes, states, insideAt: position) }
    }

    /// Keeps what a fix did to `slot`: its status, the lists, and the change to report.
    @inline(never)
    private mutating func record(
        _ outcome: GeofenceRule.Outcome, ofSlot slot: Int32, from fix: Fix, _ changes: inout [Change], _ states: States,
        insideAt position: Int?
    ) {
        setStatus(outcome.status, ofSlot: Int(slot), since: fix.timestamp, states, insideAt: position)
        if let transition = outcome.transition {
            index.prefetchRecord(ofSlot: slot)
            changes.append(Change(slot: slot, kind: transition.kind, initial: transition.initial))
        }
        if Self.awaitsConfirmationOutside(outcome.status) && !states[Int(slot)].contains(.pendingListed) {
            states[Int(slot)].insert(.pendingListed)
            pendingSlots.append(slot)
        }
    }

    /// Sets the status of `slot`, keeping `inside` in step (a slot coming inside is listed as inside
    /// since `time`) and noting a change of its determined state for ``takeStateChanges(at:)``.
    ///
    /// - Parameter position: where the slot is in `inside`, when the caller knows.
    private mutating func setStatus(
        _ status: GeofenceRule.Status, ofSlot slot: Int, since time: Date, _ states: States, insideAt position: Int? = nil
    ) {
        let before = states[slot].status
        states[slot].status = status
        if before.side != .inside && status.side == .inside {
            inside.append((Int32(slot), time.timeIntervalSince1970))
        } else if before.side == .inside && status.side != .inside {
            removeInside(Int32(slot), at: position)
        }
        if status.side != nil && (status.side != before.side || status.dwelt != before.dwelt) { changedSlots.append(Int32(slot)) }
    }

    /// Unlists a slot from `inside`, found at `position` or searched for, by moving the last entry
    /// into its place.
    private mutating func removeInside(_ slot: Int32, at position: Int?) {
        guard let position = position ?? inside.lastIndex(where: { $0.slot == slot }) else { return }
        let last = inside.removeLast()
        if position < inside.count { inside[position] = last }
    }

    /// Applies a crossing the OS reported for a monitored region by ``GeofenceRule/osCrossing(_:to:)``,
    /// unless it yields to the latest fix (``GeofenceRule/crossingYields(to:region:crossing:at:fixesStreaming:fixesMissed:)``).
    ///
    /// An entry into a polygon region is ignored: the OS watches the polygons' enclosing circle,
    /// which the device can cross without touching them (an L-shape, buildings far apart, a
    /// courtyard), so only a fix can tell (``Tracker`` asks for one). Leaving the enclosing circle
    /// does prove leaving the polygons, and is applied.
    ///
    /// - Parameters:
    ///   - fixesStreaming: whether standard updates are on, so fixes keep judging the region.
    ///   - fixesMissed: whether fixes may have missed the crossing, so none can refute it.
    public mutating func osCrossing(
        id: String, state: RegionState, at time: Date, fixesStreaming: Bool = false, fixesMissed: Bool = false
    ) -> RegionEvent? {
        guard let slot = index.slot(of: id), let region = index.region(atSlot: slot) else { return nil }
        if state == .inside, case .polygons = region.shape { return nil }
        if GeofenceRule.crossingYields(
            to: latestFix, region: region, crossing: state, at: time, fixesStreaming: fixesStreaming, fixesMissed: fixesMissed)
            || GeofenceRule.crossingEchoes(fixCrossings[slot], crossing: state, at: time)
        {
            return nil
        }
        let transition = withStates { engine, states -> GeofenceRule.Transition? in
            let outcome = GeofenceRule.osCrossing(states[Int(slot)].status, to: state)
            engine.setStatus(outcome.status, ofSlot: Int(slot), since: time, states)
            return outcome.transition
        }
        return transition.flatMap { event(Change(slot: slot, kind: $0.kind, initial: $0.initial), at: time) }
    }

    /// The event for a `change` the OS reported, unless its region asked not to be notified of that kind.
    private func event(_ change: Change, at time: Date) -> RegionEvent? {
        guard index.notifies(ofSlot: change.slot, of: change.kind) else { return nil }
        return RegionEvent(regionID: index.id(ofSlot: change.slot), kind: change.kind, timestamp: time, initial: change.initial, fix: nil)
    }

    /// The states that changed since the last call, sorted by region id, and forgets them: each
    /// region now inside (since when, dwell reported or not) or outside (judged so at `now`). Regions
    /// still undetermined, and regions removed since, are left out. A store saving these (with
    /// ``forgetStates()`` mirrored as forgetting every state) holds what ``restore(_:)`` needs.
    public mutating func takeStateChanges(at now: Date) -> [RegionStateRecord] {
        guard !changedSlots.isEmpty else { return [] }
        let slots = Set(changedSlots)
        changedSlots = []
        var records: [RegionStateRecord] = []
        records.reserveCapacity(slots.count)
        for slot in slots {
            let status = flags[Int(slot)].status
            guard let region = index.region(atSlot: slot), status.side != nil else { continue }
            if let entry = inside.first(where: { $0.slot == slot }) {
                records.append(
                    RegionStateRecord(
                        regionID: region.id, inside: true, since: Date(timeIntervalSince1970: entry.since), dwelt: status.dwelt))
            } else {
                records.append(RegionStateRecord(regionID: region.id, inside: false, since: now, dwelt: false))
            }
        }
        return records.sorted { $0.regionID < $1.regionID }
    }

    /// Sets the states a store kept (``takeStateChanges(at:)``), as a relaunched app does before
    /// tracking resumes: a region restored inside keeps its entry time and whether its dwell was
    /// reported; one restored outside is settled, so a later fix inside it is a real entry. Regions
    /// without a record stay undetermined; records of unknown regions are ignored.
    public mutating func restore(_ records: [RegionStateRecord]) {
        withStates { engine, states in
            for record in records {
                guard let slot = engine.index.slot(of: record.regionID) else { continue }
                engine.setStatus(.undetermined, ofSlot: Int(slot), since: record.since, states)
                engine.setStatus(GeofenceRule.restored(record), ofSlot: Int(slot), since: record.since, states)
            }
        }
        changedSlots = []
    }

    /// Dwell events whose loitering delay has passed by `now`, each stamped with the moment the delay
    /// ended (not `now`), so a dwell noticed late after a suspension still carries the right time.
    public mutating func dueDwells(at now: Date) -> [RegionEvent] {
        var events: [RegionEvent] = []
        withStates { engine, states in
            for (slot, since) in engine.inside {
                let status = states[Int(slot)].status
                guard let region = engine.index.region(atSlot: slot),
                    let due = GeofenceRule.dwellDue(
                        status, since: Date(timeIntervalSince1970: since), loiteringDelay: region.loiteringDelay),
                    due <= now
                else { continue }
                engine.setStatus(GeofenceRule.dwellReported(status), ofSlot: Int(slot), since: now, states)
                events.append(RegionEvent(regionID: region.id, kind: .dwell, timestamp: due, initial: false, fix: nil))
            }
        }
        return events.sorted { $0.regionID < $1.regionID }
    }

    /// When the next dwell event falls due, if any region is waiting for one.
    public var nextDwellDue: Date? {
        inside.compactMap { slot, since in
            GeofenceRule.dwellDue(
                flags[Int(slot)].status, since: Date(timeIntervalSince1970: since),
                loiteringDelay: index.region(atSlot: slot)?.loiteringDelay)
        }.min()
    }
}
