import Foundation
import WhereaboutsTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A real headless Chromium driven over the DevTools protocol: it opens pages, runs script in them
/// and takes screenshots, as a person's browser would, cookies and all.
final class HeadlessChromium: @unchecked Sendable {
    private let process = Process()
    private let profile: URL
    /// The DevTools pipe: commands go into `commands`, answers and events come out of `replies`.
    private var commands: Int32 = -1
    private var replies: AsyncStream<Data>.Iterator
    private var session = ""
    private var nextID = 0

    /// Where Chromium is installed, if it is (`.ci/run` installs it).
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile)
    /// Why a browser test is skipped: the condition of its `.enabled(if:)` trait.
    static let missing = "chromium is not installed (apt-get install chromium; .ci/run installs it): the browser tests are skipped"

    /// Starts Chromium and attaches to its page, in front (a page in the background gets no image
    /// load events).
    /// - Throws: where Chromium is not installed; tests check ``path`` in their `.enabled(if:)` trait first.
    static func start() async throws -> HeadlessChromium {
        guard let path else { throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: missing]) }
        let browser = try await HeadlessChromium(path: path)
        let targets = try await browser.send("Target.getTargets")["targetInfos"] as? [[String: Any]] ?? []
        let page = targets.first { $0["type"] as? String == "page" }?["targetId"] ?? ""
        let attached = try await browser.send("Target.attachToTarget", ["targetId": page, "flatten": true])
        browser.session = attached["sessionId"] as? String ?? ""
        try await browser.send("Page.enable")
        try await browser.send("Page.bringToFront")
        return browser
    }

    /// Starts Chromium with `--remote-debugging-pipe` over two named pipes (it reads commands on
    /// descriptor 3 and writes on 4). Through bash, which first closes the descriptors above 2 that
    /// Foundation's Process leaves open: Chromium's helpers would inherit them.
    private init(path: String) async throws {
        profile = temporaryFolder("chromium")
        let (input, output) = (profile.appendingPathComponent("in").path, profile.appendingPathComponent("out").path)
        guard Glibc.mkfifo(input, 0o600) == 0, Glibc.mkfifo(output, 0o600) == 0 else { throw POSIXError(.EIO) }
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c",
            #"for fd in $(ls /proc/$$/fd); do if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; exec "$0" "${@:3}" 3<"$1" 4>"$2""#,
            path, input, output, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--window-size=1000,1000",
            "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "about:blank",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        replies = stream.makeAsyncIterator()
        commands = await withCheckedContinuation { opened in
            Thread {
                let commands = Glibc.open(input, O_WRONLY)
                let replies = Glibc.open(output, O_RDONLY)
                opened.resume(returning: commands)
                Self.read(replies, into: continuation)
            }.start()
        }
    }

    /// Reads NUL-separated messages from `descriptor` until it closes, on a thread of its own.
    private static func read(_ descriptor: Int32, into continuation: AsyncStream<Data>.Continuation) {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[0..<count])
            while let end = pending.firstIndex(of: 0) {
                continuation.yield(Data(pending[pending.startIndex..<end]))
                pending = Data(pending[(end + 1)...])
            }
        }
        Glibc.close(descriptor)
        continuation.finish()
    }

    /// Sends a DevTools command (to the page, once attached) and returns its `result`.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var command: [String: Any] = ["id": id, "method": method, "params": parameters]
        if !session.isEmpty { command["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: command))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(commands, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw POSIXError(.EPIPE) }
            written += count
        }
        while let message = await replies.next() {
            guard let reply = try? JSONSerialization.jsonObject(with: message) as? [String: Any], reply["id"] as? Int == id else {
                continue
            }
            if let error = reply["error"] {
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(method): \(error)"])
            }
            return reply["result"] as? [String: Any] ?? [:]
        }
        throw POSIXError(.EPIPE)
    }

    /// Opens `url` in the page.
    func open(_ url: String) async throws { try await send("Page.navigate", ["url": url]) }

    /// The value of a script expression in the page, as a string (`""` for none).
    func evaluate(_ expression: String) async throws -> String {
        let result = try await send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        return (result["result"] as? [String: Any])?["value"].map { "\($0)" } ?? ""
    }

    /// Waits up to `seconds` until `expression` is something other than `""`, and returns it.
    func wait(for expression: String, seconds: Double = 20) async throws -> String {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let value = (try? await evaluate(expression)) ?? ""
            if !value.isEmpty { return value }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return ""
    }

    /// Writes a PNG screenshot of the page to `file`.
    func screenshot(to file: URL) async throws {
        let result = try await send("Page.captureScreenshot", ["format": "png"])
        guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no screenshot data"])
        }
        try data.write(to: file)
    }

    /// Ends Chromium and removes its profile.
    func stop() async {
        Glibc.close(commands)
        process.terminate()
        for _ in 0..<100 where process.isRunning { try? await Task.sleep(nanoseconds: 50_000_000) }
        try? FileManager.default.removeItem(at: profile)
    }
}
