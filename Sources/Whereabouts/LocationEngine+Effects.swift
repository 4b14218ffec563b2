import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

extension LocationEngine {
    /// Takes one report of the location service.
    func receive(_ event: LocationServiceEvent) {
        defer { diagnostics.eventsHandled += 1 }
        switch event {
        case .fix(let fix):
            diagnostics.fixes += 1
            for (_, waiter) in fixWaiters { waiter.resume(returning: fix) }
            fixWaiters.removeAll()
            perform(.fix(fix))
        case .regionCrossing(let id, let state):
            diagnostics.crossings += 1
            perform(.regionCrossing(id: id, state: state))
        case .visit(let visit):
            perform(.visit(visit))
        case .activity(let activity):
            perform(.activity(activity))
        case .authorizationChanged(let authorization):
            perform(.authorizationChanged(authorization))
        case .failure(let failure):
            note(failure)
        case .regionMonitoringFailed(let id, let failure):
            note(failure)
            perform(.regionMonitoringFailed(id: id))
        }
    }

    /// Counts, keeps and logs a failure the location service reported.
    private func note(_ failure: LocationServiceFailure) {
        diagnostics.failures += 1
        diagnostics.lastFailure = failure
        logger.warning("\(failure)")
    }

    /// Hands `input` to the session now and performs what it asks. The store effects are written
    /// behind: when the store refuses (a full disk) they wait in the writer's backlog, in order, and
    /// are announced once the writer reports them stored.
    func perform(_ input: SessionInput) {
        guard !isShutDown else { return }
        let now = clock.now()
        let effects = session.handle(input, now: now)
        let writes = storeWrites(effects)
        switch writer.write(writes, at: now) {
        case .written(let committed):
            let waited = committed.count - writes.count
            if waited > 0 { logger.notice("the store has room again: stored the \(waited) writes that waited") }
            announce(committed)
        case .deferred(let error, _, let firstRefusal):
            // Said once as the store starts refusing, not at every write while it refuses.
            if firstRefusal { logger.error("\(error); writes wait in memory until it has room") }
        }
        noteBacklog()
        carryOut(effects)
    }

    /// Hands an app's request to the session and performs what it asks, its store effects written
    /// through: when the store refuses, nothing changes and the request fails.
    /// - Throws: the session's refusal, or `Refusal/Code/storeFailure` naming what could not be done.
    func request(_ input: SessionInput, doing action: String) throws(EngineError) {
        guard !isShutDown else { return }
        let before = session
        let now = clock.now()
        let effects = session.handle(input, now: now)
        let committed: [StoreWrite]
        do {
            committed = try writer.writeNow(storeWrites(effects), at: now)
        } catch {
            session = before
            throw .store(error, doing: action)
        }
        announce(committed)
        noteBacklog()
        carryOut(effects)
        for case .refuse(let refusal) in effects { throw refusal }
    }

    /// The store writes of one input, in order; new records and events get their ids here, and a
    /// stay's changes name the record they change (the newest).
    private func storeWrites(_ effects: [SessionEffect]) -> [StoreWrite] {
        var newestID = newestRecord?.record.id
        return effects.compactMap { effect in
            switch effect {
            case .track(.record(let fix, let trigger)):
                let record = LocationRecord(id: recordID(fix.timestamp), fix: fix, trigger: trigger)
                newestID = record.id
                return .record(record)
            case .track(.extendDwell(let dwell, _)): return newestID.map { .dwell(dwell, of: $0) }
            case .track(.placeRecord(let fix)): return newestID.map { .place(fix, of: $0) }
            case .track(.stayEnded): return newestID.map { .session(.stayEnded($0)) }
            case .track(.emit(let event)): return .event(EventRecord(id: recordID(event.timestamp), event: event))
            case .track(.saveRegionStates(let states)): return .regionStates(states)
            case .track(.forgetRegionStates): return .forgetRegionStates
            case .store(let value): return .session(value)
            default: return nil
            }
        }
    }

