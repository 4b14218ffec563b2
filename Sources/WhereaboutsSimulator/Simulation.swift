import Foundation
import Logging
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

/// The engine apps run (``LocationEngine``, with a real SQLite store and the real ``Uploader``) on a
/// simulated iPhone over a ground-truth path, in virtual time.
///
/// The app is in the foreground for `foregroundSeconds` at the start (launched by the user, the regions
/// added, tracking started in the configured mode), then in the background to the end of the path.
/// Everything random comes from the seed, so a run against the in-process receiver is the same for
/// the same seed. The run's events and records are read back from the store, the source of truth.
public struct Simulation: Sendable {
    private let truth: TruthPath
    private let regions: [Region]
    private let configuration: TrackerConfiguration
    private let seed: UInt64
    private let foregroundSeconds: Double
    private let storePath: String?
    private let upload: UploadTarget

    /// Creates a simulation; call ``run()`` to play it.
    /// - Parameters:
    ///   - storePath: the store to record into; `nil` uses a temporary file, removed afterwards.
    ///   - upload: where uploads go; the in-process receiver by default.
    public init(
        truth: TruthPath, regions: [Region], configuration: TrackerConfiguration, seed: UInt64, foregroundSeconds: Double = 10,
        storePath: String? = nil, upload: UploadTarget = .loopback
    ) {
        self.truth = truth
        self.regions = regions
        self.configuration = configuration
        self.seed = seed
        self.foregroundSeconds = foregroundSeconds
        self.storePath = storePath
        self.upload = upload
    }

    /// Plays the whole path and returns what the engine did.
    /// - Throws: ``StoreError`` when the store cannot be opened or read or refused writes of the run
    ///   (a full disk), ``EngineError`` when the
    ///   engine refuses the run's regions or the start.
    public func run() async throws -> SimulationOutcome {
        let folder = storePath == nil ? Self.temporaryFolder() : nil
        defer { if let folder { try? FileManager.default.removeItem(at: folder) } }
        let path = storePath ?? folder!.appendingPathComponent("run.sqlite").path
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: storePath == nil ? .dedicated : .readWrite))
        // A store used before (a run killed, or run again) keeps its rows: this run scores only its
        // own, under ids of its own.
        let earlierRecords = Set(try store.allRecords().map(\.record.id))
        let earlierEvents = Set(try store.allEvents().map(\.record.id))
        let phone = SimulatedPhone(truth: truth, seed: seed)
        let engine = LocationEngine(
            store: store, service: phone, uploader: uploader(store: store, phone: phone), configuration: configuration,
            clock: phone.clock, recordIDs: recordIDs(after: earlierRecords.count + earlierEvents.count), logger: Self.logger)

        phone.setForeground(true)
        try await engine.launch(.user)
        try await engine.addRegions(regions)
        try await engine.appDidBecomeActive()
        try await engine.start()
        await phone.advance(to: truth.start + foregroundSeconds)
        phone.setForeground(false)
        try await engine.appDidEnterBackground()
        await phone.advance(to: truth.end)
        await phone.idle()
        let storeDiagnostics = await engine.diagnostics
        await engine.shutdown()
        phone.kill()
        await phone.idle()

        let run = SimulationRun(
            events: try store.allEvents().filter { !earlierEvents.contains($0.record.id) }.map(\.record.event),
            fixes: try store.allRecords().map(\.record).filter { !earlierRecords.contains($0.id) },
            timeline: phone.timeline, uploadLags: phone.uploadLags)
        try store.close()
        let unstored = storeDiagnostics.storeBacklog + storeDiagnostics.storeOverflowed
        guard unstored == 0 else {
            throw StoreError(
                kind: .diskFull, path: path,
                problem:
                    "refused \(unstored) of the run's writes (records, stays, region events), which were never stored, as the disk "
                    + "or a file-size limit was full (the error above says which); the \(run.fixes.count) records it holds are intact",
                fix: "free disk space or raise the file-size limit, then run again")
        }
        return SimulationOutcome(run: run, diagnostics: phone.diagnostics)
    }

    /// Record ids drawn from the seed, so a run's store is the same every time; random ones when a
    /// real server receives the run, which would take a second run's records for the first's. A
    /// store that already holds `earlier` rows gets ids drawn apart from the runs before.
    private func recordIDs(after earlier: Int) -> @Sendable (Date) -> UUID {
        guard case .loopback = upload else { return { RecordID.make(at: $0) } }
        return SeededDraws(seed: seed ^ 0x2545_F491_4F6C_DD1D ^ (UInt64(earlier) &* 0x9E37_79B9_7F4A_7C15)).recordID
    }

    private func uploader(store: SQLiteLocationStore, phone: SimulatedPhone) -> Uploader {
        let draws = SeededDraws(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        switch upload {
        case .loopback:
            return Uploader(
                queue: store, endpoint: WhereaboutsBatchEndpoint(base: URL(string: "http://127.0.0.1/")!, device: "simulated-phone"),
                transport: phone.meteredTransport(LoopbackReceiver()), clock: phone.clock, jitter: draws.next)
        case .server(let base, let device, let token, let batchSize, let requestTimeout):
            return Uploader(
                queue: store, endpoint: WhereaboutsBatchEndpoint(base: base, device: device, maxBatchSize: batchSize),
                transport: phone.meteredTransport(URLSessionTransport()),
                credentials: token.map { FixedCredential(.bearer($0)) } ?? FixedCredential.none,
                configuration: UploaderConfiguration(batchSize: batchSize, requestTimeout: requestTimeout), clock: phone.clock,
                jitter: draws.next)
        }
    }

    private static let logger: Logger = {
        var logger = Logger(label: "whereabouts.simulation")
        logger.logLevel = .error
        return logger
    }()

    private static func temporaryFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("whereabouts-simulation-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Seeded draws of a simulated run (the uploader's back-off jitter, record ids), the same for the same seed.
private final class SeededDraws: @unchecked Sendable {
    private let lock = NSLock()
    private var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A draw in [0, 1).
    @Sendable func next() -> Double { lock.withLock { Double.random(in: 0..<1, using: &generator) } }

    /// A time-ordered record id for `date`, its random bits drawn from the seed.
    @Sendable func recordID(_ date: Date) -> UUID { lock.withLock { RecordID.make(at: date, using: &generator) } }
}
