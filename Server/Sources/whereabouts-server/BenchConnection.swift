import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One keep-alive HTTP/1.1 connection to 127.0.0.1 on blocking sockets, for the load generator: a
/// request is bytes built once and patched in place, and an answer is read by its `Content-Length`,
/// so the client spends a few microseconds per request and leaves the cores to the server.
final class BenchConnection {
    private let socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// Connects to `127.0.0.1:port` with Nagle's algorithm off.
    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw BenchError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
    }

    deinit { close(socket) }

    /// Sends `request` (a whole HTTP/1.1 request) and reads the answer's status.
    /// - Throws: ``BenchError`` when the connection fails or the server closes it.
    func exchange(_ request: [UInt8]) throws -> Int {
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(socket, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw BenchError("send failed: errno \(errno)") }
            sent += n
        }
        var filled = 0
        var headerEnd = -1
        while headerEnd < 0 {
            filled += try receive(into: filled)
            headerEnd = Self.headerEnd(buffer, filled)
        }
        let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
        let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let length =
            head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
        let total = headerEnd + 4 + length
        if total > buffer.count { buffer += [UInt8](repeating: 0, count: total - buffer.count) }
        while filled < total { filled += try receive(into: filled) }
        return status
    }

    private func receive(into offset: Int) throws -> Int {
        if offset == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + offset, $0.count - offset, 0) }
        guard n > 0 else { throw BenchError(n == 0 ? "the server closed the connection" : "recv failed: errno \(errno)") }
        return n
    }

    /// The index of `\r\n\r\n` in the first `count` bytes, or -1.
    private static func headerEnd(_ bytes: [UInt8], _ count: Int) -> Int {
        guard count >= 4 else { return -1 }
        for i in 0...(count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i }
        return -1
    }
}

/// A load generator's failure, printed as the command's error.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
