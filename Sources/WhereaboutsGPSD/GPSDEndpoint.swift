/// Where gpsd listens: a host name or address and a TCP port.
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// gpsd's registered TCP port.
    public static let standardPort: UInt16 = 2947

    /// Host name or numeric IPv4/IPv6 address.
    public let host: String
    /// TCP port.
    public let port: UInt16

    /// Creates an endpoint; by default gpsd on this machine (`127.0.0.1:2947`).
    public init(host: String = "127.0.0.1", port: UInt16 = GPSDEndpoint.standardPort) {
        self.host = host
        self.port = port
    }

    /// `gpsd at HOST:PORT` (an IPv6 address in brackets), the source named in failures.
    public var description: String {
        host.contains(":") ? "gpsd at [\(host)]:\(port)" : "gpsd at \(host):\(port)"
    }
}
