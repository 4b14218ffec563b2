import Foundation
import WhereaboutsCore
import WhereaboutsSimulator
import WhereaboutsStore
import WhereaboutsTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One kind of fault the campaign injects.
enum FaultKind: String, CaseIterable {
    case clientKill = "client SIGKILL"
    case serverKill = "server SIGKILL"
    case serverError = "server 5xx"
    case hang = "server hang"
    case reset = "connection reset"
    case tooLarge = "413"
    case tooMany = "429"
    case clockJump = "clock jump"
    case damagedPage = "damaged page"
    case fullDisk = "full disk mid-run"
    case fullDiskCreating = "full disk creating"
    case badDevice = "invalid device id"
    case throttledNeighbour = "throttled neighbour"
}

/// What a campaign did and found.
struct CampaignTally {
    /// Faults injected, by kind (a scripted server fault counts once a request met it).
    var faults: [FaultKind: Int] = [:]
    /// Records in the device's store at the end, plus those a salvage could not read.
    var recorded = 0
    /// Records the server holds, counting repeats.
    var onServer = 0
    /// Recorded records the server does not hold, plus those a salvage lost.
    var lost = 0
    /// Server records beyond the first of each id.
    var duplicated = 0
    /// Server records the store never had.
    var unknown = 0
    /// Rows salvages could not read.
    var salvageLost = 0
    /// Records rejected during the faults and put back to pending before the last flush.
    var requeued = 0
    /// Records stranded: rejected though valid (every record the campaign makes is, so only an
    /// injected 413 on a batch of one, which says the record itself is too large, may reject one), or
    /// still pending after the last flush.
    var stranded = 0
    /// Records rejected by an injected 413 on a batch of one.
    var rejectedTooLarge = 0
    /// Runs that exited 0 although they lost writes or were given an invalid device id.
    var silentFailures = 0
    /// Files a store that could not be created left at its path or beside it.
    var leftovers = 0
    /// Valid requests answered 429 after another client failed from the same address.
    var lockouts = 0
    /// Fault kinds that cannot be injected here, and why.
    var uninjectable: [FaultKind: String] = [:]
    /// CLI runs.
    var runs = 0
    /// Runs that salvaged a damaged store.
    var salvages = 0
    /// Runs that were not killed yet failed, and the last one's output.
    var failedRuns = 0
    var lastFailure: String?

    var injected: Int { faults.values.reduce(0, +) }

    /// What went wrong, in a user's words; empty when the campaign passed.
    var problems: [String] {
        var problems = uninjectable.sorted { $0.key.rawValue < $1.key.rawValue }.map { "could not inject \($0.key.rawValue): \($0.value)" }
        for (count, what) in [
            (lost, "records lost"), (duplicated, "records duplicated"), (unknown, "server records unknown to the store"),
            (stranded, "records stranded (rejected or left pending though valid)"),
            (silentFailures, "runs exited 0 after losing writes or with an invalid device id"),
            (leftovers, "files left by a store that could not be created"),
            (lockouts, "valid requests throttled for a neighbour's failures"),
        ] where count > 0 {
            problems.append("\(count) \(what)")
        }
        return problems
    }
}

/// Drives the real `whereabouts` CLI and the real `whereabouts-server`, through a ``FaultProxy``,
/// injecting one fault a run, then settles everything and counts what was lost and duplicated.
struct FaultCampaign {
    let whereabouts: String
    let serverExecutable: String
    /// `faketime`, which runs a program with its clock moved; without it no clock jumps are injected.
    let faketime: String?
    let count: Int
    let seed: UInt64
    /// Called for each fault injected.
    let progress: (FaultKind) -> Void

    private static let device = "bench"

