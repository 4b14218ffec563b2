import NIOCore

/// The MQTT 3.1.1 control packets a subscribing client sends and receives.
public enum MQTTPacket: Sendable, Equatable {
    /// CONNECT: the client's id, the session to resume (`cleanSession` false) and its login.
    case connect(Connect)
    /// CONNACK: whether the broker resumed a session, and its return code (0: accepted).
    case connack(sessionPresent: Bool, returnCode: UInt8)
    case publish(Publish)
    case puback(packetID: UInt16)
    /// SUBSCRIBE: topic filters with their maximum QoS.
    case subscribe(packetID: UInt16, filters: [(String, UInt8)])
    /// SUBACK: the QoS granted to each filter, 0x80 for a refused one.
    case suback(packetID: UInt16, returnCodes: [UInt8])
    case pingreq
    case pingresp
    case disconnect

    /// CONNECT's fields.
    public struct Connect: Sendable, Equatable {
        public var clientID: String
        public var cleanSession: Bool
        /// Seconds between the client's packets before the broker drops it (0: never).
        public var keepAlive: UInt16
        public var username: String?
        public var password: String?

        public init(clientID: String, cleanSession: Bool, keepAlive: UInt16, username: String? = nil, password: String? = nil) {
            self.clientID = clientID
            self.cleanSession = cleanSession
            self.keepAlive = keepAlive
            self.username = username
            self.password = password
        }
    }

    /// PUBLISH's fields; `packetID` is set for QoS 1 and 2.
    public struct Publish: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: UInt8
        public var packetID: UInt16?
        public var duplicate: Bool
        public var retain: Bool

        public init(topic: String, payload: [UInt8], qos: UInt8, packetID: UInt16?, duplicate: Bool = false, retain: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.packetID = packetID
            self.duplicate = duplicate
            self.retain = retain
        }
    }

    public static func == (lhs: MQTTPacket, rhs: MQTTPacket) -> Bool {
        switch (lhs, rhs) {
        case (.subscribe(let a, let f), .subscribe(let b, let g)):
            return a == b && f.map(\.0) == g.map(\.0) && f.map(\.1) == g.map(\.1)
        case (.connect(let a), .connect(let b)): return a == b
        case (.connack(let a, let c), .connack(let b, let d)): return a == b && c == d
        case (.publish(let a), .publish(let b)): return a == b
        case (.puback(let a), .puback(let b)): return a == b
        case (.suback(let a, let c), .suback(let b, let d)): return a == b && c == d
        case (.pingreq, .pingreq), (.pingresp, .pingresp), (.disconnect, .disconnect): return true
        default: return false
        }
    }
}

/// A packet that breaks MQTT 3.1.1: the connection must be closed.
public struct MQTTProtocolError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = "MQTT protocol error: \(description)" }
}

extension MQTTPacket {
    /// Appends the packet's bytes to `buffer`.
    public func write(to buffer: inout ByteBuffer) {
        var body = ByteBuffer()
        let first: UInt8
        switch self {
        case .connect(let connect):
            first = 0x10
            body.writeMQTTString("MQTT")
            body.writeInteger(UInt8(4))
            var flags: UInt8 = connect.cleanSession ? 0x02 : 0
            if connect.username != nil { flags |= 0x80 }
            if connect.password != nil { flags |= 0x40 }
            body.writeInteger(flags)
            body.writeInteger(connect.keepAlive)
            body.writeMQTTString(connect.clientID)
            if let username = connect.username { body.writeMQTTString(username) }
            if let password = connect.password { body.writeMQTTString(password) }
        case .connack(let present, let code):
            first = 0x20
            body.writeInteger(UInt8(present ? 1 : 0))
            body.writeInteger(code)
        case .publish(let publish):
            first = 0x30 | (publish.duplicate ? 0x08 : 0) | (publish.qos << 1) | (publish.retain ? 0x01 : 0)
            body.writeMQTTString(publish.topic)
            if let id = publish.packetID { body.writeInteger(id) }
            body.writeBytes(publish.payload)
        case .puback(let id):
            first = 0x40
            body.writeInteger(id)
        case .subscribe(let id, let filters):
            first = 0x82
            body.writeInteger(id)
            for (filter, qos) in filters {
                body.writeMQTTString(filter)
                body.writeInteger(qos)
            }
        case .suback(let id, let codes):
            first = 0x90
            body.writeInteger(id)
            body.writeBytes(codes)
        case .pingreq: first = 0xC0
        case .pingresp: first = 0xD0
        case .disconnect: first = 0xE0
        }
        buffer.writeInteger(first)
        var length = body.readableBytes
        repeat {
            var byte = UInt8(length % 128)
            length /= 128
            if length > 0 { byte |= 0x80 }
            buffer.writeInteger(byte)
        } while length > 0
        buffer.writeBuffer(&body)
    }

