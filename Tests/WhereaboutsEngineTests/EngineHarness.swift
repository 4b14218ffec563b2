import Foundation
import Logging
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsSimulator
import WhereaboutsStore
import WhereaboutsTestSupport

/// One app on a simulated phone: a store file that outlives the app, the phone (the OS, which also
/// outlives it) and the current app process's engine. `kill()` and `relaunch()` play what iOS does.
/// The user has the app open (in the foreground) unless a test sends it to the background.
final class EngineHarness: @unchecked Sendable {
    /// Makes the uploader of each app process, on the phone's clock.
    typealias UploaderFactory = @Sendable (SQLiteLocationStore, EngineClock) -> Uploader?

    let storePath: String
    let phone: SimulatedPhone
    let scenario: Scenario
    let truth: TruthPath
    private(set) var store: SQLiteLocationStore
    private(set) var engine: LocationEngine
    private let makeUploader: UploaderFactory?
    /// What every engine of this app logged.
    let log = LogRecorder()

    init(
        scenario: Scenario = SampleScenario.commute(), pad: Double = 120, authorization: PlatformAuthorization = .unrestricted,
        configuration: TrackerConfiguration = TrackerConfiguration(mode: .adaptive()), uploader: UploaderFactory? = nil
    ) throws {
        self.scenario = scenario
        truth = TruthPath(trace: scenario.trace, pad: pad)
        phone = SimulatedPhone(truth: truth, seed: 7, authorization: authorization)
        phone.setForeground(true)
        storePath = temporaryFolder().appendingPathComponent("app.sqlite").path
        store = try SQLiteLocationStore(path: storePath)
        makeUploader = uploader
        engine = LocationEngine(
            store: store, service: phone, uploader: uploader?(store, phone.clock), configuration: configuration, clock: phone.clock,
            logger: log.logger("engine"))
    }

    /// Launches the app, adds the scenario's regions and starts tracking in `mode`.
    func startTracking(_ mode: TrackingMode) async throws {
        try await engine.launch(.user)
        try await engine.addRegions(scenario.regions)
        try await engine.start(mode: mode)
    }

    /// Seconds since the start of the truth path.
    var elapsed: Double { phone.now - truth.start }

    /// Plays the phone one second at a time up to `seconds` after the start, the engine handling
    /// everything each second produces before the next.
    func play(to seconds: Double) async { await phone.advance(to: truth.start + seconds) }

    /// Plays to the end of the path.
    func playToEnd() async { await play(to: truth.end - truth.start) }

    /// Runs `work` (a call into the engine that waits for the phone, such as a background refresh)
    /// while playing the phone one second at a time until it returns; `work` must return before the
    /// path ends. The phone waits for `work` to begin, and lets it run between seconds.
    func play<T: Sendable>(during work: @escaping @Sendable () async -> T) async -> T {
        let started = Outcome<Bool>()
        let result = Outcome<T>()
        let task = Task {
            started.set(true)
            result.set(await work())
        }
        while started.value == nil { await Task.yield() }
        while result.value == nil && phone.now < truth.end {
            await Task.yield()
            await phone.advance(to: phone.now + 1)
        }
        await task.value
        return result.value!
    }

    /// Waits until the engine has handled everything the phone has handed it.
    func settle() async { await phone.idle() }

    /// The user leaves the app: it goes to the background.
    func background() async throws {
        phone.setForeground(false)
        try await engine.appDidEnterBackground()
    }

    /// The app process is killed: the engine stops without a word; the store and the phone go on.
    func kill() async {
        await engine.shutdown()
        phone.kill()
        await phone.idle()
    }

    /// The OS (or, for `.user`, the user) starts the app again: a new store connection and a new
    /// engine on the same files.
    func relaunch(_ reason: LaunchReason) async throws -> LaunchOutcome {
        phone.relaunch()
        phone.setForeground(reason == .user)
        store = try SQLiteLocationStore(path: storePath)
        engine = LocationEngine(
            store: store, service: phone, uploader: makeUploader?(store, phone.clock), clock: phone.clock, logger: log.logger("engine"))
        let outcome = try await engine.launch(reason)
        await settle()
        return outcome
    }
}

/// A value one task sets and another reads.
final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?

    var value: T? { lock.withLock { stored } }

    func set(_ value: T) { lock.withLock { stored = value } }

    /// Changes the value set before.
    func update(_ change: (inout T) -> Void) {
        lock.withLock {
            guard var value = stored else { return }
            change(&value)
            stored = value
        }
    }
}

/// Keeps every message logged through its loggers, for tests that check a log line.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// Everything logged so far, as `level: message`.
    var messages: [String] { lock.withLock { lines } }

    /// A logger writing here.
    func logger(_ label: String) -> Logger {
        Logger(label: label) { _ in Handler(recorder: self) }
    }

    fileprivate func append(_ line: String) { lock.withLock { lines.append(line) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append("\(event.level): \(event.message)")
        }
    }
}
