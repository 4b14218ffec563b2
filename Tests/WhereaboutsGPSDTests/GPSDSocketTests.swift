import Foundation
import Testing

@testable import WhereaboutsGPSD

#if canImport(Glibc)
    import Glibc
#endif

/// The connection to gpsd itself.
struct GPSDSocketTests {
    /// Bug: the client only reads after `?WATCH`, so a remote gpsd that vanished without closing
    /// the connection (power or network lost) was never noticed: "watching" for ever, no reconnect.
    @Test("the connection probes a silent gpsd with TCP keepalive: 20 s idle, every 5 s, 4 probes")
    func keepAlive() throws {
        let port = try freePort()
        let listener = try #require(loopbackListener(port: port), "cannot listen on 127.0.0.1:\(port)")
        defer { close(listener) }
        let socket = try GPSDSocket.connect(host: "127.0.0.1", port: port, timeout: 5, wake: nil)
        let settings = socket.keepAliveSettings
        #expect(settings.on)
        #expect(settings.idle == 20 && settings.interval == 5 && settings.probes == 4, "\(settings)")
    }

    @Test("waits longer than poll(2) can in one call (a connect timeout of 100 days) do not trap")
    func longTimeouts() {
        #expect(GPSDConnection.seconds(1e300) == "1e+300 s")
        #expect(GPSDConnection.seconds(30) == "30 s")
    }
}
