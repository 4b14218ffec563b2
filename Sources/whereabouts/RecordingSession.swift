import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

/// Records a simulated run into a store and uploads while it runs: the simulation thread hands effects
/// to the store, and to the uploader the Tracker's flush requests and the count of new records (the
/// uploader flushes at its own threshold).
final class RecordingSession: @unchecked Sendable {
    let store: SQLiteLocationStore
    private let uploader: Uploader?
    private let lock = NSLock()
    private let recorder: EffectRecorder
    private var deferredWrites = 0
    private var lastError: StoreError?
    private let signals: AsyncStream<Signal>
    private let continuation: AsyncStream<Signal>.Continuation

    /// What the simulation thread tells the uploader.
    private enum Signal {
        case recorded(Int)
        case flush(UploadTrigger)
    }

    private let drainTimeout: TimeInterval

    /// Creates a session; at the end, uploads keep trying for at most `drainTimeout` seconds.
    init(store: SQLiteLocationStore, uploader: Uploader?, drainTimeout: TimeInterval) {
        self.drainTimeout = drainTimeout
        self.store = store
        self.uploader = uploader
        recorder = EffectRecorder(store: store)
        (signals, continuation) = AsyncStream.makeStream()
    }

    /// The simulation's observer.
    func observe(_ effect: TrackerEffect) {
        lock.lock()
        defer { lock.unlock() }
        if case .deferred(let error) = recorder.perform(effect) {
            deferredWrites += 1
            lastError = error
        }
        let appended = recorder.takeAppendedCount()
        if appended > 0 { continuation.yield(.recorded(appended)) }
        if case .flushUploads(let reason) = effect { continuation.yield(.flush(UploadTrigger(reason))) }
    }

    /// Runs `simulate` on its own thread while uploads go out, then writes any backlog, sends
    /// everything pending and returns a one-line summary.
    func run<T: Sendable>(_ simulate: @escaping @Sendable () -> T) async -> (T, String) {
        let uploads = Task { [signals, uploader] in
            for await signal in signals {
                switch signal {
                case .recorded(let count): await uploader?.recorded(count)
                case .flush(let trigger): await uploader?.flush(trigger)
                }
            }
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
