import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Where and as whom ``MQTTSubscriber`` connects, and what it subscribes to.
public struct MQTTSubscription: Sendable {
    public var host: String
    public var port: Int
    /// The client id: the broker keeps this client's session (subscriptions and unacknowledged
    /// messages) under it between connections.
    public var clientID: String
    public var username: String?
    public var password: String?
    /// Topic filters, each subscribed with QoS 1.
    public var topics: [String]
    /// The shared subscription group, if any: every client subscribed with the same group (and
    /// filter) shares the messages, each delivered to one of them (`$share/GROUP/FILTER`, mosquitto
    /// 1.6 and later, also to MQTT 3.1.1 clients). Each client needs a client id of its own.
    public var shareGroup: String?
    /// Whether to speak TLS (`mqtts`), and whom to trust; `nil` for plain TCP.
    public var tls: MQTTTLS?
    /// Seconds between PINGREQs.
    public var keepAlive: UInt16

    public init(
        host: String, port: Int = 1883, clientID: String, username: String? = nil, password: String? = nil, topics: [String],
        shareGroup: String? = nil, tls: MQTTTLS? = nil, keepAlive: UInt16 = 30
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
        self.topics = topics
        self.shareGroup = shareGroup
        self.tls = tls
        self.keepAlive = keepAlive
    }

    /// The filters subscribed to: ``topics``, within ``shareGroup`` when there is one.
    public var filters: [String] { topics.map { topic in shareGroup.map { "$share/\($0)/\(topic)" } ?? topic } }
}

/// TLS to the broker: its certificate is verified against the system's trust roots, or against the
/// authority in `caFile`, and must name the host connected to.
public struct MQTTTLS: Sendable, Equatable {
    /// A PEM file of the authorities to trust instead of the system's.
    public var caFile: String?

    public init(caFile: String? = nil) { self.caFile = caFile }

    /// The client context these settings describe.
    /// - Throws: `NIOSSLError` when the authority file cannot be read.
    func context() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile)) }
        return try NIOSSLContext(configuration: configuration)
    }
}

/// A message to publish: a handler's reply to the message it handled.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]

    public init(topic: String, payload: [UInt8]) {
        self.topic = topic
        self.payload = payload
    }
}

/// A refusal of the broker: a failed CONNECT or SUBSCRIBE.
public struct MQTTRefusal: Error, CustomStringConvertible {
    public let description: String
}

/// An MQTT 3.1.1 subscriber on SwiftNIO: a persistent session (clean session off) under its client
/// id, every topic subscribed with QoS 1, and each message acknowledged (PUBACK) only once the
/// handler has returned for it, so a message whose handler threw, or that was under way when the
/// process died, is delivered again by the broker. The messages a handler returns are published
/// (QoS 1) before the message they answer is acknowledged. Lost connections are made again with back-off
/// (0.1 s doubling to 10 s, from 0.1 s again after a connection that lasted 10 s), the session resumed.
public struct MQTTSubscriber: Sendable {
    public let subscription: MQTTSubscription
    let logger: Logger

    public init(_ subscription: MQTTSubscription, logger: Logger) {
        self.subscription = subscription
        self.logger = logger
    }

