import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

@Suite("OwnTracks commands taken with a location's write")
struct OwnTracksCommandTests {
    @Test("a location's answer carries the due command once; the next answer does not", arguments: StorageKind.available)
    func takenOnce(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let auth = ["Authorization": "Basic \(Data("\(server.device):\(server.token)".utf8).base64EncodedString())"]
            let tst = Int(Date().timeIntervalSince1970) - 60
            func publish(_ offset: Int) async throws -> String {
                let location = #"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(tst + offset),"acc":9}"#
                let reply = try await server.send("POST", "/pub", token: nil, body: Data(location.utf8), headers: auth)
                #expect(reply.status == 200)
                return String(decoding: reply.body, as: UTF8.self)
            }
            #expect(try await publish(0) == "[]")
            try await queueCommand(.reportLocation, device: server.device, in: server.storage)
            #expect(try await publish(1) == #"[{"_type":"cmd","action":"reportLocation"}]"#)
            #expect(try await publish(2) == "[]")
            #expect(try await server.storage.devices().first { $0.id == server.device }?.locations == 3)
        }
    }
}
