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
    case fullDisk = "full disk"
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
    /// CLI runs.
    var runs = 0
    /// Runs that salvaged a damaged store.
    var salvages = 0
    /// Runs that were not killed yet failed, and the last one's output.
    var failedRuns = 0
    var lastFailure: String?

    var injected: Int { faults.values.reduce(0, +) }
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

        let kinds = FaultKind.allCases.filter { $0 != .clockJump || faketime != nil }
        while tally.injected < count {
            let kind = kinds[Int(generator.next() % UInt64(kinds.count))]
            var executable = whereabouts
            var arguments =
                ["simulate", "--strategy", "move", "--seed", "\(generator.next() % 1_000_000)", "--store", store]
                + upload + ["--batch-size", "20", "--timeout", "1", "--drain-timeout", "1"]
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
            case .fullDisk:
                // The run may grow no file beyond 32–255 KiB (RLIMIT_FSIZE, with SIGXFSZ ignored so a
                // write past it fails instead of killing): the write-ahead log fills as a full disk would.
                let kilobytes = 32 + Int(generator.next() % 224)
                executable = "/bin/sh"
                arguments = ["-c", "trap '' XFSZ; ulimit -f \(kilobytes); exec \"$0\" \"$@\"", whereabouts] + arguments
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
            if kind != .clientKill, kind != .fullDisk, status != 0 {
                tally.failedRuns += 1
                tally.lastFailure = child.text
            }
            if child.text.contains("was damaged: salvaged") {
                tally.salvages += 1
            } else if kind == .damagedPage {
                injected = false
            }
            if kind == .fullDisk, !child.text.contains("disk I/O error"), !child.text.contains("disk is full") { injected = false }
            tally.salvageLost += Self.salvageLost(in: child.text)
            let unplayed = await proxy.script.clear()
            if unplayed > 0 { injected = false }
            if injected {
                tally.faults[kind, default: 0] += 1
                progress(kind)
            }
            try? FileManager.default.removeItem(at: child.output)
        }

        let direct = ["--upload", server.base.absoluteString, "--device", Self.device, "--token=\(token)"]
        let requeue = try await ChildProcess.run(whereabouts, ["store", "requeue", store], folder: folder)
        tally.requeued = Int(requeue.text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let flush = try await ChildProcess.run(whereabouts, ["store", "flush", store, "--drain-timeout", "60"] + direct, folder: folder)
        guard flush.status == 0 else { throw InputError("the last flush failed (exit \(flush.status)): \(flush.text)") }
        let held = try await Self.serverIDs(server.base, token: token)
        await server.child.kill()
        let reader = try SQLiteLocationStore(path: store, options: StoreOptions(mode: .readOnly))
        let recorded = Set(try reader.allRecords().map { $0.record.id.uuidString.lowercased() })
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

    /// The rows a salvage reported lost in a run's output.
    private static func salvageLost(in text: String) -> Int {
        guard let range = text.range(of: #"salvaged \d+ rows into a new store, lost \d+"#, options: .regularExpression) else { return 0 }
        return Int(text[range].split(separator: " ").last ?? "") ?? 0
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
