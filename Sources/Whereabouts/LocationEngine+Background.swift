import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// The background task's run (iOS BGTaskScheduler): with tracking on, takes one fix, records it
    /// and uploads what is pending, all before `deadline`; the upload refreshes the credential when it
    /// has expired. With tracking off it logs a line and returns at once. Cancelling the calling task
    /// (the task's expiration) stops waiting for the fix.
    public func backgroundRefresh(until deadline: Date) async -> BackgroundRefreshOutcome {
        do { try launch(.backgroundTask) } catch {
            logger.error("background refresh could not restore the engine: \(error)")
            return .ran(fix: nil, delivered: 0, stillPending: 0)
        }
        do { try request(.backgroundRefresh, doing: "run the background refresh") } catch {
            logger.notice("tracking is disabled; the background refresh is skipped")
            return .trackingDisabled
        }
        let fix = await nextFix(before: deadline)
        if fix == nil { logger.notice("background refresh: no fix before the deadline") }
        let delivered = await drainUploads(until: deadline, trigger: .manual)?.delivered ?? 0
        let pending = (try? store.pendingCount()) ?? 0
        return .ran(fix: fix, delivered: delivered, stillPending: pending)
    }

    /// Waits for the next fix from the service, or `nil` at `deadline`.
    func nextFix(before deadline: Date) async -> Fix? {
        let id = UUID()
        let clock = clock
        let timeout = clock.spawn { [weak self] in
            do { try await clock.sleep(deadline) } catch { return }
            await self?.resumeFixWaiter(id)
        }
        defer { timeout.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { fixWaiters[id] = $0 }
        } onCancel: {
            Task { await self.resumeFixWaiter(id) }
        }
    }

    private func resumeFixWaiter(_ id: UUID) {
        fixWaiters.removeValue(forKey: id)?.resume(returning: nil)
    }
}
