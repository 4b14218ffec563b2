import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsSimulator
import WhereaboutsStore

/// Where and how to upload stored records (our batch API).
struct UploadOptions: ParsableArguments {
    @Option(help: "Base URL of a Whereabouts server; records go to {URL}/v1/devices/{device}/locations.")
    var upload: String?

    @Option(help: "The device id in the upload path.")
    var device: String = "simulator"

    @Option(help: "A bearer token for the server (or set WHEREABOUTS_TOKEN).")
    var token: String?

    @Option(help: "Records per request (1...1000).")
    var batchSize: Int = 500

    @Option(help: "Seconds to wait for the server's answer.")
    var timeout: Double = 30

    @Option(help: "Seconds to keep retrying at the end before exiting with records still pending.")
    var drainTimeout: Double = 60

    /// An uploader for `store` living by `clock` (the engine's), or `nil` without `--upload`.
    func uploader(for store: SQLiteLocationStore, clock: EngineClock = .system) throws -> Uploader? {
        guard case .server(let url, let device, let token, let batchSize, let requestTimeout) = try target() else { return nil }
        // This process is the store's only uploader: leases left by a killed run are handed back now.
        try store.releaseAllLeases()
        return Uploader(
            queue: store, endpoint: WhereaboutsBatchEndpoint(base: url, device: device, maxBatchSize: batchSize),
            credentials: token.map { FixedCredential(.bearer($0)) } ?? FixedCredential.none,
            configuration: UploaderConfiguration(
                batchSize: batchSize, requestTimeout: requestTimeout, backoff: Backoff(initial: 0.5, maximum: 10)),
            clock: clock)
    }

    /// Why an upload stopped, in a user's words: what was refused or failed, and what to do.
    func explain(_ stop: FlushStop) -> String {
        switch stop {
        case .signedOut where givenToken != nil:
            return "the server refused the token (401): it is not device \(device)'s current token; give the one "
                + "`whereabouts-server device add \(device)` or `device rotate-token \(device)` printed last"
        case .signedOut:
            return "the server asks for a token (401): give --token=TOKEN or set WHEREABOUTS_TOKEN to device \(device)'s token"
        case .misconfigured(let problem):
            return problem
        case .failed(let problem, _):
            return "upload failed: \(problem); it still failed when --drain-timeout (\(drainTimeout) s) ran out; flush again later"
        case .backingOff:
            return "the server asked to wait past --drain-timeout (\(drainTimeout) s); flush again later"
        case .storeError(let problem):
            return "the store could not be read or written: \(problem)"
        case .outOfTime:
            return "--drain-timeout (\(drainTimeout) s) ran out with records still pending; they stay in the store: flush again later"
        }
    }

    /// Where a simulated run uploads: the server of `--upload`, else the receiver inside the process.
    func target() throws -> UploadTarget {
        guard let upload else { return .loopback }
        guard let url = URL(string: upload), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw InputError("--upload \(upload) is not an http(s) URL; give the server's base URL, e.g. http://127.0.0.1:8080")
        }
        guard (1...1000).contains(batchSize) else { throw InputError("--batch-size \(batchSize) is not in 1...1000") }
        guard timeout.isFinite, timeout > 0 else { throw InputError("--timeout \(timeout) is not a positive number of seconds") }
        guard drainTimeout.isFinite, drainTimeout >= 0 else {
            throw InputError("--drain-timeout \(drainTimeout) is not a non-negative number of seconds")
        }
        if let problem = DeviceID.problem(with: device) {
            throw InputError("--device: \(DeviceID.message(for: device, problem: problem)); the server would refuse every upload to it")
        }
        return .server(base: url, device: device, token: givenToken, batchSize: batchSize, requestTimeout: timeout)
    }

    /// `--token`, else `WHEREABOUTS_TOKEN`.
    private var givenToken: String? { token ?? ProcessInfo.processInfo.environment["WHEREABOUTS_TOKEN"] }
}
