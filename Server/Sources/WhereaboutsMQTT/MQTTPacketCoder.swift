import NIOCore

/// Splits a connection's bytes into ``MQTTPacket``s, however the bytes are cut.
struct MQTTPacketDecoder: ByteToMessageDecoder {
    typealias InboundOut = MQTTPacket

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let packet = try MQTTPacket.read(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(NIOAny(packet))
        return .continue
    }
}

/// Writes ``MQTTPacket``s as bytes.
struct MQTTPacketEncoder: MessageToByteEncoder {
    typealias OutboundIn = MQTTPacket

    func encode(data: MQTTPacket, out: inout ByteBuffer) throws {
        data.write(to: &out)
    }
}
