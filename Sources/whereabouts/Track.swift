import ArgumentParser
import Foundation
import Whereabouts
import WhereaboutsCore
import WhereaboutsGPSD
import WhereaboutsSimulator
import WhereaboutsStore

/// `whereabouts track`: the engine on a real GPS receiver behind gpsd, until SIGINT, SIGTERM or SIGHUP.
struct Track: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Track a GPS receiver through gpsd: record into a store, watch regions, upload.",
        discussion: """
            Runs until SIGINT, SIGTERM or SIGHUP, then stops reading gpsd, uploads what it can within --drain-timeout \
            (plus one request's --timeout) and closes the store; writes the store refused (a full disk) fail the run. \
            Prints each region event as it happens and a status line every --status-every seconds. With \
            --regions, the file's regions become the whole set (unchanged regions keep their state across runs).
            """)

    @Option(help: "gpsd's address as HOST:PORT.")
    var gpsd = "127.0.0.1:2947"

    @Option(help: "Tracking mode: \(TrackingMode.names.joined(separator: ", ")).")
    var mode = "continuous"

    @Option(help: "Metres between records (move) or the distance filter (continuous).")
    var distance: Double?

    @Option(help: "Seconds between records (move, interval).")
    var interval: Double?

    @Option(help: "Minimum metres moved (interval).")
    var displacement: Double?

    @Option(help: "A GeoJSON file of regions to watch (Point features with a radius, Polygon, MultiPolygon).")
    var regions: String?

    @Option(help: "The store file; created if missing.")
    var store = "whereabouts.sqlite"

    @Option(help: "Seconds between status lines.")
    var statusEvery: Double = 60

    @Option(
        help: """
            The most often, in seconds (0 to 86400), that new records and region events start an upload; \
            the mode's when not given (1800, 3600 for efficient). Stopping uploads at once.
            """)
    var uploadInterval: Double?

    @OptionGroup var upload: UploadOptions

    func run() async throws {
        let endpoint = try Self.parseAddress(gpsd)
        let trackingMode: TrackingMode
        do {
            trackingMode = try TrackingMode.named(mode, distance: distance, interval: interval, displacement: displacement)
        } catch {
            throw InputError("--mode: \(error)")
        }
        guard statusEvery.isFinite, (0.1...31_536_000).contains(statusEvery) else {
            throw InputError("--status-every \(statusEvery) is not a positive number of seconds from 0.1 to 31536000 (a year)")
        }
        if let uploadInterval, let problem = TrackerConfiguration.uploadIntervalProblem(uploadInterval) {
            throw InputError("--upload-interval \(problem)")
        }
        let regionList = try regions.map { path in
            do { return try RegionFile.read(at: URL(fileURLWithPath: path)) } catch { throw InputError(reading: error) }
        }
        _ = try upload.target()
        let storeFile = try StoreFile.open(store)
        let gpsTime = GPSTime()
        let uploader = try upload.uploader(for: storeFile, clock: gpsTime.clock)
        let service = GPSDLocationService(host: endpoint.host, port: endpoint.port, clock: gpsTime.clock, following: gpsTime)
        let engine = LocationEngine(
            store: storeFile, service: service, uploader: uploader, configuration: TrackerConfiguration(mode: trackingMode),
            clock: gpsTime.clock)
        // A terminal that closes (SIGHUP) stops the run as SIGINT and SIGTERM do: uploads drained,
        // the store closed; unless the run was started to outlive it (nohup ignores SIGHUP). A reader
        // of standard output that quits must not kill it either.
        let stop = SignalWaiter([SIGINT, SIGTERM] + (SignalWaiter.isIgnored(SIGHUP) ? [] : [SIGHUP]))
        signal(SIGPIPE, SIG_IGN)
        // Subscribed before the launch, which may restart tracking: no event goes unprinted.
        let events = engine.regionEvents()
        do {
            try await engine.launch(.user)
            if let regionList { try await engine.setRegions(regionList) }
            try await engine.setUploadInterval(uploadInterval)
            try await engine.start(mode: trackingMode)
        } catch {
            throw InputError(reading: error)
        }
        TrackLine.say(
            "tracking \(service.endpoint) in \(trackingMode.name) mode into \(store); \(try await engine.regions().count) regions")
        let printer = Task {
            for await event in events { TrackLine.say(TrackLine.event(event)) }
        }
        let status = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(statusEvery * 1e9))
                guard !Task.isCancelled else { return }
                TrackLine.say(await TrackLine.status(engine: engine, service: service, time: gpsTime, store: storeFile))
            }
        }
        let signal = await stop.wait()
        status.cancel()
        TrackLine.say("received \(Self.signalName(signal)); stopping")
        // No new fix while the last records go out: a moving receiver would keep the drain busy.
        await service.shutdown()
        var stranded: String?
        if let report = await engine.drainUploads(until: gpsTime.now().addingTimeInterval(upload.drainTimeout), trigger: .stopped) {
            TrackLine.say(
                "final upload: delivered \(report.delivered), rejected \(report.rejected)"
                    + (report.stoppedBy.map { ", stopped: \(upload.explain($0))" } ?? ""))
            if let stop = report.stoppedBy, stop.strands { stranded = upload.explain(stop) }
        }
        await engine.shutdown()
        TrackLine.say(await TrackLine.status(engine: engine, service: service, time: gpsTime, store: storeFile))
        await printer.value
        let diagnostics = await engine.diagnostics
        do { try storeFile.close() } catch { throw InputError(reading: error) }
        // Records no upload can send until the user fixes something fail the run, as for simulate and store flush.
        if let stranded { throw InputError("\(stranded); the records stay pending in \(store)") }
        let unstored = diagnostics.storeBacklog + diagnostics.storeOverflowed
        if unstored > 0 {
            throw InputError(
                "\(store) refused \(unstored) writes (records, stays, region events), which were never stored, as the disk or a "
                    + "file-size limit was full (\(diagnostics.lastFailure.map { "\($0)" } ?? "see the error above")); "
                    + "free disk space or raise the limit")
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "SIGTERM"
        }
    }

    /// `HOST:PORT` (`[ADDRESS]:PORT` for an IPv6 address) split and checked.
    static func parseAddress(_ text: String) throws -> (host: String, port: UInt16) {
        let refusal = InputError(
            "--gpsd \(text) is not HOST:PORT; give gpsd's address, e.g. 127.0.0.1:2947, or [::1]:2947 for an IPv6 address")
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0,
            colon > text.startIndex
        else { throw refusal }
        var host = text[..<colon]
        // An IPv6 address holds colons: only brackets tell it from the port (fe80::1 is not fe80: port 1).
        guard host.hasPrefix("[") || !host.contains(":") else { throw refusal }
        if host.hasPrefix("[") || host.hasSuffix("]") {
            guard host.count > 2, host.hasPrefix("["), host.hasSuffix("]"), host.dropFirst().dropLast().contains(":") else { throw refusal }
            host = host.dropFirst().dropLast()
        }
        return (String(host), port)
    }
}

