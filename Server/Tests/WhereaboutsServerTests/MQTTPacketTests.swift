import NIOCore
import Testing
import WhereaboutsMQTT

/// The MQTT 3.1.1 codec: every packet a subscriber meets reads back as written, however its bytes
/// are cut, and bytes that are no packet are refused.
@Suite("MQTT packets")
struct MQTTPacketTests {
    private static let packets: [MQTTPacket] = [
        .connect(.init(clientID: "whereabouts", cleanSession: false, keepAlive: 30, username: "jane", password: "s3cr3t")),
        .connack(sessionPresent: true, returnCode: 0),
        .subscribe(packetID: 1, filters: [("owntracks/+/+", 1), ("owntracks/+/+/event", 1)]),
        .suback(packetID: 1, returnCodes: [1, 0x80]),
        .publish(.init(topic: "owntracks/jane/phone", payload: Array(#"{"_type":"location"}"#.utf8), qos: 1, packetID: 7)),
        // Remaining lengths of two and three bytes.
        .publish(.init(topic: "t", payload: Array(repeating: 0x41, count: 200), qos: 1, packetID: 65_535, duplicate: true)),
        .publish(.init(topic: "t/q0", payload: Array(repeating: 0x42, count: 20_000), qos: 0, packetID: nil, retain: true)),
        .puback(packetID: 7),
        .pingreq, .pingresp, .disconnect,
    ]

    private static func bytes(_ packets: [MQTTPacket]) -> [UInt8] {
        var buffer = ByteBuffer()
        for packet in packets { packet.write(to: &buffer) }
        return Array(buffer.readableBytesView)
    }

    /// The packets read from `chunks` arriving one after the other.
    private static func read(_ chunks: [ArraySlice<UInt8>]) throws -> [MQTTPacket] {
        var buffer = ByteBuffer()
        var packets: [MQTTPacket] = []
        for chunk in chunks {
            buffer.writeBytes(chunk)
            while let packet = try MQTTPacket.read(from: &buffer) { packets.append(packet) }
        }
        #expect(buffer.readableBytes == 0)
        return packets
    }

    @Test("every packet reads back as written, the stream cut in two at every byte and sent a byte at a time")
    func splitAtEveryByte() throws {
        let stream = Self.bytes(Self.packets)
        // Every cut of the packets before the long one (whose remaining length takes three bytes), and
        // every cut in its header and its last bytes.
        let long = Self.bytes(Array(Self.packets.prefix(6))).count
        for cut in Array(0...long + 8) + Array(stream.count - 40...stream.count) {
            let packets = try Self.read([stream[..<cut], stream[cut...]])
            #expect(packets == Self.packets, "cut at byte \(cut)")
            if packets != Self.packets { return }
        }
        #expect(try Self.read(stream.map { [$0][...] }) == Self.packets)
    }

    @Test("bytes that are no MQTT 3.1.1 packet are refused, naming the problem")
    func refusals() {
        let cases: [([UInt8], String)] = [
            ([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], "remaining length longer than 4 bytes"),
            ([0x00, 0x00], "packet type 0"),
            ([0x36, 0x03, 0x00, 0x01, 0x74], "QoS 3"),
            ([0x40, 0x01, 0x00], "cut short"),
            ([0xC0, 0x01, 0x00], "left over"),
        ]
        for (bytes, problem) in cases {
            var buffer = ByteBuffer(bytes: bytes)
            do {
                _ = try MQTTPacket.read(from: &buffer)
                Issue.record("\(bytes) was read as a packet; expected a refusal: \(problem)")
            } catch {
                #expect(error is MQTTProtocolError && "\(error)".contains(problem), "\(error)")
            }
        }
    }
}
