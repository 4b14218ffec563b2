import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

extension LocationEngine {
    /// Takes one event from the location service.
    func receive(_ event: LocationServiceEvent) {
        defer { diagnostics.eventsHandled += 1 }
        switch event {
        case .fix(let fix):
            diagnostics.fixes += 1
            for (_, waiter) in fixWaiters { waiter.resume(returning: fix) }
            fixWaiters.removeAll()
            handle(.fix(fix))
        case .regionCrossing(let id, let state):
            diagnostics.crossings += 1
            handle(.regionCrossing(id: id, state: state))
        case .authorizationChanged(let authorization):
            let wasAllowed = permissionCoordinator.authorization?.grantsForeground ?? false
            runPermissions(.authorizationChanged(authorization), now: clock.now())
            if authorization.grantsForeground && !wasAllowed && trackingEnabled {
                handle(.lifecycle(.locationAllowed))
            } else {
                publish()
            }
        case .failure(let failure):
            diagnostics.failures += 1
            diagnostics.lastFailure = failure
            logger.warning("\(failure)")
        }
    }

    /// Hands one input to the Tracker at the current time, after any timer that came due while the
    /// app was suspended, performs the effects and republishes the snapshot.
    func handle(_ input: TrackerInput) {
        let now = clock.now()
        fireDueTimers(now: now)
        perform(tracker.handle(input, now: now), now: now)
        publish()
    }

    /// A timer's sleep ended.
    func timerFired(_ id: TimerID, due: Date) {
        diagnostics.timerWakeups += 1
        guard timers[id]?.due == due else { return }
        let now = clock.now()
        fireDueTimers(now: now)
        publish()
    }

    private func fireDueTimers(now: Date) {
        while let (id, timer) = timers.filter({ $0.value.due <= now }).min(by: { $0.value.due < $1.value.due }) {
            timers[id] = nil
            timer.task.cancel()
            perform(tracker.handle(.timer(id), now: now), now: now)
        }
    }

    func perform(_ effects: [TrackerEffect], now: Date) {
        for effect in effects {
            switch effect {
            case .configureLocation(let request):
                if request != .off { lastTriedAt = now }
                service.configure(request)
            case .requestOneShot(let accuracy):
                lastTriedAt = now
                service.requestOneShot(accuracy)
            case .monitor(let regions):
                fencePlannedAt = now
                service.monitor(regions)
            case .scheduleTimer(let id, let due): schedule(id, at: due)
            case .cancelTimer(let id): timers.removeValue(forKey: id)?.task.cancel()
            case .record(let recorded):
                let record = LocationRecord(fix: recorded.fix, trigger: recorded.trigger)
                noteStore(recorder.append(record))
                locationBroadcast.yield(record)
            case .extendDwell: noteStore(recorder.perform(effect))
            case .emit(let event):
                noteStore(recorder.perform(effect))
                rememberState(after: event)
                eventBroadcast.yield(event)
            case .flushUploads(let reason):
                if let uploader { Task { await uploader.flush(UploadTrigger(reason)) } }
            }
        }
    }

    private func schedule(_ id: TimerID, at due: Date) {
        timers[id]?.task.cancel()
        let clock = clock
        let task = Task { [weak self] in
            do { try await clock.sleep(due) } catch { return }
            await self?.timerFired(id, due: due)
        }
        timers[id] = (due, task)
    }

    private func noteStore(_ outcome: EffectRecorder.Outcome) {
        if case .deferred(let error) = outcome { logger.error("\(error)") }
        diagnostics.storeBacklog = recorder.backlogCount
        diagnostics.storeOverflowed = recorder.overflowed
    }

    private func rememberState(after event: RegionEvent) {
        do {
            switch event.kind {
            case .enter: try store.setRegionState(event.regionID, inside: true, at: event.timestamp)
            case .exit: try store.setRegionState(event.regionID, inside: false, at: event.timestamp)
            case .dwell: try store.setRegionDwelt(event.regionID)
            }
        } catch {
            logger.error("could not store the state of region \(event.regionID): \(error)")
        }
    }

    /// Acts on what an upload brought back: server commands, and a new pending count in the snapshot.
    func uploaded(_ report: FlushReport) {
        let commands: [ServerCommand]
        do { commands = try store.takeCommands() } catch {
            logger.error("could not read server commands: \(error)")
            return publish()
        }
        for command in commands { apply(command) }
        publish()
    }

    private func apply(_ command: ServerCommand) {
        switch command {
        case .reportLocation: handle(.command(.requestFix))
        case .startActiveTracking(let minutes):
            guard trackingEnabled else { return logger.notice("server asked for active tracking while tracking is off; ignored") }
            handle(.command(.startActiveSession(duration: Double(minutes) * 60)))
        case .setRegions(let wire):
            do {
                let regions = try wire.map { region throws(ValidationError) in try region.region() }
                try setRegions(regions)
            } catch {
                logger.error("server's setRegions was refused: \(error)")
            }
        }
    }
}
