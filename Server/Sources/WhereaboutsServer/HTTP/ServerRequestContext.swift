import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's core context plus the peer's address, which login
/// throttling keys on.
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address of the connection's other end (the reverse proxy, when there is one).
    public let remoteAddress: SocketAddress?

    /// Creates the context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
