import Foundation

extension Tracker {
    /// The fix pipeline: filter, follow the stay, judge regions (``judgesRegions(_:)``), re-plan
    /// slots, follow motion, record or merge.
    ///
    /// - Parameter judging: whether the fix may judge regions at all; a visit's position may not
    ///   (see ``handleVisit(_:now:into:)``).
    mutating func handleFix(_ fix: Fix, judging: Bool = true, now: Date, into effects: inout [TrackerEffect]) {
        guard isRunning || recordNextFix != nil else { return }
        if let reason = FixFilter.rejection(of: fix, after: lastFix, now: now, maxSpeed: configuration.maxSpeed) {
            statistics.rejected[reason, default: 0] += 1
            return
        }
        statistics.accepted += 1
        if judging { fixWatch.note(fix.timestamp) }
        lastFix = fix
        lastFixRecorded = false
        followStay(fix, into: &effects)
        var trigger = recordNextFix
        // A fix too coarse to record leaves the request (or the region's record) for the next one.
        if fix.horizontalAccuracy <= configuration.maxRecordAccuracy { recordNextFix = nil }
        if isRunning {
            let events = judging && judgesRegions(fix) ? judgeRegions(fix) : []
            emit(events, now: now, into: &effects)
            if events.contains(where: { !$0.initial }) { trigger = trigger ?? .region }
            followMotion(fix, now: now, into: &effects)
            // A suspended cruise hands the OS the regions nearest to where it suspends: until the
            // next wake, the OS alone watches them.
            if slotPlan?.isStale(at: fix.coordinate) ?? true || clearance?.suspends == true {
                plan(at: fix.coordinate, now: now, into: &effects)
            } else {
                refitSlots(now: now, into: &effects)
            }
            if trigger == nil, RecordPolicy.shouldRecord(fix, mode: mode, lastRecord: lastRecord, inForeground: inForeground) {
                trigger = .policy
            }
        }
        if let trigger { recordOrMerge(fix, trigger: trigger, now: now, into: &effects) }
    }

    /// Judges the regions on `fix`, at the line through the last GPS fixes (``FixLine``) in a mode
    /// that streams GPS (``streamsGPS``). The events carry `fix` itself, the fix that caused them.
    private mutating func judgeRegions(_ fix: Fix) -> [RegionEvent] {
        guard streamsGPS else { return geofences.evaluate(fix, undecidedDepth: undecidedDepth) }
        let judged = fixLine.judged(fix)
        let events = geofences.evaluate(judged, undecidedDepth: undecidedDepth)
        guard judged != fix else { return events }
        return events.map { RegionEvent(regionID: $0.regionID, kind: $0.kind, timestamp: $0.timestamp, initial: $0.initial, fix: fix) }
    }

    /// Whether the mode keeps GPS on while it positions: continuous and active tracking at GPS
    /// accuracy, move and interval modes, and a stop-detecting mode that moves on GPS. The presets
    /// move on Wi-Fi and take GPS in bursts of a few seconds near a band, too short for a line.
    var streamsGPS: Bool {
        switch mode {
        case .manual, .significant: false
        case .move, .interval: true
        case .continuous(let accuracy, _): accuracy <= .tenMeters
        case .adaptive(let policy): policy.movingAccuracy <= .tenMeters
        }
    }

    /// Follows the stay at the last record. A still fix within the merge radius, or one that leaves a
    /// stationary device still (``keepsStill(_:)``: a significant-change position arrives as soon as
    /// the device stops, often farther off than the merge radius allows), shows the device there, and
    /// the stay goes on (or resumes). A fix beyond it, or moving (``RecordPolicy/stillSpeed``),
    /// shows the device left: the stay lasted until the later of the last moment the device was seen
    /// there and the moment it must have left to reach this fix at its speed (at walking pace,
    /// ``RecordPolicy/walkingSpeed``, when the fix has none), so a distant fix after hours without
    /// positions records the stay without claiming the trip.
    private mutating func followStay(_ fix: Fix, into effects: inout [TrackerEffect]) {
        guard let last = lastRecord else { return }
        let distance = Geodesy.distance(last.coordinate, fix.coordinate)
        let radius = RecordPolicy.mergeRadius(base: configuration.mergeRadius, last, fix)
        if (distance <= radius || keepsStill(fix)) && !RecordPolicy.isMoving(fix) {
            stay.lastThere = max(stay.lastThere, fix.timestamp)
            stay.open = true
            stay.setOff = nil
            return
        }
        guard stay.open else { return }
        let pace = RecordPolicy.isMoving(fix) ? fix.speed! : RecordPolicy.walkingSpeed
        let left = fix.timestamp.addingTimeInterval(-max(0, distance - radius) / pace)
        extendStay(until: stay.setOff ?? max(stay.lastThere, left), into: &effects)
        stay.open = false
        effects.append(.stayEnded)
    }