/// The lines `track` prints.
enum TrackLine {
    /// Writes one line to standard output at once (unbuffered, so a log collector sees it live). A
    /// standard output that went away (a closed terminal, a reader that quit) loses the line, never
    /// the run: tracking, the final upload and closing the store go on.
    static func say(_ line: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    }

    static func event(_ event: RegionEvent) -> String {
        var line = "\(Timestamp.format(event.timestamp)) \(event.kind.rawValue) \(event.regionID)"
        if event.initial { line += " (state found at start)" }
        if let fix = event.fix {
            line += String(format: " at %.6f,%.6f ±%.0f m", fix.coordinate.latitude, fix.coordinate.longitude, fix.horizontalAccuracy)
        }
        return line
    }

    /// What the status line says while the engine keeps the receiver's time.
    static func clock(_ systemError: TimeInterval) -> String {
        let off = abs(systemError)
        guard off >= 1 else { return "times are the receiver's, and the system clock now agrees with it" }
        let amount =
            off < 120
            ? String(format: "%.0f s", off)
            : off < 172_800 ? String(format: "%.1f h", off / 3600) : String(format: "%.0f days", off / 86_400)
        return "times are the receiver's: the system clock is \(amount) \(systemError < 0 ? "behind" : "ahead of") it "
            + "(set it, e.g. with chrony reading gpsd)"
    }

    static func status(engine: LocationEngine, service: GPSDLocationService, time: GPSTime, store: SQLiteLocationStore) async -> String {
        let diagnostics = await engine.diagnostics
        let records = (try? store.summary().records).map(String.init) ?? "?"
        let pending = (try? store.pendingCount()).map(String.init) ?? "?"
        var line =
            "status: \(records) records (\(pending) pending upload), inside [\(await engine.insideRegionIDs.joined(separator: ", "))]; "
        line += "gpsd \(service.isWatching ? "watching" : "not connected"): \(service.statistics)"
        if let error = time.systemClockError { line += "; \(clock(error))" }
        if diagnostics.storeBacklog + diagnostics.storeOverflowed > 0 {
            line += "; the store refuses writes: \(diagnostics.storeBacklog) wait in memory, \(diagnostics.storeOverflowed) lost"
        }
        if let failure = diagnostics.lastFailure { line += "; last problem: \(failure)" }
        return line
    }
}
