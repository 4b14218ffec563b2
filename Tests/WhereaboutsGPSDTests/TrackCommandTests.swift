import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsStore
import WhereaboutsTestServer
import WhereaboutsTestSupport

/// `whereabouts track`, the built executable, against gpsd fed by gpsfake.
@Suite(
    "whereabouts track on real gpsd",
    .enabled(if: GPSDTestEnvironment.toolsInstalled, "\(GPSDTestEnvironment.toolsMissing)"),
    .enabled(if: GPSDTestEnvironment.logsPresent, "../shared/nmea is absent: the gpsd logs are not replayed"))
struct TrackCommandTests {
    /// The built `whereabouts` beside the test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("whereabouts")
        .path
    /// A stationary receiver near Brisbane (-27.21074, 153.05205).
    static let log = GPSDTestEnvironment.gpsdLogs.appendingPathComponent("haicom-305N.log")

    /// Runs `whereabouts track` with `arguments` in its own process group, output to files in `folder`.
    static func track(_ arguments: [String], in folder: URL) throws -> ChildProcess {
        try ChildProcess(
            executable: executable, arguments: ["track"] + arguments, environment: ProcessInfo.processInfo.environment, input: nil,
            output: folder.appendingPathComponent("out").path, error: folder.appendingPathComponent("err").path)
    }

