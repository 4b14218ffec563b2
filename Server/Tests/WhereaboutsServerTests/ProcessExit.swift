import Foundation

/// The end of a child process, awaited without a thread of its own. Made before the process runs, it
/// takes the process's `terminationHandler`, which Foundation calls once the child has exited.
///
/// Foundation's `waitUntilExit()` on Linux, called on a thread other than the one that ran the process,
/// spins its run loop without sleeping, so each waiting thread took a core for as long as the child
/// lived: on a 2-core machine a few of them starved every server the suite runs in its process.
final class ProcessExit: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Watches `process`, which must not have been run yet.
    init(_ process: Process) {
        process.terminationHandler = { [self] _ in
            let resumed = lock.withLock {
                ended = true
                defer { waiting = [] }
                return waiting
            }
            for continuation in resumed { continuation.resume() }
        }
    }

    /// Returns once the process has exited (at once if it already has).
    func wait() async {
        await withCheckedContinuation { continuation in
            let done = lock.withLock {
                if !ended { waiting.append(continuation) }
                return ended
            }
            if done { continuation.resume() }
        }
    }
}
