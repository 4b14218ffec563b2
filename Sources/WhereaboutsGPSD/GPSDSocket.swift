#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a socket operation did not complete.
enum GPSDSocketError: Error, Equatable {
    /// The operation failed; the text says how, for a ``Whereabouts/LocationServiceFailure``.
    case failed(String)
    /// The wake pipe was written while waiting: the owner wants the worker to look at its state.
    case interrupted
}

/// The text of the current `errno`.
func errnoText() -> String { String(cString: strerror(errno)) }

/// A non-blocking pipe another thread writes to, to interrupt a thread waiting in poll(2).
///
/// Sendable because its descriptors never change after creation and `write`/`read` on them are
/// safe from any thread.
final class GPSDWakePipe: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    /// Creates the pipe, or `nil` when the process is out of descriptors.
    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { configureDescriptor(end) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Wakes the waiting thread; a full pipe means it is already due to wake.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}

/// Makes a descriptor non-blocking and closed on exec.
private func configureDescriptor(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
}

/// A TCP connection to gpsd, used by one thread. Every wait goes through poll(2) together with the
/// wake pipe, so the owner can interrupt it.
final class GPSDSocket {
    private var descriptor: Int32
    private let wake: GPSDWakePipe?

    /// How long a wait lasts when there is no wake pipe to interrupt it, in milliseconds.
    private static let pollSlice: Int32 = 250

    private init(descriptor: Int32, wake: GPSDWakePipe?) {
        self.descriptor = descriptor
        self.wake = wake
    }

    deinit { close() }

    /// Connects to `host`:`port`, trying each address the name resolves to, each for at most
    /// `timeout` seconds.
    static func connect(host: String, port: UInt16, timeout: Double, wake: GPSDWakePipe?) throws(GPSDSocketError)
        -> GPSDSocket
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .failed("cannot resolve the host name (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(list) }
        var problem = "the host name resolves to no address"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard descriptor >= 0 else {
                problem = "cannot create a socket (\(errnoText()))"
                continue
            }
            let socket = GPSDSocket(descriptor: descriptor, wake: wake)
            configureDescriptor(descriptor)
            socket.keepAlive()
            #if canImport(Darwin)
                var on: Int32 = 1
                _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if systemConnect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return socket
            }
            guard errno == EINPROGRESS else {
                problem = "cannot connect (\(errnoText()))"
                continue
            }
            switch try socket.wait(for: Int16(POLLOUT), timeout: timeout) {
            case false:
                problem = "cannot connect within \(timeout) s (no answer)"
            case true:
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return socket }
                problem = "cannot connect (\(String(cString: strerror(error))))"
            }
        }
        throw .failed(problem)
    }

    /// How TCP finds a gpsd that vanished without closing the connection (its host lost power or
    /// its network): after this many seconds without data a probe goes out, then every
    /// `keepAliveInterval` seconds, and `keepAliveProbes` unanswered probes end the connection. The
    /// client only reads after `?WATCH`, so without probes a dead peer is never noticed, and a gpsd
    /// without a receiver is rightly silent, so silence alone proves nothing.
    static let keepAliveIdle: Int32 = 20
    static let keepAliveInterval: Int32 = 5
    static let keepAliveProbes: Int32 = 4

    /// Turns TCP keepalive on with the settings above.
    private func keepAlive() {
        func set(_ level: Int32, _ option: Int32, _ value: Int32) {
            var value = value
            _ = setsockopt(descriptor, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
        set(SOL_SOCKET, SO_KEEPALIVE, 1)
        #if canImport(Darwin)
            set(Int32(IPPROTO_TCP), TCP_KEEPALIVE, Self.keepAliveIdle)
        #else
            set(Int32(IPPROTO_TCP), TCP_KEEPIDLE, Self.keepAliveIdle)
        #endif
        set(Int32(IPPROTO_TCP), TCP_KEEPINTVL, Self.keepAliveInterval)
        set(Int32(IPPROTO_TCP), TCP_KEEPCNT, Self.keepAliveProbes)
    }

    /// The keepalive settings in force: whether it is on, the idle seconds, the interval and the probes.
    var keepAliveSettings: (on: Bool, idle: Int32, interval: Int32, probes: Int32) {
        func get(_ level: Int32, _ option: Int32) -> Int32 {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(descriptor, level, option, &value, &length)
            return value
        }
        #if canImport(Darwin)
            let idle = get(Int32(IPPROTO_TCP), TCP_KEEPALIVE)
        #else
            let idle = get(Int32(IPPROTO_TCP), TCP_KEEPIDLE)
        #endif
        return (
            get(SOL_SOCKET, SO_KEEPALIVE) != 0, idle, get(Int32(IPPROTO_TCP), TCP_KEEPINTVL), get(Int32(IPPROTO_TCP), TCP_KEEPCNT)
        )
    }

    /// Sends `text` completely; a wake-up does not interrupt it.
    func send(_ text: String) throws(GPSDSocketError) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { buffer in
                sendWithoutSignal(descriptor, buffer.baseAddress, buffer.count)
            }
            if sent > 0 {
                bytes = bytes.dropFirst(sent)
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                do {
                    _ = try wait(for: Int16(POLLOUT), timeout: 5)
                } catch {
                    if error != .interrupted { throw error }
                }
            } else {
                throw .failed("connection lost while sending (\(errnoText()))")
            }
        }
    }

    /// Waits until data can be read, then reads it into `buffer`; returns the byte count, 0 when the
    /// peer closed the connection.
    func receive(into buffer: inout [UInt8]) throws(GPSDSocketError) -> Int {
        while true {
            guard try wait(for: Int16(POLLIN), timeout: nil) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            throw .failed("connection lost (\(errnoText()))")
        }
    }

    /// Closes the connection; later calls do nothing.
    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
        descriptor = -1
    }

    /// Waits for `events` on the socket for at most `timeout` seconds (`nil`: no limit); `true` when
    /// they came, `false` on timeout.
    /// - Throws: ``GPSDSocketError/interrupted`` when the wake pipe was written.
    private func wait(for events: Int16, timeout: Double?) throws(GPSDSocketError) -> Bool {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        while true {
            var slice: Int32 = wake == nil ? Self.pollSlice : -1
            if let deadline {
                let left = Int32(min(max(0, (deadline - monotonicSeconds()) * 1000).rounded(.up), Double(Int32.max)))
                slice = slice < 0 ? left : min(slice, left)
            }
            var fds = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: wake?.readEnd ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, nfds_t(fds.count), slice)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .failed("cannot wait for the connection (\(errnoText()))")
            }
            if fds[1].revents != 0 {
                wake?.drain()
                throw .interrupted
            }
            if fds[0].revents != 0 { return true }
            if let deadline, monotonicSeconds() >= deadline { return false }
            if wake == nil { throw .interrupted }
        }
    }
}

/// connect(2), named apart from ``GPSDSocket/connect(host:port:timeout:wake:)``.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Darwin)
        Darwin.connect(descriptor, address, length)
    #elseif canImport(Musl)
        Musl.connect(descriptor, address, length)
    #else
        Glibc.connect(descriptor, address, length)
    #endif
}

/// send(2) that reports a closed connection as an error instead of raising SIGPIPE (on Darwin the
/// socket carries `SO_NOSIGPIPE` instead).
private func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.send(descriptor, bytes, count, 0)
    #else
        send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}

/// Seconds on a clock that never jumps.
private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