    /// Receives messages until cancelled, reconnecting whenever the connection ends; each message
    /// goes to `handle`, several at once (as many as the broker sends before their PUBACKs: its
    /// limit of messages in flight, 20 by default in mosquitto), and is acknowledged in order once
    /// `handle` returns, after the messages it returns are published. A handler that throws closes
    /// the connection (the message is delivered again on the next), as does a broker that refuses
    /// the login (logged and retried). `onSubscribed` is called after each SUBACK.
    public func run(
        onSubscribed: @escaping @Sendable () async -> Void = {},
        handle: @escaping @Sendable (MQTTPacket.Publish) async throws -> [MQTTMessage]
    ) async {
        var delay = 0.1
        while !Task.isCancelled {
            let start = ContinuousClock.now
            do {
                try await connection(onSubscribed: onSubscribed, handle: handle)
            } catch is CancellationError {
                return
            } catch {
                logger.warning(
                    "MQTT: the connection to \(subscription.host):\(subscription.port) ended: \(error); connecting again in \(delay) s")
            }
            // A connection that lasted starts the back-off again from its shortest delay.
            if ContinuousClock.now - start > .seconds(10) { delay = 0.1 }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, 10)
        }
    }

    /// One connection, from CONNECT to its end.
    private func connection(
        onSubscribed: @escaping @Sendable () async -> Void, handle: @escaping @Sendable (MQTTPacket.Publish) async throws -> [MQTTMessage]
    ) async throws {
        let tls = try subscription.tls?.context()
        // An IP address is checked against the certificate's addresses; a name is sent as SNI.
        let serverName =
            subscription.host.contains(where: { $0 == ":" }) || subscription.host.allSatisfy({ $0.isNumber || $0 == "." })
            ? nil : subscription.host
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: subscription.host, port: subscription.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(MQTTPacketDecoder()))
                    try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(MQTTPacketEncoder()))
                    return try NIOAsyncChannel<MQTTPacket, MQTTPacket>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            var packets = inbound.makeAsyncIterator()
            try await outbound.write(
                .connect(
                    .init(
                        clientID: subscription.clientID, cleanSession: false, keepAlive: subscription.keepAlive,
                        username: subscription.username, password: subscription.password)))
            guard case .connack(_, let code)? = try await packets.next() else { throw MQTTRefusal(description: "no CONNACK") }
            guard code == 0 else { throw MQTTRefusal(description: Self.connectRefusal(code)) }
            try await outbound.write(.subscribe(packetID: 1, filters: subscription.filters.map { ($0, 1) }))
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (handled, finished) = AsyncStream<(UInt16?, Task<[MQTTMessage], any Error>)>.makeStream()
                defer { finished.finish() }
                // PUBACKs in the order the messages came, each once its handler returned and its
                // replies went out; a handler that threw closes the connection, so the broker
                // delivers the message again.
                group.addTask { [logger, connection = channel.channel] in
                    var nextID: UInt16 = 1
                    for await (id, task) in handled {
                        let replies: [MQTTMessage]
                        do {
                            // A connection ending (the server stopping) cancels the handlers under way.
                            replies = try await withTaskCancellationHandler {
                                try await task.value
                            } onCancel: {
                                task.cancel()
                            }
                        } catch {
                            logger.warning("MQTT: a message was not stored, and is not acknowledged: \(error)")
                            connection.close(promise: nil)
                            throw error
                        }
                        for reply in replies {
                            // Packet id 1 is the SUBSCRIBE's; publishes take 2 to 65535 in turn.
                            nextID = nextID == .max ? 2 : nextID + 1
                            try await outbound.write(.publish(.init(topic: reply.topic, payload: reply.payload, qos: 1, packetID: nextID)))
                        }
                        if let id { try await outbound.write(.puback(packetID: id)) }
                    }
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: .seconds(Double(max(subscription.keepAlive, 1)) / 2))
                        try await outbound.write(.pingreq)
                    }
                }
                while let packet = try await packets.next() {
                    switch packet {
                    case .publish(let publish):
                        finished.yield((publish.qos > 0 ? publish.packetID : nil, Task { try await handle(publish) }))
                    case .suback(_, let codes):
                        if let refused = zip(subscription.filters, codes).first(where: { $0.1 == 0x80 }) {
                            throw MQTTRefusal(description: "the broker refused the subscription to \(refused.0) (check its ACL)")
                        }
                        await onSubscribed()
                    default: break
                    }
                }
                throw MQTTRefusal(description: "the broker closed the connection")
            }
        }
    }

    /// What a CONNACK return code means, and what to change.
    static func connectRefusal(_ code: UInt8) -> String {
        switch code {
        case 1: "the broker refused the connection: it does not speak MQTT 3.1.1"
        case 2: "the broker refused the client id; pass another with client_id="
        case 3: "the broker is unavailable (CONNACK 3); it is retried"
        case 4: "the broker refused the username or password; check them in the --mqtt URL"
        case 5: "the broker refused the connection: not authorized (check its ACL for this user)"
        default: "the broker refused the connection with CONNACK return code \(code)"
        }
    }
}