    func run() async throws -> CampaignTally {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("whereabouts-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = "sqlite:" + folder.appendingPathComponent("server.sqlite").path
        let token = try await RealServer.addDevice(Self.device, executable: serverExecutable, database: database, folder: folder)
        var server = try await RealServer.start(serverExecutable, database: database, port: 0, folder: folder)
        // A campaign that throws (a failed restart, the last flush failing) must leave neither the
        // server nor a client run writing into a deleted folder: both are killed before the folder goes.
        var client: ChildProcess?
        defer {
            for process in [server.child.process, client?.process].compactMap({ $0 }) where process.isRunning {
                Foundation.kill(process.processIdentifier, SIGKILL)
            }
        }
        let proxy = try await FaultProxy.start(upstream: server.base)
        defer { Task { [proxy] in await proxy.stop() } }
        let store = folder.appendingPathComponent("phone.sqlite").path
        var generator = SeededGenerator(seed: seed)
        var tally = CampaignTally()
        // `--token=…` in one argument: a base64url token may start with "-" (the server's no longer do,
        // but one in 64 did), and as a separate argument it would be read as an option (seen once in
        // CI: "Missing value for '--token <token>'").
        let upload = ["--upload", proxy.baseURL.absoluteString, "--device", Self.device, "--token=\(token)"]

        if faketime == nil {
            tally.uninjectable[.clockJump] =
                "faketime is not in any folder of PATH; install it (apt-get install faketime, or brew install libfaketime) or add its folder to PATH"
        }
        let kinds = FaultKind.allCases.filter { tally.uninjectable[$0] == nil }
        while tally.injected < count {
            let kind = kinds[Int(generator.next() % UInt64(kinds.count))]
            var executable = whereabouts
            var runStore = store
            var runUpload = upload
            // A run given an invalid device id must fail before it records or sends anything.
            var mustFail = false
            if kind == .badDevice, generator.next() % 2 == 0 {
                let invalid = ["my phone", String(repeating: "d", count: 65), "dev%2FA", ".."][Int(generator.next() % 4)]
                runUpload = ["--upload", proxy.baseURL.absoluteString, "--device", invalid, "--token=\(token)"]
                mustFail = true
            }
            if kind == .fullDiskCreating { runStore = folder.appendingPathComponent("new-\(tally.runs).sqlite").path }
            var arguments =
                ["simulate", "--strategy", "move", "--seed", "\(generator.next() % 1_000_000)", "--store", runStore]
                + runUpload + ["--batch-size", "20", "--timeout", "1", "--drain-timeout", "1"]
            var injected = true
            switch kind {
            case .serverError: await proxy.script.add([.status([500, 502, 503][Int(generator.next() % 3)])])
            case .hang: await proxy.script.add([.hang(1.5)])
            case .reset: await proxy.script.add([.dropAfterStore])
            case .tooLarge: await proxy.script.add([.status(413, body: "{\"error\":\"too_large\"}")])
            case .tooMany: await proxy.script.add([.status(429, retryAfter: "1")])
            case .clockJump:
                let days = Int(generator.next() % 800) - 400
                executable = "/usr/bin/env"
                arguments =
                    ["FAKETIME_DONT_FAKE_MONOTONIC=1", faketime ?? "faketime", "-f", "\(days < 0 ? "" : "+")\(days)d", whereabouts]
                    + arguments
            case .damagedPage: injected = try Self.damageIndexPage(store, using: &generator)
            case .fullDisk, .fullDiskCreating:
                // The run may grow no file beyond a limit (RLIMIT_FSIZE, in 512-byte blocks, with SIGXFSZ
                // ignored so a write past it fails instead of killing): 16–127 KiB, which the write-ahead
                // log runs into as into a full disk, or 4–36 KiB, which a new store does not fit in.
                let blocks = kind == .fullDisk ? 32 + Int(generator.next() % 224) : 8 + Int(generator.next() % 64)
                executable = "/bin/sh"
                arguments = ["-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" \"$@\"", whereabouts] + arguments
                mustFail = kind == .fullDiskCreating
            case .badDevice:
                if !mustFail {
                    await proxy.script.add([
                        .status(400, body: #"{"error":"bad_device_id","message":"device id \"bench\" is refused by this server"}"#)
                    ])
                }
            case .throttledNeighbour:
                injected = try await Self.throttleNeighbour(server.base)
            case .clientKill, .serverKill: break
            }
            let child = try ChildProcess.launch(executable, arguments, folder: folder)
            client = child
            if kind == .clientKill || kind == .serverKill {
                try await Task.sleep(nanoseconds: UInt64(generator.uniform(0.05...1.2) * 1e9))
                if kind == .clientKill {
                    await child.kill()
                } else {
                    server = try await server.restartAfterKill(folder: folder)
                }
            }
            let status = await child.wait()
            client = nil
            tally.runs += 1
            let text = child.text
            if kind != .clientKill, kind != .fullDisk, !mustFail, status != 0 {
                tally.failedRuns += 1
                tally.lastFailure = text
            }
            let refused = text.contains("cannot grow") || text.contains("could not be created")
            let lostWrites = refused && !text.contains("has room again")
            if status == 0, mustFail || (kind == .fullDisk && lostWrites) {
                tally.silentFailures += 1
                tally.lastFailure = text
            }
            if kind == .fullDiskCreating {
                let name = URL(fileURLWithPath: runStore).lastPathComponent
                tally.leftovers += try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(name) }.count
            }
            if kind == .throttledNeighbour, try await Self.status(server.base, device: Self.device, token: token) == 429 {
                tally.lockouts += 1
            }
            if text.contains("was damaged: salvaged") {
                tally.salvages += 1
            } else if kind == .damagedPage {
                injected = false
            }
            if kind == .fullDisk || kind == .fullDiskCreating, !refused { injected = false }
            if kind == .badDevice, mustFail, !text.contains("--device: device id") { injected = false }
            tally.salvageLost += Self.salvageLost(in: text)
            let unplayed = await proxy.script.clear()
            if unplayed > 0 { injected = false }
            if injected {
                tally.faults[kind, default: 0] += 1
                progress(kind)
            }
            try? FileManager.default.removeItem(at: child.output)
        }

        let direct = ["--upload", server.base.absoluteString, "--device", Self.device, "--token=\(token)"]
        tally.rejectedTooLarge = Self.rejectedTooLarge(store)
        let requeue = try await ChildProcess.run(whereabouts, ["store", "requeue", store], folder: folder)
        tally.requeued = Int(requeue.text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let flush = try await ChildProcess.run(whereabouts, ["store", "flush", store, "--drain-timeout", "60"] + direct, folder: folder)
        guard flush.status == 0 else { throw InputError("the last flush failed (exit \(flush.status)): \(flush.text)") }
        let held = try await Self.serverIDs(server.base, token: token)
        await server.child.kill()
        let reader = try SQLiteLocationStore(path: store, options: StoreOptions(mode: .readOnly))
        let recorded = Set(try reader.allRecords().map { $0.record.id.uuidString.lowercased() })
        tally.stranded = max(0, tally.requeued - tally.rejectedTooLarge) + (try reader.pendingCount())
        try reader.close()
        let unique = Set(held)
        tally.recorded = recorded.count + tally.salvageLost
        tally.onServer = held.count
        tally.duplicated = held.count - unique.count
        tally.lost = recorded.subtracting(unique).count + tally.salvageLost
        tally.unknown = unique.subtracting(recorded).count
        return tally
    }

    /// Zeroes the first three bytes of one page of the store's record index, as a failing disk
    /// would; `false` when there is no store yet. It counts as injected once a run salvaged the store.
    private static func damageIndexPage(_ path: String, using generator: inout SeededGenerator) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        // Opened for writing and closed, so the write-ahead log is checkpointed into the file and
        // holds no newer copy of the page that would hide the damage.
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readWrite))
        let pages = try store.pages(of: "location_uuid")
        try store.close()
        guard !pages.isEmpty else { return false }
        let page = pages[Int(generator.next() % UInt64(pages.count))]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: page.offset)
        handle.write(Data(count: 3))
        try handle.close()
        return true
    }

    /// The store's records rejected with 413, as far as its summary lists them; 0 when it cannot be
    /// read as it is (a damaged store, salvaged by the requeue that follows).
    private static func rejectedTooLarge(_ path: String) -> Int {
        guard let reader = try? SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly)) else { return 0 }
        defer { try? reader.close() }
        return ((try? reader.summary())?.rejected ?? []).filter { $0.rejection.status == 413 }.count
    }

    /// The rows a salvage reported lost in a run's output.
    private static func salvageLost(in text: String) -> Int {
        guard let range = text.range(of: #"salvaged \d+ rows into a new store, lost \d+"#, options: .regularExpression) else { return 0 }
        return Int(text[range].split(separator: " ").last ?? "") ?? 0
    }

    /// Plays a neighbour behind the same address retrying a stale token until the server throttles
    /// it; `true` once it got 429.
    private static func throttleNeighbour(_ base: URL) async throws -> Bool {
        for _ in 0..<20 {
            if try await status(base, device: device, token: "a-stale-token-of-a-neighbour") == 429 { return true }
        }
        return false
    }

    /// The status of a read of the device's last location with `token`.
    private static func status(_ base: URL, device: String, token: String) async throws -> Int {
        var request = URLRequest(url: base.appendingPathComponent("v1/devices/\(device)/last"), timeoutInterval: 30)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// The ids of every location the server holds for the device, repeats kept.
    private static func serverIDs(_ base: URL, token: String) async throws -> [String] {
        var request = URLRequest(url: base.appendingPathComponent("v1/devices/\(device)/locations"), timeoutInterval: 120)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let locations = object["locations"] as? [[String: Any]]
        else {
            throw InputError("the server's history is not {\"locations\": [...]}: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return locations.compactMap { $0["id"] as? String }
    }
}
