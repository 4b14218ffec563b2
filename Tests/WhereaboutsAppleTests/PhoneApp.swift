import Foundation
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsTestSupport

/// One iOS app on the emulated CoreLocation: its store file and settings outlive its processes, as the
/// OS (``EmulatedCoreLocation``) does; ``launch(uploadTo:)`` starts a process as
/// `application(_:didFinishLaunchingWithOptions:)` would, ``kill()`` ends it.
@MainActor
final class PhoneApp {
    let os: EmulatedCoreLocation
    let storePath = temporaryFolder("apple").appendingPathComponent("app.sqlite").path
    let lines = LogLines()
    let defaults = UserDefaults(suiteName: "whereabouts.tests.\(UUID().uuidString)")!
    var setup = AppSetup.complete()
    /// The refresh task's identifier the service is given; `nil` for an app that runs none.
    var refreshTask: String?
    var mode = TrackingMode.significant
    /// What the motion coprocessor does; `nil` for a device without one.
    var motion: RecordingMotion? = RecordingMotion()
    /// The modern path's runner; `nil` plays iOS 15 and 16.
    var liveUpdates: (any LiveUpdatesRunning)?
    private(set) var settingsOpened = 0
    private(set) var service: CoreLocationService!
    private(set) var engine: LocationEngine!
    private(set) var primary: EmulatedLocationManager!
    private(set) var oneShot: EmulatedLocationManager!

    init(at position: Coordinate, status: Int32 = CoreLocationConstants.authorizationAlways) {
        os = EmulatedCoreLocation(position: position)
        os.status = status
    }

    /// Starts a process: the service on two new managers, then the engine (not yet launched). Uploads
    /// wait `requestTimeout` seconds for each reply.
    func launch(uploadTo server: URL? = nil, transport: (any HTTPTransport)? = nil, requestTimeout: TimeInterval = 10) throws {
        let store = try SQLiteLocationStore(path: storePath)
        service = makeService()
        let uploader = server.map {
            Uploader(
                queue: store, endpoint: WhereaboutsBatchEndpoint(base: $0, device: "phone-1", maxBatchSize: 100),
                transport: transport ?? URLSessionTransport(),
                configuration: UploaderConfiguration(
                    batchSize: 100, requestTimeout: requestTimeout, backoff: Backoff(initial: 0.05, multiplier: 2, maximum: 0.4)))
        }
        engine = LocationEngine(store: store, service: service, uploader: uploader, configuration: TrackerConfiguration(mode: mode))
    }

    /// A process's service on two new managers, their delegate set as the app would set it.
    func makeService() -> CoreLocationService {
        primary = os.makeManager()
        oneShot = os.makeManager()
        let service = CoreLocationService(
            manager: primary, oneShotManager: oneShot, motion: motion, setup: setup, refreshTask: refreshTask, defaults: defaults,
            liveUpdates: liveUpdates,
            openSettings: { [weak self] in self?.settingsOpened += 1 }, log: lines.log)
        for manager in [primary!, oneShot!] {
            manager.receiver = service.receiver
            service.receiver.didChangeAuthorization(manager)
        }
        return service
    }

    /// The OS ends the process: the engine and its managers are gone; the OS keeps its regions.
    func kill() async {
        await engine.shutdown()
        os.killProcess()
        engine = nil
        service = nil
    }

    /// Waits until the main queue has run what the service queued on it.
    func drainMain() async {
        for _ in 0..<3 { await MainActor.run {} }
    }
}

/// CoreMotion's activity manager: counts starts; reports live only when told (``report(_:)``), and
/// answers history queries from ``history`` (the activities starting within the query's span).
final class RecordingMotion: MotionActivityManaging, @unchecked Sendable {
    private let lock = NSLock()
    private var startCount = 0
    private var handler: (@Sendable (ReportedActivity) -> Void)?
    private var recorded: [ReportedActivity] = []
    private var spans: [ClosedRange<Date>] = []
    private var answering = true
    private var allowed = true
    var isActivityAvailable: Bool { true }
    /// Whether the user allowed motion data.
    var isAuthorized: Bool {
        get { lock.withLock { allowed } }
        set { lock.withLock { allowed = newValue } }
    }
    var starts: Int { lock.withLock { startCount } }
    /// Whether history queries are answered (CoreMotion may never answer one).
    var answers: Bool {
        get { lock.withLock { answering } }
        set { lock.withLock { answering = newValue } }
    }
    /// The spans the app asked the history for.
    var queries: [ClosedRange<Date>] { lock.withLock { spans } }
    /// What the motion coprocessor recorded, oldest first.
    var history: [ReportedActivity] {
        get { lock.withLock { recorded } }
        set { lock.withLock { recorded = newValue } }
    }

    func startActivityUpdates(_ handler: @escaping @Sendable (ReportedActivity) -> Void) {
        lock.withLock {
            startCount += 1
            self.handler = handler
        }
    }

    func stopActivityUpdates() { lock.withLock { handler = nil } }

    func queryActivities(from start: Date, to end: Date, _ handler: @escaping @Sendable ([ReportedActivity]) -> Void) {
        let (found, answer) = lock.withLock {
            spans.append(start...end)
            return (recorded.filter { (start...end).contains($0.start) }, answering)
        }
        if answer { DispatchQueue.global().async { handler(found) } }
    }

    /// A live update, as CoreMotion delivers one to a running app.
    func report(_ activity: ReportedActivity) {
        lock.withLock { handler }?(activity)
    }
}

/// ``WhereaboutsTestSupport/eventually(within:_:)`` on the main actor, where the emulated OS lives:
/// polls `condition` every 20 ms, up to `limit` seconds' worth of polls; returns whether it held.
@MainActor
func soon(within limit: Double = 20, _ condition: @MainActor () async throws -> Bool) async rethrows -> Bool {
    for _ in 0..<Int((limit / 0.02).rounded(.up)) {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return try await condition()
}
