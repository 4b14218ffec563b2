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
        case .authorizationChanged(let authorization):
            perform(.authorizationChanged(authorization))
        case .failure(let failure):
            diagnostics.failures += 1
            diagnostics.lastFailure = failure
            logger.warning("\(failure)")
        }
    }

    /// Hands `input` to the session now and performs what it asks. The store effects are written
    /// behind: when the store refuses (a full disk) they wait in the writer's backlog, in order.
    func perform(_ input: SessionInput) {
        let now = clock.now()
        let effects = session.handle(input, now: now)
        let writes = Self.storeWrites(effects)
        if case .deferred(let error) = writer.write(writes.all) { logger.error("\(error)") }
        noteBacklog()
        carryOut(effects, writes: writes)
    }

    /// Hands an app's request to the session and performs what it asks, its store effects written
    /// through: when the store refuses, nothing changes and the request fails.
    /// - Throws: the session's refusal, or ``WhereaboutsCore/Refusal/Code/storeFailure`` naming what could not be done.
    func request(_ input: SessionInput, doing action: String) throws(EngineError) {
        let before = session
        let effects = session.handle(input, now: clock.now())
        let writes = Self.storeWrites(effects)
        do {
            try writer.writeNow(writes.all)
        } catch {
            session = before
            throw .store(error, doing: action)
        }
        noteBacklog()
        carryOut(effects, writes: writes)
        for case .refuse(let refusal) in effects { throw refusal }
    }

    /// The store writes of one input, in order, with the records and events built for them.
    struct Writes {
        var all: [StoreWrite] = []
        var records: [LocationRecord] = []
        var events: [RegionEvent] = []
    }

    private static func storeWrites(_ effects: [SessionEffect]) -> Writes {
        var writes = Writes()
        for effect in effects {
            switch effect {
            case .track(.record(let recorded)):
                let record = LocationRecord(fix: recorded.fix, trigger: recorded.trigger)
                writes.records.append(record)
                writes.all.append(.record(record))
            case .track(.extendDwell(let dwell, _)): writes.all.append(.dwell(dwell))
            case .track(.emit(let event)):
                writes.events.append(event)
                writes.all.append(.event(EventRecord(event: event)))
            case .track(.saveRegionStates(let states)): writes.all.append(.regionStates(states))
            case .track(.forgetRegionStates): writes.all.append(.forgetRegionStates)
            case .store(let value): writes.all.append(.session(value))
            default: break
            }
        }
        return writes
    }

    /// Performs everything but the store writes, in order, once they are written: the location
    /// service, the uploader, the streams and the in-memory snapshot.
    private func carryOut(_ effects: [SessionEffect], writes: Writes) {
        var records = writes.records.makeIterator()
        var events = writes.events.makeIterator()
        for effect in effects {
            switch effect {
            case .track(.configureLocation(let request)): service.configure(request)
            case .track(.requestOneShot(let accuracy)): service.requestOneShot(accuracy)
            case .track(.monitor(let regions)): service.monitor(regions)
            case .track(.record):
                guard let record = records.next() else { continue }
                newestRecord = (record, false)
                pending.append(record)
                pendingVersion += 1
                locationBroadcast.yield(record)
            case .track(.extendDwell(let dwell, _)):
                guard var newest = newestRecord else { continue }
                newest.record.dwell = dwell
                newestRecord = newest
                if !newest.rejected {
                    pending.update(newest: newest.record)
                    pendingVersion += 1
                }
            case .track(.emit):
                if let event = events.next() { eventBroadcast.yield(event) }
            case .track(.flushUploads(let reason)):
                guard let uploader else { continue }
                _ = clock.spawn { await uploader.flush(UploadTrigger(reason)) }
            case .track(.saveRegionStates), .track(.forgetRegionStates), .store, .refuse: break
            case .requestAuthorization(let kind): service.requestAuthorization(kind)
            case .openSettings: service.openSettings()
            case .notice(let message): logger.notice("\(message)")
            }
        }
        publish()
        scheduleWake()
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

    /// Acts on what an upload did: settled records leave the snapshot's report, and commands the
    /// server sent are carried out (the store keeps them until then, so a crash loses none).
    func uploaded(_ report: FlushReport) {
        let settled = Set(report.deliveredIDs + report.rejectedIDs)
        if !settled.isEmpty {
            pending.remove(settled)
            pendingVersion += 1
            if let newest = newestRecord, report.rejectedIDs.contains(newest.record.id) { newestRecord?.rejected = true }
        }
        if !report.commands.isEmpty {
            do {
                let commands = try store.unappliedCommands()
                if !commands.isEmpty { perform(.serverCommands(commands)) }
            } catch {
                logger.error("could not read the server's commands: \(error)")
            }
        }
        publish()
    }
}
