import Foundation
import Whereabouts
import WhereaboutsCore
import WhereaboutsGPSD
import WhereaboutsTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where gpsd's tools and the shared recordings are, and whether the tests against a real gpsd can run.
enum GPSDTestEnvironment {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The shared data beside the repository.
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    /// gpsd's regression logs with their `.chk` expected outputs.
    static let gpsdLogs = shared.appendingPathComponent("nmea/gpsd-test-logs")
    /// A three-hour car drive recorded by a Garmin receiver (NMEA 0183).
    static let carDrive = shared.appendingPathComponent("nmea/dotMorten-NmeaParser/NmeaSampleData.txt")

    static let gpsfake = tool("gpsfake")
    static let gpspipe = tool("gpspipe")
    static let gpsd = tool("gpsd")

    /// Whether gpsfake, gpspipe and gpsd are installed.
    static var toolsInstalled: Bool { gpsfake != nil && gpspipe != nil && gpsd != nil }
    /// Whether the shared recordings are present.
    static var logsPresent: Bool { FileManager.default.fileExists(atPath: gpsdLogs.appendingPathComponent("README").path) }

    /// Why a test cannot start gpsd's tools.
    static let toolsMissing = "gpsfake, gpspipe or gpsd is not installed: install them with apt-get install gpsd gpsd-clients"

    private static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"]
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Why a helper process could not be started.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// A TCP port on 127.0.0.1 that nothing listens on, never the same twice in one test run and, on
/// Linux, reserved against other test processes for the rest of the run.
func freePort() throws -> UInt16 {
    try PortRegistry.shared.take()
}

private final class PortRegistry: @unchecked Sendable {
    static let shared = PortRegistry()
    private let lock = NSLock()
    private var handedOut: Set<UInt16> = []

    func take() throws -> UInt16 {
        for _ in 0..<50 {
            let port = try unusedPort()
            let fresh = lock.withLock { handedOut.insert(port).inserted }
            if fresh { return port }
        }
        throw HarnessError(description: "no free TCP port on 127.0.0.1 after 50 tries")
    }

    /// A random port below Linux's ephemeral range (32768–60999) that this process now holds. Ports
    /// in that range can be taken by the local end of an outgoing connection, and a client
    /// connecting to such a port while nothing listens may even connect to itself.
    private func unusedPort() throws -> UInt16 {
        for _ in 0..<100 {
            let port = UInt16.random(in: 20_000...32_000)
            if try reserve(port) { return port }
        }
        throw HarnessError(description: "no port between 20000 and 32000 can be bound on 127.0.0.1")
    }