    static func output(_ folder: URL) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("out"), encoding: .utf8)) ?? ""
    }

    /// How many lines gpsd had sent `track` by its last status line in `output`, or nil before the first.
    static func linesRelayed(_ output: String) -> Int? {
        guard let status = output.split(whereSeparator: \.isNewline).last(where: { $0.hasPrefix("status: ") }),
            let match = status.firstMatch(of: /: (\d+) lines,/)
        else { return nil }
        return Int(match.1)
    }

    @Test("records into the store, prints region events and status lines, and stops cleanly on SIGTERM")
    func tracksUntilSIGTERM() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let regions = folder.appendingPathComponent("regions.geojson")
        try Data(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"id": "dock", "radius": 300}, "geometry": {"type": "Point", "coordinates": [153.05205, -27.21074]}},
              {"type": "Feature", "properties": {"id": "far", "radius": 100}, "geometry": {"type": "Point", "coordinates": [153.2, -27.3]}}
            ]}
            """.utf8
        ).write(to: regions)
        let storePath = folder.appendingPathComponent("track.sqlite").path
        let port = try freePort()
        var fake = try await GPSFake.started(log: Self.log, port: port, feed: .looping(cycle: 0.01))
        defer { fake.stop() }
        let process = try Self.track(
            [
                "--gpsd", "127.0.0.1:\(port)", "--mode", "continuous", "--regions", regions.path, "--store", storePath,
                "--status-every", "0.5", "--upload-interval", "600",
            ],
            in: folder)
        defer { process.terminate(grace: 5) }

        // gpsd is the test's tool, not what it tests. If it goes down, or relays nothing for 30 s
        // while the feed loops every 10 ms (each seen once on a loaded CI machine: gpsd sent its
        // greeting, then no report for two minutes), a new one takes its place and `track` must
        // reconnect to it, as it would to a restarted gpsd in the field. Why each was replaced goes
        // into the failure message.
        var replacements: [String] = []
        var linesSeen: Int?
        var lastProgress = Date()
        let sawEverything = try await eventually(within: 150) {
            let out = Self.output(folder)
            let lines = Self.linesRelayed(out)
            if lines != linesSeen {
                linesSeen = lines
                lastProgress = Date()
            }
            let stalled = Date().timeIntervalSince(lastProgress) > 30
            if !fake.isRunning || stalled {
                replacements.append(
                    fake.isRunning
                        ? "gpsd relayed nothing for 30 s after \(lines.map(String.init) ?? "no") lines"
                        : "it went down: \(fake.errorOutput)")
                fake.stop()
                fake = try await GPSFake.started(log: Self.log, port: port, feed: .looping(cycle: 0.01))
                lastProgress = Date()
            }
            // A status line counting a record: the first fixes of this receiver are too coarse to record.
            return out.contains("enter dock") && out.range(of: #"status: [1-9][0-9]* records"#, options: .regularExpression) != nil
        }
        #expect(
            sawEverything,
            "stdout: \(Self.output(folder)); gpsfake said: \(fake.errorOutput); gpsd replaced \(replacements.count) times: \(replacements)")
        process.signalGroup(SIGTERM)
        #expect(await process.exited(within: 30))
        #expect(process.exitCode == 0)
        let out = Self.output(folder)
        #expect(out.contains("received SIGTERM; stopping"))
        #expect(out.contains("inside [dock]"))

        let store = try SQLiteLocationStore(path: storePath)
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.allRecords().count >= 1)
        #expect(try store.allEvents().map { "\($0.record.event.regionID) \($0.record.event.kind)" }.first == "dock enter")
        #expect(try store.regions().map(\.id) == ["dock", "far"])
        #expect(try store.setting(.trackingEnabled) == true)
        #expect(try store.setting(.configuration)?.minimumFlushInterval == 600, "--upload-interval is stored with the configuration")
    }

    @Test("a system clock a year behind the receiver (a Raspberry Pi without a network): records on the receiver's time")
    func clockBehindReceiver() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The receiver's time: 400 days after the host's; the engine would refuse every fix as from
        // the future on the host's clock.
        let receiverStart = Date().addingTimeInterval(400 * 86_400)
        let log = folder.appendingPathComponent("ahead.nmea")
        try Data(NMEALog.stationary(latitude: -27.21074, longitude: 153.05205, from: receiverStart, seconds: 600).utf8).write(to: log)
        let storePath = folder.appendingPathComponent("track.sqlite").path
        let port = try freePort()
        let fake = try await GPSFake.started(log: log, port: port, feed: .looping(cycle: 0.02))
        defer { fake.stop() }
        let process = try Self.track(
            ["--gpsd", "127.0.0.1:\(port)", "--mode", "continuous", "--store", storePath, "--status-every", "0.5"], in: folder)
        defer { process.terminate(grace: 5) }
        let recorded = await eventually(within: 90) {
            let out = Self.output(folder)
            return out.contains("the system clock is 400 days behind")
                && out.range(of: #"status: [1-9][0-9]* records"#, options: .regularExpression) != nil
        }
        #expect(recorded, "stdout: \(Self.output(folder)); gpsfake said: \(fake.errorOutput)")
        process.signalGroup(SIGTERM)
        #expect(await process.exited(within: 30))
        #expect(process.exitCode == 0)
        let records = try SQLiteLocationStore(path: storePath).allRecords().map(\.record)
        #expect(!records.isEmpty)
        for record in records {
            #expect(abs(record.fix.timestamp.timeIntervalSince(receiverStart)) < 700, "\(record.fix.timestamp)")
        }
    }

    /// Bug: writes the store refused waited in memory, were dropped at the stop, and the run exited 0.
    @Test("a disk that fills while tracking: the status line says so, the run fails at the end naming the writes never stored")
    func diskFills() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let storePath = folder.appendingPathComponent("track.sqlite").path
        let port = try freePort()
        let fake = try await GPSFake.started(log: GPSDTestEnvironment.carDrive, port: port, feed: .looping(cycle: 0.001))
        defer { fake.stop() }
        // A file-size limit (ulimit -f, 400 blocks of 512 bytes) fills as a disk does.
        let process = try ChildProcess(
            executable: "/bin/sh",
            arguments: [
                "-c", #"trap '' XFSZ; ulimit -f 400; exec "$0" "$@""#, Self.executable, "track", "--gpsd", "127.0.0.1:\(port)",
                "--mode", "continuous", "--store", storePath, "--status-every", "0.3",
            ],
            environment: ProcessInfo.processInfo.environment, input: nil, output: folder.appendingPathComponent("out").path,
            error: folder.appendingPathComponent("err").path)
        defer { process.terminate(grace: 5) }
        #expect(
            await eventually(within: 120) { Self.output(folder).contains("the store refuses writes") },
            "stdout: \(Self.output(folder)); gpsfake said: \(fake.errorOutput)")
        process.signalGroup(SIGHUP)
        #expect(await process.exited(within: 60))
        #expect(process.exitCode == 2)
        let error = (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? ""
        #expect(error.contains("writes (records, stays, region events), which were never stored"), "\(error)")
        #expect(Self.output(folder).contains("received SIGHUP; stopping"))
        #expect(try SQLiteLocationStore(path: storePath).integrityCheck() == "ok")
    }

    /// Bug: catching SIGHUP overrode the ignore nohup sets, so logging out ended a nohup'd run.
    @Test("started with SIGHUP ignored (nohup), track outlives a hang-up; SIGTERM still stops it")
    func nohupKeepsRunning() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try ChildProcess(
            executable: "/bin/sh",
            arguments: [
                "-c", #"trap '' HUP; exec "$0" "$@""#, Self.executable, "track", "--gpsd", "127.0.0.1:\(try freePort())", "--store",
                folder.appendingPathComponent("s.sqlite").path, "--status-every", "0.3",
            ],
            environment: ProcessInfo.processInfo.environment, input: nil, output: folder.appendingPathComponent("out").path,
            error: folder.appendingPathComponent("err").path)
        defer { process.terminate(grace: 5) }
        #expect(await eventually(within: 30) { Self.output(folder).contains("status: ") })
        process.signalGroup(SIGHUP)
        #expect(!(await process.exited(within: 2)), "a hang-up stopped a run started to ignore it")
        process.signalGroup(SIGTERM)
        #expect(await process.exited(within: 30))
        #expect(process.exitCode == 0)
        #expect(Self.output(folder).contains("received SIGTERM; stopping"))
    }

    @Test("--gpsd takes an IPv6 address in brackets")
    func ipv6Address() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try freePort()
        let process = try Self.track(
            ["--gpsd", "[::1]:\(port)", "--store", folder.appendingPathComponent("s.sqlite").path, "--status-every", "0.3"], in: folder)
        defer { process.terminate(grace: 5) }
        // Nothing listens there: the failure names the address once bracketed, and it is a refused
        // connection, not a host name that does not resolve.
        #expect(
            await eventually(within: 30) { Self.output(folder).contains("last problem: gpsd at [::1]:\(port)") }, "\(Self.output(folder))")
        #expect(!Self.output(folder).contains("resolve"), "\(Self.output(folder))")
        process.signalGroup(SIGINT)
        #expect(await process.exited(within: 30))
        #expect(process.exitCode == 0)
    }

    @Test("a gpsd that is not there is reported and retried; SIGINT still stops it cleanly")
    func gpsdAbsent() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try Self.track(
            ["--gpsd", "127.0.0.1:\(try freePort())", "--store", folder.appendingPathComponent("s.sqlite").path, "--status-every", "0.3"],
            in: folder)
        defer { process.terminate(grace: 5) }
        #expect(await eventually(within: 30) { Self.output(folder).contains("last problem: gpsd at 127.0.0.1") })
        process.signalGroup(SIGINT)
        #expect(await process.exited(within: 30))
        #expect(process.exitCode == 0)
        #expect(Self.output(folder).contains("received SIGINT; stopping"))
    }

    @Test("records no upload can send (a refused token) fail the run when it stops: exit 2 saying what to fix")
    func strandedUploads() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setValidTokens(["current"])
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let storePath = folder.appendingPathComponent("s.sqlite").path
        let store = try SQLiteLocationStore(path: storePath)
        try store.append(sampleRecords(3), at: Date())
        try store.close()
        let process = try Self.track(
            [
                "--gpsd", "127.0.0.1:\(try freePort())", "--store", storePath, "--status-every", "0.3", "--upload",
                server.baseURL.absoluteString,
                "--device", "phone", "--token", "stale",
            ],
            in: folder)
        defer { process.terminate(grace: 5) }
        #expect(await eventually(within: 30) { Self.output(folder).contains("status: ") })
        process.signalGroup(SIGINT)
        #expect(await process.exited(within: 60))
        #expect(process.exitCode == 2)
        let error = (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? ""
        #expect(error.contains("the records stay pending in \(storePath)"), "\(error)")
        #expect(Self.output(folder).contains("final upload: delivered 0"), "\(Self.output(folder))")
    }

    @Test("bad flags exit with status 2 and say what to give")
    func badFlags() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        let cases: [([String], String)] = [
            (["--gpsd", "localhost"], "is not HOST:PORT"),
            (["--gpsd", "127.0.0.1:99999"], "is not HOST:PORT"),
            (["--gpsd", "[127.0.0.1]:2947"], "is not HOST:PORT"),
            (["--gpsd", "[::1:2947"], "is not HOST:PORT"),
            (["--gpsd", "fe80::1"], "is not HOST:PORT"),
            (["--gpsd", "::1:2947"], "[::1]:2947 for an IPv6 address"),
            (["--mode", "teleport"], "is not a tracking mode"),
            (["--mode", "move", "--distance=-5"], "is not a positive number"),
            (["--mode", "significant", "--interval", "60"], "is not a parameter of significant mode"),
            (["--regions", folder.appendingPathComponent("missing.geojson").path], "missing.geojson"),
            (["--status-every", "0"], "is not a positive number of seconds"),
            (["--status-every", "1e12"], "from 0.1 to 31536000"),
            (["--status-every", "1e-10"], "from 0.1 to 31536000"),
        ]
        for (arguments, message) in cases {
            let process = try Self.track(arguments + ["--store", store], in: folder)
            #expect(await process.exited(within: 30))
            #expect(process.exitCode == 2, "\(arguments)")
            let error = (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? ""
            #expect(error.contains(message), "\(arguments): \(error)")
        }
    }
}
