import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

/// Records a simulated run into a store and uploads while it runs: the simulation thread hands effects
/// to the store and the Tracker's flush requests (its count threshold among them) to the uploader.
final class RecordingSession: @unchecked Sendable {
    let store: SQLiteLocationStore
    private let uploader: Uploader?
    private let lock = NSLock()
    private let recorder: EffectRecorder
    private var deferredWrites = 0
    private var lastError: StoreError?
    private let triggers: AsyncStream<UploadTrigger>
    private let continuation: AsyncStream<UploadTrigger>.Continuation

    private let drainTimeout: TimeInterval

    /// Creates a session; at the end, uploads keep trying for at most `drainTimeout` seconds.
    init(store: SQLiteLocationStore, uploader: Uploader?, drainTimeout: TimeInterval) {
        self.drainTimeout = drainTimeout
        self.store = store
        self.uploader = uploader
        recorder = EffectRecorder(store: store)
        (triggers, continuation) = AsyncStream.makeStream()
    }

    /// The simulation's observer.
    func observe(_ effect: TrackerEffect) {
        lock.lock()
        defer { lock.unlock() }
        if case .deferred(let error) = recorder.perform(effect) {
            deferredWrites += 1
            lastError = error
        }
        if case .flushUploads(let reason) = effect { continuation.yield(UploadTrigger(reason)) }
    }

    /// Runs `simulate` on its own thread while uploads go out, then writes any backlog, sends
    /// everything pending and returns a one-line summary.
    func run<T: Sendable>(_ simulate: @escaping @Sendable () -> T) async -> (T, String) {
        let uploads = Task { [triggers, uploader] in
            for await trigger in triggers { await uploader?.flush(trigger) }
        }
        let result = await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
            Thread { done.resume(returning: simulate()) }.start()
        }
        continuation.finish()
        await uploads.value
        let backlog = lock.withLock {
            recorder.retry()
            return recorder.backlogCount
        }
        var line = "store \(store.path)"
        if let uploader {
            let report = await uploader.drain(until: Date().addingTimeInterval(drainTimeout))
            line += ": final flush delivered \(report.delivered), rejected \(report.rejected)"
            if let stop = report.stoppedBy { line += ", stopped: \(stop)" }
        }
        if let lastError { line += "\nwarning: \(deferredWrites) writes waited for space (\(lastError)); \(backlog) still waiting" }
        return (result, line)
    }
}
