import Foundation
import NIOCore
import NIOPosix

/// One HTTP answer as it came off the wire.
struct RawResponse: Sendable {
    let status: Int
    /// Header names in lower case.
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
}

/// A TCP connection to the server that sends exactly the bytes a test gives it (half-sent requests,
/// absurd chunk sizes, any method), for what URLSession cannot send.
final class RawConnection {
    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let channel: any Channel
    private var buffer: [UInt8] = []
    private var ended = false
    /// How many bytes of the current answer's chunked body are whole chunks already walked.
    private var chunksWalked = 0

    private init(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, channel: any Channel
    ) {
        iterator = inbound.makeAsyncIterator()
        self.outbound = outbound
        self.channel = channel
    }

    /// Connects from `source` (another loopback address stands for another client) to
    /// 127.0.0.1:`port`, runs `body`, and closes the connection.
    static func with<T: Sendable>(port: Int, from source: String = "127.0.0.1", _ body: (RawConnection) async throws -> T) async throws -> T
    {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(to: try SocketAddress(ipAddress: source, port: 0))
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(RawConnection(inbound, outbound, channel: channel.channel))
        }
    }

    /// Sends `bytes`; `false` when the server has closed the connection.
    @discardableResult
    func send(_ bytes: some Collection<UInt8>) async -> Bool {
        do {
            try await outbound.write(ByteBuffer(bytes: Array(bytes)))
            return true
        } catch {
            return false
        }
    }

    /// Reads one whole answer (its body by `Content-Length`, chunks, or up to the close), or `nil`
    /// when the connection ended first or `timeout` seconds passed. `head`: the request was HEAD, so
    /// the answer has no body.
    func readResponse(timeout: Double, head: Bool = false) async -> RawResponse? {
        await withDeadline(timeout) {
            while true {
                if let response = self.parse(head: head) { return response }
                guard await self.fill() else { return self.ended ? self.parse(head: head, atEnd: true) : nil }
            }
        }
    }

    /// Waits for the first bytes of an answer, kept for ``readResponse(timeout:head:)``: `false` when
    /// the connection ended or `timeout` seconds passed first.
    func readFirstBytes(timeout: Double) async -> Bool {
        await withDeadline(timeout) { await self.fill() } ?? false
    }

    /// Reads until the server closes the connection (`true`) or `timeout` seconds pass (`false`).
    func readUntilClose(timeout: Double) async -> Bool {
        await withDeadline(timeout) {
            while await self.fill() {}
            return self.ended
        } ?? false
    }

    /// Every byte received so far, as text.
    var received: String { String(decoding: buffer, as: UTF8.self) }

    /// Runs `body` with the connection closed by us after `seconds`; `nil` when that happened first.
    private func withDeadline<T>(_ seconds: Double, _ body: () async -> T?) async -> T? {
        let expired = Flag()
        let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { [channel] in
            expired.set()
            channel.close(promise: nil)
        }
        let result = await body()
        timer.cancel()
        return expired.value ? nil : result
    }

    /// Appends the next chunk; `false` at the end of the stream.
    private func fill() async -> Bool {
        guard !ended else { return false }
        do {
            if let chunk = try await iterator.next() {
                buffer += chunk.readableBytesView
                return true
            }
        } catch {}
        ended = true
        return false
    }

    /// One answer from the front of the buffer, removed from it.
    private func parse(head: Bool, atEnd: Bool = false) -> RawResponse? {
        guard let split = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: buffer[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let start = split.upperBound
        let body: [UInt8]
        let end: Int
        if head || status == 204 || status == 304 {
            (body, end) = ([], start)
        } else if let length = headers["content-length"].flatMap(Int.init) {
            guard buffer.count - start >= length else { return nil }
            (body, end) = (Array(buffer[start..<start + length]), start + length)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            guard let bodyEnd = chunkedEnd(from: start) else { return nil }
            (body, end) = (Self.dechunk(buffer[start..<bodyEnd]), bodyEnd)
        } else {
            guard atEnd else { return nil }
            (body, end) = (Array(buffer[start...]), buffer.count)
        }
        buffer.removeFirst(end)
        chunksWalked = 0
        return RawResponse(status: status, headers: headers, body: Data(body))
    }

    /// Where the chunked body that starts at `start` ends (after its last chunk's line), or `nil`
    /// while more must arrive. Each call walks on from the chunks earlier calls walked
    /// (``chunksWalked``), so a long answer read in thousands of pieces is walked once, not once a piece.
    private func chunkedEnd(from start: Int) -> Int? {
        var index = start + chunksWalked
        while true {
            guard let lineEnd = buffer[index...].firstRange(of: Array("\r\n".utf8)),
                let size = Self.chunkSize(buffer[index..<lineEnd.lowerBound])
            else { return nil }
            let next = lineEnd.upperBound + size + 2
            guard buffer.count >= next else { return nil }
            if size == 0 { return next }
            index = next
            chunksWalked = index - start
        }
    }

    /// A chunk's size from its size line (hexadecimal, extensions after `;` ignored).
    private static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: line, as: UTF8.self).split(separator: ";").first ?? ""
        return Int(text.trimmingCharacters(in: .whitespaces), radix: 16)
    }

    /// The data of a whole chunked body (``chunkedEnd(from:)`` found its end).
    private static func dechunk(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)), let size = chunkSize(bytes[index..<lineEnd.lowerBound]),
            size > 0
        {
            body += bytes[lineEnd.upperBound..<lineEnd.upperBound + size]
            index = lineEnd.upperBound + size + 2
        }
        return body
    }
}

/// A flag set from the event loop and read from the test.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    func set() { lock.withLock { isSet = true } }
    var value: Bool { lock.withLock { isSet } }
}

/// An HTTP/1.1 request as bytes, with `Host` and `Connection: close` unless `headers` say otherwise.
func rawRequest(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [], keepAlive: Bool = false) -> [UInt8]
{
    var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"]
    if !keepAlive { lines.append("Connection: close") }
    lines += headers.map { "\($0.0): \($0.1)" }
    if !body.isEmpty, !headers.contains(where: { $0.0.lowercased() == "transfer-encoding" || $0.0.lowercased() == "content-length" }) {
        lines.append("Content-Length: \(body.count)")
    }
    return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
}
