import Foundation

/// Keeps the glue's calls in the order JavaScript made them.
///
/// The glue hands each call over from a native thread and cannot await it; tasks started one after
/// another may run in any order, so `setRegions` followed at once by `getRegions` could read the old
/// regions, and `startTracking` followed by `stopTracking` could leave tracking on. Each call here
/// starts once the calls before it have finished. A call that waits on the outside world (a fix
/// for `addRegionHere`, the server for `flush`, the user's answer to a dialog for
/// `requestPermission`, `locationAction` and `configureNotifications`) waits for the calls before
/// it but does not hold up the calls after it, which may start with it and run while it waits.
final class BridgeCallOrder: @unchecked Sendable {
    private let lock = NSLock()
    /// The last call that later calls wait for.
    private var last: Task<Void, Never>?

    /// Runs `work` after every earlier call that holds the line; later calls wait for this one when
    /// `holdsLine`.
    func enqueue(holdsLine: Bool, _ work: @escaping @Sendable () async -> Void) {
        lock.withLock {
            let previous = last
            let task = Task {
                await previous?.value
                await work()
            }
            if holdsLine { last = task }
        }
    }
}