    /// Binds `port` exclusively; `false` when something else holds it.
    ///
    /// On Linux the socket then stays bound, unlistened, until the process exits, with
    /// `SO_REUSEADDR` set only after the exclusive bind: gpsd, which binds with `SO_REUSEADDR`
    /// too, can still listen on the port, while another test process (running these tests from
    /// another build, say) fails to bind it and picks another, so two gpsd never race for one port.
    /// Connecting to a reserved port nobody listens on is refused, as for a free one. Elsewhere
    /// the socket is closed at once, as a concurrent gpsd could not share the port.
    private func reserve(_ port: UInt16) throws -> Bool {
        let descriptor = tcpSocket()
        guard descriptor >= 0 else { throw HarnessError(description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let bound = withLoopback(port) { bind(descriptor, $0, $1) == 0 }
        #if os(Linux)
            if bound {
                var on: Int32 = 1
                _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
                return true
            }
        #endif
        close(descriptor)
        return bound
    }
}

/// A socket listening on 127.0.0.1:`port` (from ``freePort()``) that accepts nothing itself (the
/// kernel completes the handshakes), or `nil`; the caller closes it.
func loopbackListener(port: UInt16) -> Int32? {
    let descriptor = tcpSocket()
    guard descriptor >= 0 else { return nil }
    // Shares the port with the reservation ``freePort()`` holds, as gpsd does.
    var on: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    guard withLoopback(port, { bind(descriptor, $0, $1) }) == 0, listen(descriptor, 4) == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// A new TCP socket (IPv4), or -1 with `errno` set.
private func tcpSocket() -> Int32 {
    #if canImport(Darwin)
        socket(AF_INET, SOCK_STREAM, 0)
    #else
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
}

/// Calls `body` with 127.0.0.1:`port` as a socket address and its length.
private func withLoopback<T>(_ port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

/// A child process started with posix_spawn(3) in a process group of its own, with no signal
/// blocked and SIGPIPE at its default action.
///
/// Foundation's `Process` hands the child the signal mask of the thread that starts it, and Swift's
/// concurrency threads block SIGTERM; gpsd would inherit that and never see the SIGTERM gpsfake
/// sends it when a replay ends, and gpspipe would ignore ours.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var exited = false
    private var waitStatus: Int32?

    /// Starts `executable`; standard input is `input` (or /dev/null), output and error go to files.
    init(executable: String, arguments: [String], environment: [String: String], input: Int32?, output: String, error: String) throws {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
            var noSignals: sigset_t = 0
            var defaults: sigset_t = 1 << (SIGPIPE - 1)
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
            var noSignals = sigset_t()
            var defaults = sigset_t()
            sigemptyset(&noSignals)
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGPIPE)
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw HarnessError(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    /// Whether the process still runs (reaping it once it has exited).
    var isRunning: Bool {
        lock.withLock {
            guard !exited else { return false }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { waitStatus = status }
            if result == pid || result < 0 { exited = true }
            return !exited
        }
    }

    /// The exit code once the process has exited normally, `nil` while it runs or after a signal ended it.
    var exitCode: Int32? {
        _ = isRunning
        return lock.withLock { waitStatus.flatMap { $0 & 0x7f == 0 ? ($0 >> 8) & 0xff : nil } }
    }

    /// Sends `signal` to the process and everything it started.
    func signalGroup(_ signal: Int32) { kill(-pid, signal) }

    /// Waits up to `limit` seconds' worth of polls (see ``eventually(within:_:)``) for the process
    /// to exit, holding no thread meanwhile; returns whether it did.
    func exited(within limit: Double) async -> Bool {
        await eventually(within: limit) { !isRunning }
    }

    /// Blocks the calling thread up to `limit` seconds until the process exits; only for threads
    /// of the harness's own, never for Swift's cooperative threads.
    @discardableResult
    private func waitForExit(within limit: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: limit)
        while isRunning {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Ends the process group, without blocking the caller: when the process has exited, SIGKILL at
    /// once for anything it left in its group; else SIGTERM now,
    /// then, on a thread of its own, SIGKILL after `grace` seconds if the process still runs and
    /// once more for anything it left in its group, then `cleanup` (at once when the process had
    /// already exited).
    ///
    /// Tests call this from `defer` and `deinit`, that is on Swift's cooperative threads, of which a
    /// 2-core machine has two for every test of the process: a blocking wait there would stall them all.
    func terminate(grace: Double, then cleanup: @escaping @Sendable () -> Void = {}) {
        guard isRunning else {
            signalGroup(SIGKILL)  // what it started may outlive it (gpsd, when gpsfake died)
            cleanup()
            return
        }
        signalGroup(SIGTERM)
        Thread { [self] in
            if !waitForExit(within: grace) {
                signalGroup(SIGKILL)
                waitForExit(within: 10)
            }
            signalGroup(SIGKILL)
            cleanup()
        }.start()
    }
}

/// The environment of this process with `changes` applied.
private func environment(_ changes: [String: String]) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(changes) { $1 }
}

/// A gpsfake run: gpsd on 127.0.0.1:`port` reading a recording through a pseudo-terminal.
///
/// gpsfake runs in its own process group, so ``stop()`` ends gpsfake and its gpsd together; it is
/// called from `deinit` too, so a failing test leaves no process behind. gpsd's control socket and
/// gpsfake's messages go to a temporary folder, removed once they have ended.
final class GPSFake: @unchecked Sendable {
    /// How gpsfake feeds the recording.
    enum Feed {
        /// Once, as fast as gpsd reads, but only after ``GPSFake/release()``: gpsfake runs in
        /// single-step mode (`-i`) and each line waits for a newline on its standard input. gpsd
        /// opens the device at once (`-n`) rather than at the first watch, and exits `linger`
        /// seconds after the last line.
        case gated(linger: Int)
        /// Over and over, `cycle` seconds between lines. gpsd opens the device at once (`-n`) and
        /// reads it while no client watches, so gpsfake never blocks on a full pseudo-terminal.
        case looping(cycle: Double)
    }

    let port: UInt16
    private let process: ChildProcess
    private let prompts: Int32
    private let folder: URL
    private let lock = NSLock()
    private var stopped = false

    /// Starts gpsfake; gpsd listens on `port` soon after this returns.
    init(log: URL, port: UInt16, feed: Feed) throws {
        guard let gpsfake = GPSDTestEnvironment.gpsfake else { throw HarnessError(description: GPSDTestEnvironment.toolsMissing) }
        // Answering the prompts of a gpsfake that has exited must fail with EPIPE, not end the tests.
        signal(SIGPIPE, SIG_IGN)
        self.port = port
        folder = temporaryFolder("gpsfake")
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw HarnessError(description: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        prompts = ends[1]
        var arguments = ["-q", "-P", String(port)]
        var fed = log
        switch feed {
        case .gated(let linger):
            arguments += ["-1", "-i", "-n", "-W", String(linger)]
            fed = try Self.textualCopy(of: log, in: folder)
        case .looping(let cycle):
            arguments += ["-n", "-c", String(cycle)]
        }
        do {
            process = try ChildProcess(
                executable: gpsfake, arguments: arguments + [fed.path],
                environment: environment(["TMPDIR": folder.path, "PATH": "/usr/sbin:/usr/bin:/bin"]),
                input: ends[0], output: "/dev/null", error: folder.appendingPathComponent("gpsfake.stderr").path)
        } catch {
            close(ends[1])
            throw error
        }
    }

    deinit {
        stop()
        close(prompts)
    }

    /// Starts gpsfake and returns once its gpsd accepts connections on `port`, and, for a looping
    /// feed, once it reports a fix to a client (gpspipe).
    ///
    /// On a loaded machine gpsd sometimes never comes up, or goes down at once: it exits when it
    /// cannot bind the port (a gpsd stopped a moment ago may still hold it), and gpsfake then ends
    /// too. Once in a while it listens and answers a watch but reports no fix from the log for a
    /// minute (seen once in a clean-clone CI run on a loaded machine, after a few hundred starts).
    /// Such a start is tried again, `attempts` times in all; when none succeeds this throws with
    /// what gpsfake and gpsd wrote each time.
    static func started(log: URL, port: UInt16, feed: Feed, attempts: Int = 3) async throws -> GPSFake {
        var problems: [String] = []
        for attempt in 1...attempts {
            let fake = try GPSFake(log: log, port: port, feed: feed)
            let what: String
            if await eventually(within: 30, { fake.isListening || !fake.isRunning }), fake.isListening {
                guard case .looping = feed else { return fake }
                let probe = try GPSPipe(port: port)
                let reports = await eventually(within: 30) { probe.reportsFix || !probe.isRunning }
                let reported = reports && probe.reportsFix
                probe.stop()
                if reported { return fake }
                what = "gpsd listened but reported no fix within 30 s"
            } else {
                what = fake.isRunning ? "gpsd did not listen within 30 s" : "gpsfake exited before gpsd listened"
            }
            problems.append("start \(attempt): \(what); gpsfake said: \(fake.errorOutput)")
            fake.stop()
        }
        throw HarnessError(description: "gpsd never served 127.0.0.1:\(port) (\(problems.joined(separator: "; ")))")
    }

    /// Whether gpsfake (and with it its gpsd) still runs.
    var isRunning: Bool { process.isRunning }

    /// Whether gpsd accepts a TCP connection on 127.0.0.1:`port` (the probe connects and closes at once).
    var isListening: Bool {
        let descriptor = tcpSocket()
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return withLoopback(port) { connect(descriptor, $0, $1) == 0 }
    }

    /// gpsfake's single-step mode fails on logs whose first packet is binary (it cannot print
    /// them, gpsd 3.22), so such a log is fed from a temporary copy that starts with one NMEA text
    /// sentence, which gives no fix; other logs are fed as they are.
    private static func textualCopy(of log: URL, in folder: URL) throws -> URL {
        let data = try Data(contentsOf: log)
        var body = data[...]
        while body.first == UInt8(ascii: "#"), let end = body.firstIndex(of: 10) { body = body[(end + 1)...] }
        guard let first = body.first, first != UInt8(ascii: "$"), first != UInt8(ascii: "!") else { return log }
        let copy = folder.appendingPathComponent(log.lastPathComponent)
        try (Data("$GPTXT,01,01,02,gated replay*0D\r\n".utf8) + data).write(to: copy)
        return copy
    }

    /// What gpsfake and gpsd wrote on standard error, for failure messages.
    var errorOutput: String {
        (try? String(contentsOf: folder.appendingPathComponent("gpsfake.stderr"), encoding: .utf8)) ?? ""
    }

    /// Lets a gated feed run: answers gpsfake's per-line prompts from a thread of its own until
    /// gpsfake exits.
    func release() {
        let thread = Thread { [self] in
            let chunk = [UInt8](repeating: 10, count: 4096)
            while process.isRunning {
                if chunk.withUnsafeBytes({ write(prompts, $0.baseAddress, $0.count) }) < 0 && errno != EINTR { break }
            }
        }
        thread.start()
    }

    /// Ends gpsfake and its gpsd without waiting for them: SIGTERM to the process group now,
    /// SIGKILL after two seconds, and the temporary folder removed once they are gone (see
    /// ``ChildProcess/terminate(grace:then:)``). gpsd closes its connections and its port as soon
    /// as it handles the SIGTERM.
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        process.terminate(grace: 2) { [folder] in try? FileManager.default.removeItem(at: folder) }
    }
}

/// gpspipe -w: gpsd's own client, recording exactly what gpsd sends.
final class GPSPipe: @unchecked Sendable {
    private let process: ChildProcess
    private let output: URL

    init(port: UInt16) throws {
        guard let gpspipe = GPSDTestEnvironment.gpspipe else { throw HarnessError(description: GPSDTestEnvironment.toolsMissing) }
        output = temporaryFile("gpspipe", suffix: ".jsonl")
        process = try ChildProcess(
            executable: gpspipe, arguments: ["-w", "127.0.0.1:\(port)"], environment: environment([:]), input: nil,
            output: output.path, error: "/dev/null")
    }

    deinit { stop() }

    /// Whether gpspipe still runs (it exits when gpsd closes the connection).
    var isRunning: Bool { process.isRunning }

    /// The lines gpspipe has written so far.
    var lines: [String] {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Whether gpsd has answered gpspipe's watch request.
    var isWatching: Bool { lines.contains { $0.contains(#""class":"WATCH""#) } }

    /// Whether gpsd has sent gpspipe a position fix (a TPV report of mode 2 or 3).
    var reportsFix: Bool {
        lines.contains { $0.contains(#""class":"TPV""#) && ($0.contains(#""mode":2"#) || $0.contains(#""mode":3"#)) }
    }

    /// Ends gpspipe without waiting for it; its output file is removed once it is gone.
    func stop() {
        process.terminate(grace: 2) { [output] in try? FileManager.default.removeItem(at: output) }
    }
}

/// Everything a service reported, collected by a task of its own.
///
/// The service yields each event from its worker thread; this task takes it from the stream later,
/// whenever one of Swift's cooperative threads is free, which can be minutes later when synchronous
/// tests elsewhere in the process hold them all. Counts that must be exact are therefore read after
/// ``caughtUp(with:)``.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [LocationServiceEvent] = []
    private var recordedFixes: [Fix] = []
    private var recordedFailures: [LocationServiceFailure] = []
    private var task: Task<Void, Never>?

    init(_ service: GPSDLocationService) {
        task = Task { [self] in
            for await event in service.events { record(event) }
        }
    }

    deinit { task?.cancel() }

    private func record(_ event: LocationServiceEvent) {
        lock.withLock {
            recorded.append(event)
            switch event {
            case .fix(let fix): recordedFixes.append(fix)
            case .failure(let failure), .regionMonitoringFailed(_, let failure): recordedFailures.append(failure)
            case .regionCrossing, .authorizationChanged, .visit, .activity: break
            }
        }
    }

    var events: [LocationServiceEvent] { lock.withLock { recorded } }
    var fixes: [Fix] { lock.withLock { recordedFixes } }
    var fixCount: Int { lock.withLock { recordedFixes.count } }
    var failures: [LocationServiceFailure] { lock.withLock { recordedFailures } }
    var failureCount: Int { lock.withLock { recordedFailures.count } }

    /// Waits until the recorder holds every fix `service` had delivered when this was called (the
    /// service counts each fix in ``GPSDStatistics/delivered`` as it yields it); returns whether it
    /// does. Every event the service yielded before the last of those fixes is recorded as well.
    func caughtUp(with service: GPSDLocationService) async -> Bool {
        let delivered = service.statistics.delivered
        return await eventually(within: 60) { fixCount >= delivered }
    }
}

/// Runs `body` with a service connected to gpsd on 127.0.0.1:`port` and a recorder of its events,
/// and shuts the service down afterwards, also when `body` throws.
func withGPSDService<T>(
    port: UInt16, backoff: GPSDBackoff = GPSDBackoff(initial: 0.05, maximum: 0.5),
    _ body: (GPSDLocationService, EventRecorder) async throws -> T
) async throws -> T {
    let service = GPSDLocationService(host: "127.0.0.1", port: port, backoff: backoff)
    let recorder = EventRecorder(service)
    do {
        let result = try await body(service, recorder)
        await service.shutdown()
        return result
    } catch {
        await service.shutdown()
        throw error
    }
}

/// A position and time gpsd reported in a TPV with a fix.
struct ReportedPosition: Equatable, CustomStringConvertible {
    let time: Date
    let latitude: Double
    let longitude: Double

    /// The members of a TPV report the comparison needs.
    private struct TPV: Decodable {
        let `class`: String
        let mode: Int?
        let time: String?
        let lat: Double?
        let lon: Double?
    }

    /// The TPV reports with mode 2 or 3, position and time among `lines` (gpsd JSON, possibly mixed
    /// with NMEA as in `.chk` files), and how many such reports lacked a time.
    static func fromGPSD(_ lines: [String]) -> (positions: [ReportedPosition], withoutTime: Int) {
        var positions: [ReportedPosition] = []
        var withoutTime = 0
        let decoder = JSONDecoder()
        for line in lines where line.hasPrefix("{") && line.contains(#""class":"TPV""#) {
            guard let report = try? decoder.decode(TPV.self, from: Data(line.utf8)), let mode = report.mode, mode >= 2,
                let latitude = report.lat, let longitude = report.lon
            else { continue }
            guard let text = report.time, let time = Timestamp.parse(text) else {
                withoutTime += 1
                continue
            }
            positions.append(ReportedPosition(time: time, latitude: latitude, longitude: longitude))
        }
        return (positions, withoutTime)
    }

    init(time: Date, latitude: Double, longitude: Double) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
    }

    init(_ fix: Fix) {
        self.init(time: fix.timestamp, latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude)
    }

    /// Same place within 1e-6° on both axes and, unless `ignoringTime`, the same time within 1 µs.
    func matches(_ other: ReportedPosition, ignoringTime: Bool = false) -> Bool {
        abs(latitude - other.latitude) <= 1e-6 && abs(longitude - other.longitude) <= 1e-6
            && (ignoringTime || abs(time.timeIntervalSince(other.time)) < 1e-6)
    }

    var description: String { "\(Timestamp.format(time)) \(latitude),\(longitude)" }
}

/// How many of `expected` appear in `received` in the same order (each received position used at most once).
func matchedInOrder(
    _ expected: [ReportedPosition], _ received: [ReportedPosition],
    _ same: (ReportedPosition, ReportedPosition) -> Bool = { $0.matches($1) }
) -> Int {
    var next = received.startIndex
    var matched = 0
    for position in expected {
        guard let found = received[next...].firstIndex(where: { same(position, $0) }) else { continue }
        matched += 1
        next = found + 1
    }
    return matched
}