    /// Reads one whole packet from the front of `buffer`; `nil`, consuming nothing, while it is
    /// incomplete.
    /// - Throws: ``MQTTProtocolError`` for bytes that are no MQTT 3.1.1 packet.
    public static func read(from buffer: inout ByteBuffer) throws -> MQTTPacket? {
        var peek = buffer
        guard let first = peek.readInteger(as: UInt8.self) else { return nil }
        var length = 0
        var multiplier = 1
        while true {
            guard let byte = peek.readInteger(as: UInt8.self) else { return nil }
            length += Int(byte & 0x7F) * multiplier
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            guard multiplier <= 128 * 128 * 128 else { throw MQTTProtocolError("a remaining length longer than 4 bytes") }
        }
        guard var body = peek.readSlice(length: length) else { return nil }
        buffer = peek
        let packet = try parse(first: first, body: &body)
        guard body.readableBytes == 0 else { throw MQTTProtocolError("\(body.readableBytes) bytes left over in packet type \(first >> 4)") }
        return packet
    }

    private static func parse(first: UInt8, body: inout ByteBuffer) throws -> MQTTPacket {
        let flags = first & 0x0F
        func integer() throws -> UInt16 {
            guard let value = body.readInteger(as: UInt16.self) else {
                throw MQTTProtocolError("a packet of type \(first >> 4) is cut short")
            }
            return value
        }
        func string() throws -> String {
            guard let string = body.readMQTTString() else { throw MQTTProtocolError("a string of packet type \(first >> 4) is cut short") }
            return string
        }
        switch first >> 4 {
        case 1:
            guard try string() == "MQTT", body.readInteger(as: UInt8.self) == 4, let connectFlags = body.readInteger(as: UInt8.self) else {
                throw MQTTProtocolError("CONNECT is not MQTT 3.1.1")
            }
            var connect = Connect(clientID: "", cleanSession: connectFlags & 0x02 != 0, keepAlive: try integer())
            connect.clientID = try string()
            if connectFlags & 0x04 != 0 {
                _ = try string()
                _ = try string()
            }
            if connectFlags & 0x80 != 0 { connect.username = try string() }
            if connectFlags & 0x40 != 0 { connect.password = try string() }
            return .connect(connect)
        case 2:
            guard let present = body.readInteger(as: UInt8.self), let code = body.readInteger(as: UInt8.self) else {
                throw MQTTProtocolError("CONNACK is cut short")
            }
            return .connack(sessionPresent: present & 1 == 1, returnCode: code)
        case 3:
            let qos = (flags >> 1) & 0x03
            guard qos < 3 else { throw MQTTProtocolError("PUBLISH with QoS 3") }
            let topic = try string()
            let id = qos > 0 ? try integer() : nil
            return .publish(
                Publish(
                    topic: topic, payload: body.readBytes(length: body.readableBytes) ?? [], qos: qos, packetID: id,
                    duplicate: flags & 0x08 != 0, retain: flags & 0x01 != 0))
        case 4: return .puback(packetID: try integer())
        case 8:
            let id = try integer()
            var filters: [(String, UInt8)] = []
            while body.readableBytes > 0 {
                let filter = try string()
                guard let qos = body.readInteger(as: UInt8.self) else { throw MQTTProtocolError("SUBSCRIBE is cut short") }
                filters.append((filter, qos))
            }
            return .subscribe(packetID: id, filters: filters)
        case 9: return .suback(packetID: try integer(), returnCodes: body.readBytes(length: body.readableBytes) ?? [])
        case 12: return .pingreq
        case 13: return .pingresp
        case 14: return .disconnect
        default: throw MQTTProtocolError("packet type \(first >> 4), which a subscriber never receives")
        }
    }
}

extension ByteBuffer {
    /// Writes a length-prefixed UTF-8 string.
    fileprivate mutating func writeMQTTString(_ string: String) {
        writeInteger(UInt16(string.utf8.count))
        writeString(string)
    }

    /// Reads a length-prefixed UTF-8 string.
    fileprivate mutating func readMQTTString() -> String? {
        guard let length = readInteger(as: UInt16.self) else { return nil }
        return readString(length: Int(length))
    }
}
