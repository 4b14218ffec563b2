import Foundation
import Logging
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsSimulator
import WhereaboutsStore

/// A fresh folder for one test's files.
func temporaryFolder() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("whereabouts-engine-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// One app on a simulated phone: a store file that outlives the app, the phone (the OS, which also
/// outlives it) and the current app process's engine. `kill()` and `relaunch()` play what iOS does.
final class EngineHarness: @unchecked Sendable {
    let storePath: String
    let phone: SimulatedPhone
    let scenario: Scenario
    let truth: TruthPath
    private(set) var store: SQLiteLocationStore
    private(set) var engine: LocationEngine
    private let makeUploader: (@Sendable (SQLiteLocationStore) -> Uploader?)?
    /// What every engine of this app logged.
    let log = LogRecorder()

    init(
        scenario: Scenario = SampleScenario.commute(), pad: Double = 120, authorization: PlatformAuthorization = .unrestricted,
        configuration: TrackerConfiguration = TrackerConfiguration(mode: .adaptive()),
        uploader: (@Sendable (SQLiteLocationStore) -> Uploader?)? = nil
    ) throws {
        self.scenario = scenario
        truth = TruthPath(trace: scenario.trace, pad: pad)
        phone = SimulatedPhone(truth: truth, seed: 7, authorization: authorization)
        storePath = temporaryFolder().appendingPathComponent("app.sqlite").path
        store = try SQLiteLocationStore(path: storePath)
        makeUploader = uploader
        engine = LocationEngine(
            store: store, service: phone, uploader: uploader?(store), configuration: configuration, clock: phone.clock,
            logger: log.logger("engine"))
    }

    /// Seconds since the start of the truth path.
    var elapsed: Double { phone.now - truth.start }

    /// Plays the phone one second at a time up to `seconds` after the start, letting the engine
    /// handle everything each second produces before the next.
    func play(to seconds: Double) async {
        while phone.now < min(truth.start + seconds, truth.end) {
            phone.advance(to: phone.now + 1)
            await settle()
        }
    }

    /// Plays to the end of the path.
    func playToEnd() async { await play(to: truth.end - truth.start) }

    /// Waits until the engine has handled every event and timer the phone has handed it.
    func settle() async {
        for _ in 0..<10_000 {
            let diagnostics = await engine.diagnostics
            if diagnostics.eventsHandled >= phone.yielded && diagnostics.timerWakeups >= phone.wakeups { break }
            await Task.yield()
        }
        for _ in 0..<3 { await Task.yield() }
    }

    /// The app process is killed: the engine stops without a word; the store and the phone go on.
    func kill() async {
        await engine.shutdown()
        phone.kill()
    }

    /// The OS starts the app again: a new store connection and a new engine on the same files.
    func relaunch(_ reason: LaunchReason) async throws -> LaunchOutcome {
        phone.relaunch()
        store = try SQLiteLocationStore(path: storePath)
        engine = LocationEngine(store: store, service: phone, uploader: makeUploader?(store), clock: phone.clock, logger: log.logger("engine"))
        let outcome = try await engine.launch(reason)
        await settle()
        return outcome
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