    /// Tells the streams and the snapshot what the writer reports stored, in order.
    private func announce(_ committed: [StoreWrite]) {
        var changed = false
        for write in committed {
            switch write {
            case .record(let record):
                newestRecord = (record, false)
                pending.append(record)
                locationBroadcast.yield(record)
            case .dwell(let dwell, let id): update(id) { $0.dwell = dwell }
            case .place(let fix, let id): update(id) { $0.fix = fix }
            case .event(let record): eventBroadcast.yield(record.event)
            case .regionStates, .forgetRegionStates, .session: continue
            }
            changed = true
        }
        if changed { pendingVersion += 1 }
    }

    /// Changes the newest record, when it is record `id`, as its stored row was changed, in the
    /// snapshot and, unless the server refused it, among the pending ones.
    private func update(_ id: UUID, _ change: (inout LocationRecord) -> Void) {
        guard var newest = newestRecord, newest.record.id == id else { return }
        change(&newest.record)
        newestRecord = newest
        if !newest.rejected { pending.update(newest: newest.record) }
    }

    /// Performs everything but the store writes, in order, once they are written: the location
    /// service, the uploader and the log; then republishes the snapshot and sleeps until the next
    /// deadline.
    private func carryOut(_ effects: [SessionEffect]) {
        for effect in effects {
            switch effect {
            case .track(.configureLocation(let request)): service.configure(request)
            case .track(.requestOneShot(let accuracy)): service.requestOneShot(accuracy)
            case .track(.monitor(let regions)): service.monitor(regions)
            case .track(.flushUploads(let reason)):
                guard let uploader else { continue }
                let acknowledgements = session.unacknowledgedCommands
                _ = clock.spawn { await uploader.flush(UploadTrigger(reason), acknowledging: acknowledgements) }
            case .track(.record), .track(.extendDwell), .track(.stayEnded), .track(.placeRecord), .track(.emit), .track(.saveRegionStates),
                .track(.forgetRegionStates), .store,
                .refuse:
                break
            case .requestAuthorization(let kind): service.requestAuthorization(kind)
            case .openSettings: service.openSettings()
            case .notice(let message): logger.notice("\(message)")
            case .retryUploads:
                guard let uploader else { continue }
                let acknowledgements = session.unacknowledgedCommands
                _ = clock.spawn { await uploader.flush(.retry, acknowledging: acknowledgements) }
            }
        }
        publish()
        scheduleWake()
    }

    /// Tries the writes waiting for the store once more (at shutdown, the last chance to keep them).
    func retryBacklog() {
        guard writer.backlogCount > 0 else { return }
        if case .written(let committed) = writer.retry(at: clock.now()) {
            logger.notice("the store has room again: stored the \(committed.count) writes that waited")
            announce(committed)
        }
        noteBacklog()
    }

    private func noteBacklog() {
        diagnostics.storeBacklog = writer.backlogCount
        diagnostics.storeOverflowed = writer.overflowed
    }

    /// Keeps one sleeper on the clock until the session's next deadline. A sleeper due no later than
    /// the deadline is kept: it wakes the session, which fires what is due and asks again.
    private func scheduleWake() {
        guard let deadline = session.nextDeadline else { return }
        if let wake, wake.due <= deadline { return }
        wake?.task.cancel()
        let clock = clock
        let task = clock.spawn { [weak self] in
            do { try await clock.sleep(deadline) } catch { return }
            await self?.woke(due: deadline)
        }
        wake = (deadline, task)
    }

    private func woke(due: Date) {
        guard wake?.due == due else { return }
        wake = nil
        diagnostics.timerWakeups += 1
        perform(.wake)
    }

    /// Acts on what an upload did: settled records leave the snapshot's report, and the report goes to
    /// the session, which carries out the commands the server sent (the store kept them first, so a
    /// crash loses none), settles the acknowledged ones and learns when to retry.
    func uploaded(_ report: FlushReport) {
        guard !isShutDown else { return }
        let settled = Set(report.deliveredIDs + report.rejectedIDs)
        if !settled.isEmpty {
            pending.remove(settled)
            pendingVersion += 1
            if let newest = newestRecord, report.rejectedIDs.contains(newest.record.id) { newestRecord?.rejected = true }
        }
        perform(.uploaded(report))
    }
}