    /// Writes the stay at the last record as lasting until `time`, when that is longer than written.
    mutating func extendStay(until time: Date, into effects: inout [TrackerEffect]) {
        guard let last = lastRecord else { return }
        let dwell = time.timeIntervalSince(last.timestamp)
        guard dwell > stay.written else { return }
        stay.written = dwell
        effects.append(.extendDwell(dwell: dwell, lastSeen: time))
    }

    /// Places `record` at `fix`, a fix merged into it, when the stay goes on there (``followStay(_:into:)``
    /// judged the fix still, and within the merge radius or leaving a stationary device still) and the
    /// fix is at least twice as precise as the position written: a stay first seen by a coarse Wi-Fi
    /// or cell fix is then kept where a later GPS fix placed it, and a stay writes only a few such
    /// updates. The stay's anchor for merging stays the record's first fix, so where a stay ends does
    /// not depend on them.
    private mutating func place(_ record: Fix, at fix: Fix, into effects: inout [TrackerEffect]) {
        guard stay.open, fix.horizontalAccuracy * 2 <= stay.placedWithin else { return }
        stay.placedWithin = fix.horizontalAccuracy
        var placed = fix
        placed.timestamp = record.timestamp
        effects.append(.placeRecord(placed))
    }

    /// Publishes the stay again in move mode, which publishes "as soon as the device moves x meters or
    /// after y seconds, whatever happens first" (OwnTracks iOS): while the device stays, the stay's
    /// record is written again (its dwell, ``TrackerEffect/extendDwell(dwell:lastSeen:)``, which makes an
    /// uploaded record pending again) once y seconds passed since it was last written, so the server
    /// sees the record updated every y seconds rather than one merged stay when the device leaves.
    private mutating func republishStay(at fix: Fix, into effects: inout [TrackerEffect]) {
        guard case .move(_, let interval) = mode, stay.open, let last = lastRecord,
            fix.timestamp.timeIntervalSince(last.timestamp) - stay.written >= interval
        else { return }
        extendStay(until: fix.timestamp, into: &effects)
    }

    /// Whether `fix` is close enough to `record` to count as the same place (``RecordPolicy/mergeRadius(base:_:_:)``).
    private static func merges(_ fix: Fix, into record: Fix, base: Double) -> Bool {
        Geodesy.distance(record.coordinate, fix.coordinate) <= RecordPolicy.mergeRadius(base: base, record, fix)
    }

    /// Whether an adaptive mode with motion sensing (the presets) keeps `fix` as a record of its own
    /// though it lies within the merge radius of `last`: the device is moving (by the fix's speed or
    /// the reported activity) and the fix adds shape to the track
    /// (``RecordPolicy/addsShape(_:after:base:)``). The fix is one the mode already took, so the track
    /// gets denser at no cost in energy.
    private func keepsShape(_ fix: Fix, after last: Fix) -> Bool {
        guard case .adaptive(let policy) = mode, policy.motionSensing, RecordPolicy.isMoving(fix) || activityShowsMotion else {
            return false
        }
        return RecordPolicy.addsShape(fix, after: last, base: configuration.mergeRadius)
    }

    /// Whether the motion coprocessor confidently reports the device on the move (walking or faster),
    /// so a fix without a speed of its own starts no stay.
    private var activityShowsMotion: Bool {
        guard let activity, activity.confidence != .low else { return false }
        return activity.kind != .stationary
    }

    /// Asks for `fix` to be recorded, or merges it into the last record when the device has not moved
    /// (within the merge radius unless a moving fix adds shape, ``keepsShape(_:after:)``, or still at its
    /// stop by ``keepsStill(_:)``; the stay is
    /// written when something shows the device left, before an upload, when tracking stops, and
    /// through a fix asked for). A new record starts a stay unless it was taken moving (by its speed
    /// or the reported activity).
    private mutating func recordOrMerge(_ fix: Fix, trigger: RecordTrigger, now: Date, into effects: inout [TrackerEffect]) {
        guard fix.horizontalAccuracy <= configuration.maxRecordAccuracy else {
            statistics.tooCoarseToRecord += 1
            return
        }
        lastFixRecorded = true
        if let last = lastRecord,
            keepsStill(fix) || Self.merges(fix, into: last, base: configuration.mergeRadius) && !keepsShape(fix, after: last)
        {
            place(last, at: fix, into: &effects)
            republishStay(at: fix, into: &effects)
            // A fix asked for (the location button, a server's reportLocation, a background refresh)
            // publishes where the device is: the stay is written through it, so the record goes out
            // again with its grown dwell.
            if trigger == .request { extendStay(until: fix.timestamp, into: &effects) }
            return
        }
        lastRecord = fix
        stay = Stay(
            lastThere: fix.timestamp, written: 0, open: !RecordPolicy.isMoving(fix) && !activityShowsMotion,
            placedWithin: fix.horizontalAccuracy)
        effects.append(.record(fix, trigger: trigger))
        recordsSinceFlush += 1
        if recordsSinceFlush >= configuration.uploadThreshold { flush(.threshold, now: now, into: &effects) }
    }
}
